import { describe, expect, it } from 'vitest';
import { frameLines } from './case-guard.js';
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
