import { describe, expect, it } from 'vitest';
import { findingKey } from '../../common/finding.js';
import { blockingFinding, frameFault } from './blocking.js';
import { unparseableFrame } from './test-support/wire-samples.js';

const frame = unparseableFrame;

const request = frame('{"jsonrpc":"2.0","id":1,"method":"hooks/intercept","params":{}}', {
  kind: 'request',
  method: 'hooks/intercept',
  hasId: true,
});

describe('frameFault', () => {
  it('names the framing rule of the transport for bytes that are not JSON', () => {
    expect(findingKey(frameFault(frame('not json')) ?? { rule: '' })).toBe('stdio.framing#not-json');
    expect(findingKey(frameFault(frame('{oops', { transport: 'http' })) ?? { rule: '' })).toBe(
      'http.body#not-json',
    );
    expect(frameFault(frame(''))?.way).toBe('empty');
    expect(frameFault(frame({ base64: '/w==' }))?.rule).toBe('rpc.utf8');
  });

  it('names the envelope rules for JSON that is no decision request', () => {
    expect(frameFault(frame('[{"jsonrpc":"2.0"}]'))?.way).toBe('batch');
    expect(frameFault(frame('{"id":1,"method":"hooks/intercept"}'))?.way).toBe('not-json-rpc');
    const notification = frame('{"jsonrpc":"2.0","method":"hooks/intercept","params":{}}');
    expect(findingKey(frameFault(notification) ?? { rule: '' })).toBe('rpc.intercept-request#notification');
    expect(frameFault(frame('{"jsonrpc":"2.0","id":2,"method":"hooks/ask"}'))?.way).toBe('other-method');
    expect(frameFault(notification)?.requirement).toBe('AHP-RPC-002');
  });

  it('finds nothing wrong with a request the mock can answer, or an observation', () => {
    expect(frameFault(request)).toBeUndefined();
    expect(frameFault(frame('{"jsonrpc":"2.0","method":"hooks/observe","params":{}}'))).toBeUndefined();
  });
});

describe('blockingFinding', () => {
  it('blocks on the most fundamental fault when no frame is a request the mock can answer', () => {
    const blocker = blockingFinding([
      frame('{"jsonrpc":"2.0","method":"hooks/intercept"}'),
      frame('garbage'),
    ]);
    expect(blocker?.rule).toBe('stdio.framing');
    expect(blocker?.rank).toBe(0);
  });

  it('does not block when nothing arrived, an answerable request arrived, or only observations', () => {
    expect(blockingFinding([])).toBeUndefined();
    expect(blockingFinding([frame('garbage'), request])).toBeUndefined();
    expect(blockingFinding([frame('{"jsonrpc":"2.0","method":"hooks/observe"}')])).toBeUndefined();
  });
});
