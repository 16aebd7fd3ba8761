import { describe, expect, it } from 'vitest';
import { caseFrames, frameLines } from './case-guard.js';
import type { WireFrame } from './wire-records.js';

describe('frameLines', () => {
  it('shows each received frame and what the mock wrote, clipped to one line each', () => {
    const frame = {
      delivery: 2,
      kind: 'request',
      transport: 'stdio',
      connectionId: '42',
      atMs: 12.4,
      bytes: { text: `{"jsonrpc":"2.0",\n "id":"e1","pad":"${'x'.repeat(300)}"}` },
      hasId: true,
      behaviour: { kind: 'respond' },
      actions: [{ type: 'write', afterMs: 5, bytes: { text: '{"ok":1}\n' } }],
    } as unknown as WireFrame;
    const lines = frameLines([frame]);
    expect(lines).toHaveLength(2);
    expect(lines[0]).toMatch(/^> #2 stdio conn 42 at 12 ms: \{"jsonrpc":"2.0", "id":"e1"/);
    expect(lines[0]?.endsWith('...')).toBe(true);
    expect(lines[1]).toBe('<   mock wrote after 5 ms: {"ok":1}');
  });
});

describe('caseFrames', () => {
  const at = (delivery: number, atWallMs: number, transport: string) =>
    ({ delivery, atWallMs, transport }) as unknown as WireFrame;

  it('keeps only the frames that arrived since the case began, in delivery order per mock', () => {
    const stdio = [at(2, 1_000, 'stdio'), at(1, 990, 'stdio')];
    // The HTTP mock still holds an earlier case's frames: the case never used it.
    const http = [at(7, 400, 'http'), at(8, 420, 'http')];
    expect(caseFrames([stdio, http], 950).map((f) => [f.transport, f.delivery])).toEqual([
      ['stdio', 1],
      ['stdio', 2],
    ]);
    expect(caseFrames([stdio, http], 0).map((f) => f.delivery)).toEqual([1, 2, 7, 8]);
  });
});
