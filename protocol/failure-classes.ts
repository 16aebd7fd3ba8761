/**
 * The twelve operational-failure classes of the failure-semantics text, with the stable codes
 * used in audit records, the driver protocol and reports. An explicit valid deny is not one.
 */
export const FAILURE_CLASSES = [
  'deadline-exceeded',
  'connection',
  'process',
  'auth',
  'http-status',
  'malformed',
  'id-mismatch',
  'jsonrpc-error',
  'unsupported',
  'missing-fields',
  'invalid-effects',
  'late-response',
] as const;

export type FailureClass = (typeof FAILURE_CLASSES)[number];

/** What each class means, in the words of the mission text. */
export const FAILURE_CLASS_TEXT: Readonly<Record<FailureClass, string>> = {
  'deadline-exceeded': 'Deadline exceeded',
  connection: 'Connection refused, reset, or lost',
  process: 'Backend process launch failure or abnormal exit',
  auth: 'Authentication failure, including credential resolution, acquisition, or refresh failure',
  'http-status': 'Non-success HTTP response',
  malformed: 'Malformed UTF-8, JSON, or JSON-RPC',
  'id-mismatch': 'Mismatched JSON-RPC request and response IDs',
  'jsonrpc-error': 'JSON-RPC error response',
  unsupported: 'Unsupported protocol version or event',
  'missing-fields': 'Missing required result fields',
  'invalid-effects': 'Unadvertised, unknown, malformed, or conflicting effects',
  'late-response': 'Backend response received after the deadline',
};

export function isFailureClass(value: unknown): value is FailureClass {
  return typeof value === 'string' && (FAILURE_CLASSES as readonly string[]).includes(value);
}

/** The failure policies of an intercept subscription. There is no default. */
export const FAILURE_POLICIES = ['fail-open', 'fail-closed'] as const;
export type FailurePolicy = (typeof FAILURE_POLICIES)[number];
