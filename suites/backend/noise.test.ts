import { describe, expect, it } from 'vitest';
import { decodeLine } from '../../protocol/ndjson.js';
import { isNoiseLine, noiseFault } from './noise.js';

const line = (text: string) => decodeLine(Buffer.from(text, 'utf8'));

describe('noise on stdout', () => {
  it('is any line that is not a JSON-RPC message; a message written wrongly is not noise', () => {
    for (const noise of [
      'example policy backend 1.0 ready',
      '',
      '   ',
      '42',
      '"ready"',
      '{"event":"listening"}',
    ]) {
      expect(isNoiseLine(line(noise)), noise).toBe(true);
    }
    for (const message of [
      '{"jsonrpc":"2.0","id":1,"result":{}}',
      '{"id":1,"result":{}}',
      '{"jsonrpc":"2.0","id":null,"error":{"code":-32600,"message":"x"}}',
      '[{"jsonrpc":"2.0","id":1,"result":{}}]',
      '{',
      '  "jsonrpc": "2.0",',
    ]) {
      expect(isNoiseLine(line(message)), message).toBe(false);
    }
    expect(isNoiseLine(decodeLine(Uint8Array.from([0x7b, 0xff, 0x7d])))).toBe(false);
  });

  it('is one AHP-STDIO-001 fault per step, keyed without the lines it quotes', () => {
    expect(noiseFault(0, [])).toBeUndefined();
    const a = noiseFault(0, [Buffer.from('handled request evt_1')]);
    const b = noiseFault(4, [Buffer.from('handled request evt_9'), Buffer.from('done')]);
    expect(a).toMatchObject({ requirement: 'AHP-STDIO-001', step: 1, way: 'non-protocol-line' });
    expect(b?.message).toMatch(/wrote 2 line\(s\).*"handled request evt_9" \(and 1 more\)$/);
    expect([a?.rule.key, a?.way, a?.summary]).toEqual([b?.rule.key, b?.way, b?.summary]);
  });
});
