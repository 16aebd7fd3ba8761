/**
 * Data of the AHP-FAIL-001 matrix: for each of the twelve operational-failure classes, the mock
 * behaviours (or endpoints) that provoke it and the transports where each applies. The expected
 * outcome of every variant is derived (kit/classify.ts), never written here.
 */
import type { FailureClass } from '../../../protocol/failure-classes.js';
import type { Behaviour } from '../../../mock-backend/index.js';
import type { HarnessCase } from '../kit/case-model.js';
import type { HarnessTransport } from '../kit/timing.js';

/** One way to provoke a failure class. */
export interface ClassVariant {
  label: string;
  behaviour: Behaviour;
  transports: readonly HarnessTransport[];
  endpoint?: HarnessCase['endpoint'];
  auth?: HarnessCase['auth'];
  /** The reply comes after the deadline (late-response). */
  late?: boolean;
  /**
   * The variant gets a case of its own: the backend is gone afterwards (a later call would test
   * restarting, which the seed does not require), or the variant may turn out untested.
   */
  alone?: boolean;
}

/**
 * Variants that exercise reply parsing again rather than the per-event process handling run on
 * persistent stdio and HTTP only: every per-event call costs a process spawn, and the suite's
 * time budget is better spent on one variant per class there (plus the per-event specific ones).
 */
const PARSE_ONLY: readonly HarnessTransport[] = ['stdio-persistent', 'http'];

const ALL: readonly HarnessTransport[] = ['stdio-persistent', 'stdio-per_event', 'http'];
const STDIO: readonly HarnessTransport[] = ['stdio-persistent', 'stdio-per_event'];
const HTTP: readonly HarnessTransport[] = ['http'];

const respond: Behaviour = { kind: 'respond' };

/** Every class with its variants, in the seed's order. */
export const CLASS_VARIANTS: Readonly<Record<FailureClass, readonly ClassVariant[]>> = {
  'deadline-exceeded': [{ label: 'no-reply-before-deadline', behaviour: { kind: 'hang' }, transports: ALL }],
  connection: [
    { label: 'connection-reset', behaviour: { kind: 'reset' }, transports: HTTP, alone: true },
    { label: 'connection-refused', behaviour: respond, transports: HTTP, endpoint: 'refused', alone: true },
  ],
  process: [
    { label: 'exit-nonzero', behaviour: { kind: 'exit', code: 3 }, transports: STDIO, alone: true },
    {
      label: 'killed-by-signal',
      behaviour: { kind: 'signal', signal: 'SIGKILL' },
      transports: STDIO,
      alone: true,
    },
    // On per_event, a closed stdout and no reply is the exit-0-without-reply variant again.
    { label: 'stdout-closed', behaviour: { kind: 'reset' }, transports: ['stdio-persistent'], alone: true },
    { label: 'launch-failure', behaviour: respond, transports: STDIO, endpoint: 'unlaunchable', alone: true },
    { label: 'exit-0-without-reply', behaviour: { kind: 'silent' }, transports: ['stdio-per_event'] },
  ],
  auth: [
    { label: 'http-401', behaviour: { kind: 'http-unauthorized' }, transports: HTTP, auth: 'token' },
    {
      label: 'token-variable-missing',
      behaviour: respond,
      transports: HTTP,
      auth: 'missing-token',
      alone: true,
    },
  ],
  'http-status': [
    { label: 'status-500', behaviour: { kind: 'http-status', status: 500 }, transports: HTTP },
    {
      label: 'status-503-with-json',
      behaviour: {
        kind: 'http-status',
        status: 503,
        contentType: 'application/json',
        body: { text: '{"error":"unavailable"}' },
      },
      transports: HTTP,
    },
    {
      label: 'redirect-not-followed',
      behaviour: { kind: 'http-redirect', location: '/elsewhere' },
      transports: HTTP,
    },
    { label: 'status-202-for-a-request', behaviour: { kind: 'silent' }, transports: HTTP },
  ],
  malformed: [
    { label: 'json-cut-off', behaviour: { kind: 'malformed-json' }, transports: ALL },
    { label: 'invalid-utf8', behaviour: { kind: 'malformed-utf8' }, transports: PARSE_ONLY },
    {
      label: 'no-jsonrpc-member',
      behaviour: { kind: 'not-jsonrpc', variant: 'no-jsonrpc' },
      transports: PARSE_ONLY,
    },
    {
      label: 'result-and-error',
      behaviour: { kind: 'not-jsonrpc', variant: 'result-and-error' },
      transports: PARSE_ONLY,
    },
    { label: 'batch-reply', behaviour: { kind: 'not-jsonrpc', variant: 'batch' }, transports: PARSE_ONLY },
    { label: 'multi-line-frame', behaviour: { kind: 'pretty', indent: 2 }, transports: STDIO },
    { label: 'media-type-not-json', behaviour: { kind: 'wrong-content-type' }, transports: HTTP },
  ],
  'id-mismatch': [
    {
      label: 'other-string-id',
      behaviour: { kind: 'mismatched-id', id: 'evt-not-this-one' },
      transports: ALL,
    },
    // Below zero: a harness that numbers its requests by counting never sent it.
    { label: 'numeric-id', behaviour: { kind: 'mismatched-id', id: -7 }, transports: PARSE_ONLY },
  ],
  'jsonrpc-error': [
    { label: 'backend-internal-error', behaviour: { kind: 'rpc-error', code: -32004 }, transports: ALL },
    { label: 'backend-unavailable', behaviour: { kind: 'rpc-error', code: -32003 }, transports: PARSE_ONLY },
    {
      label: 'standard-internal-error',
      behaviour: { kind: 'rpc-error', code: -32603 },
      transports: PARSE_ONLY,
    },
  ],
  unsupported: [
    {
      label: 'unsupported-version-error',
      behaviour: { kind: 'rpc-error', code: -32001, data: { supported: ['1999-01-01'] } },
      transports: ALL,
    },
    {
      label: 'unsupported-event-error',
      behaviour: { kind: 'rpc-error', code: -32002 },
      transports: PARSE_ONLY,
    },
    {
      label: 'result-version-differs',
      behaviour: { kind: 'respond', protocolVersion: '1900-01-01' },
      transports: PARSE_ONLY,
    },
  ],
  'missing-fields': [
    { label: 'no-effects', behaviour: { kind: 'respond', omit: ['effects'] }, transports: ALL },
    {
      label: 'no-protocol-version',
      behaviour: { kind: 'respond', omit: ['protocolVersion'] },
      transports: PARSE_ONLY,
    },
  ],
  'invalid-effects': [
    {
      label: 'unknown-effect-type',
      behaviour: { kind: 'respond', effects: [{ type: 'teleport' }] },
      transports: ALL,
    },
    {
      label: 'deny-without-reason',
      behaviour: { kind: 'respond', effects: [{ type: 'deny' }] },
      transports: PARSE_ONLY,
    },
    {
      label: 'effects-not-an-array',
      behaviour: { kind: 'respond', effects: { type: 'deny', reason: 'not in a list' } },
      transports: PARSE_ONLY,
    },
    {
      label: 'unadvertised-return',
      behaviour: { kind: 'respond', effects: [{ type: 'return', value: { stdout: 'supplied' } }] },
      transports: ALL,
      alone: true,
    },
  ],
  'late-response': [
    {
      label: 'reply-after-deadline',
      behaviour: respond,
      transports: ['stdio-persistent', 'http'],
      late: true,
    },
  ],
};
