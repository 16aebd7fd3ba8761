import type { FailureClass } from '../../protocol/failure-classes.js';
import type { FramingFaultCode } from '../../protocol/ndjson.js';
import type { TransportFailure, TransportReply } from '../transport.js';

const FRAMING_FAULTS: readonly FramingFaultCode[] = [
  'invalid-utf8',
  'frame-too-large',
  'not-json',
  'empty-line',
  'multi-line',
];

/**
 * Every stable code a transport or the bearer source reports, with the one failure class it
 * always maps to. One table, so a code can never be reported under two classes.
 */
export const TRANSPORT_FAILURE_CODES = {
  'stdio.launch-failed': 'process',
  'stdio.exit-nonzero': 'process',
  'stdio.signal': 'process',
  'stdio.stdout-closed': 'process',
  'stdio.exit-before-reply': 'process',
  'stdio.write-failed': 'process',
  'stdio.closed': 'process',
  ...(Object.fromEntries(FRAMING_FAULTS.map((f) => [`stdio.framing.${f}`, 'malformed'])) as Record<
    `stdio.framing.${FramingFaultCode}`,
    'malformed'
  >),
  'stdio.unsolicited-output': 'malformed',
  'stdio.no-reply': 'process',
  'stdio.extra-reply': 'malformed',
  'http.status': 'http-status',
  'http.redirect': 'http-status',
  'http.media-type': 'malformed',
  'http.body-not-utf8': 'malformed',
  'http.body-not-json': 'malformed',
  'http.body-too-large': 'malformed',
  'http.notify-body': 'malformed',
  'http.connection-refused': 'connection',
  'http.connection-reset': 'connection',
  'http.connection-failed': 'connection',
  'http.closed': 'connection',
  'auth.env-missing': 'auth',
  'auth.ref-unknown': 'auth',
  'auth.token-invalid': 'auth',
  'auth.provider-failed': 'auth',
  'auth.unauthorized': 'auth',
  'auth.refresh-failed': 'auth',
  deadline: 'deadline-exceeded',
} as const satisfies Record<string, FailureClass>;

/** A stable transport failure code. */
export type TransportFailureCode = keyof typeof TRANSPORT_FAILURE_CODES;

/** The list of stable transport failure codes, for reports and documentation. */
export const TRANSPORT_FAILURE_CODE_LIST = Object.keys(TRANSPORT_FAILURE_CODES) as TransportFailureCode[];

/** Builds a failure whose class follows from its code. */
export function transportFailure(code: TransportFailureCode, detail: string): TransportFailure {
  return { failureClass: TRANSPORT_FAILURE_CODES[code], code, detail };
}

/** A failed reply, optionally carrying the bytes that caused it (local diagnostics only). */
export function failedReply(code: TransportFailureCode, detail: string, raw?: Uint8Array): TransportReply {
  const failure = transportFailure(code, detail);
  return raw === undefined ? { ok: false, failure } : { ok: false, failure, raw };
}

/** The code for an NDJSON framing fault on stdio. */
export function framingCode(fault: FramingFaultCode): TransportFailureCode {
  return `stdio.framing.${fault}`;
}

/** The failure every transport reports when the caller's signal aborts; the core reclassifies by reason. */
export function abortedFailure(cancel: { readonly reason: unknown }): TransportFailure {
  const reason: unknown = cancel.reason;
  const name = reason instanceof Error ? reason.name : typeof reason === 'string' ? reason : 'abort';
  return transportFailure('deadline', `the request was abandoned when its signal aborted (${name})`);
}

/** A short, printable preview of backend bytes for local diagnostics. */
export function preview(raw: Uint8Array, max = 120): string {
  const text = Buffer.from(raw.subarray(0, max)).toString('latin1');
  const shown = JSON.stringify(text);
  return raw.length > max ? `${shown}... (${raw.length} bytes)` : shown;
}
