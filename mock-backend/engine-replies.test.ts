import { describe, expect, it } from 'vitest';
import { plainSuccessText, replyText, successResult, type ReplyContext } from './engine-replies.js';

describe('replyText: the plain success', () => {
  it('is byte for byte what JSON.stringify makes of the default [] success, for any id and version', () => {
    const ids = ['evt_1', 'a "quoted" \\ id', 'ünï\u2028cödé', 7, -0.5, null];
    for (const replyId of ids) {
      for (const protocolVersion of ['draft', '0.1', 'x"y']) {
        const ctx: ReplyContext = { transport: 'stdio', replyId, protocolVersion };
        const general = JSON.stringify({ jsonrpc: '2.0', id: replyId, result: successResult(ctx, {}) });
        expect(plainSuccessText(ctx)).toBe(general);
        expect(replyText(ctx, { kind: 'respond' })).toBe(general);
      }
    }
  });

  it('leaves every respond option to the general path', () => {
    const ctx: ReplyContext = { transport: 'http', replyId: 'e', protocolVersion: 'draft' };
    expect(
      JSON.parse(replyText(ctx, { kind: 'respond', effects: [{ type: 'deny' }] })).result.effects,
    ).toEqual([{ type: 'deny' }]);
    expect(JSON.parse(replyText(ctx, { kind: 'respond', protocolVersion: '9' })).result.protocolVersion).toBe(
      '9',
    );
    expect(JSON.parse(replyText(ctx, { kind: 'respond', omit: ['effects'] })).result).toEqual({
      protocolVersion: 'draft',
    });
    expect(JSON.parse(replyText(ctx, { kind: 'respond', extensions: { x: 1 } })).result.extensions).toEqual({
      x: 1,
    });
  });
});
