/**
 * The CLI owns the process's SIGINT and SIGTERM (cli/main.ts): a signal stops the run, which then
 * reaps its children and writes the partial report. vitest's logger registers one-shot listeners
 * that exit the process a millisecond after either signal, which would end the run with no report
 * and children left running: while vitest starts, those are removed as they are added.
 */

const SIGNALS = new Set<string | symbol>(['SIGINT', 'SIGTERM']);

/** Runs `start` with one-shot SIGINT/SIGTERM listeners (`process.once`) removed as they are added. */
export async function withSignalsOwned<T>(start: () => Promise<T>): Promise<T> {
  const onNewListener = (event: string | symbol, listener: (...args: unknown[]) => void): void => {
    if (!SIGNALS.has(event)) return;
    // 'newListener' fires just before the add: look once it is in place. No signal can be
    // delivered in between, since signals arrive through the event loop.
    queueMicrotask(() => {
      const oneShot = process
        .rawListeners(event as NodeJS.Signals)
        .some((raw) => (raw as { listener?: unknown }).listener === listener);
      if (oneShot) process.removeListener(event as NodeJS.Signals, listener);
    });
  };
  process.on('newListener', onNewListener);
  try {
    return await start();
  } finally {
    process.off('newListener', onNewListener);
  }
}
