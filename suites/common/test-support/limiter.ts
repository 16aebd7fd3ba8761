/** A small semaphore: at most `slots` pieces of work run at once; the others wait their turn, first come first served. */
export function limiter(slots: number): <T>(work: () => Promise<T>) => Promise<T> {
  let free = slots;
  const waiting: (() => void)[] = [];
  return async (work) => {
    if (free === 0) await new Promise<void>((resolve) => waiting.push(resolve));
    else free -= 1;
    try {
      return await work();
    } finally {
      const next = waiting.shift();
      if (next) next();
      else free += 1;
    }
  };
}
