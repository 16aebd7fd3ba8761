import {
  NdjsonDecoder,
  checkRequestEnvelope,
  isJsonObject,
  validateCapabilitiesRequest,
  validateCapabilitiesResponse,
  validateInterceptRequest,
  validateInterceptResponse,
  validateObserveNotification,
  validateRegistration,
  type Capabilities,
  type JsonObject,
  type JsonValue,
  type ResponseContext,
  type Violation,
} from '../../protocol/index.js';

/** What a JSON value was recognised as, from its content alone. */
export type DocumentKind =
  | 'registration document'
  | 'intercept request'
  | 'observe notification'
  | 'capabilities request'
  | 'capabilities response'
  | 'intercept response'
  | 'JSON-RPC message'
  | 'unrecognised JSON'
  | 'NDJSON frame';

/** The verdict on one document: a whole file, or one line of an NDJSON file. */
export interface ItemVerdict {
  /** 1-based line for NDJSON files; absent for a whole-file document. */
  line?: number;
  kind: DocumentKind;
  violations: Violation[];
  /** Tolerated findings (unknown registration fields, odd timeouts): reported, never failing. */
  warnings: Violation[];
}

/** The kind of a JSON value, decided by the fields that only that kind carries. */
export function detectKind(value: JsonValue): DocumentKind {
  if (Array.isArray(value)) return 'JSON-RPC message';
  if (!isJsonObject(value)) return 'unrecognised JSON';
  if ('hooks' in value || ('protocolVersion' in value && !('jsonrpc' in value)))
    return 'registration document';
  if (typeof value.method === 'string') {
    if (value.method === 'hooks/intercept') return 'intercept request';
    if (value.method === 'hooks/observe') return 'observe notification';
    if (value.method === 'hooks/capabilities') return 'capabilities request';
    return 'JSON-RPC message';
  }
  if ('result' in value || 'error' in value) {
    return isJsonObject(value.result) && 'manifest' in value.result
      ? 'capabilities response'
      : 'intercept response';
  }
  return 'jsonrpc' in value ? 'JSON-RPC message' : 'unrecognised JSON';
}

/** What an earlier request in the same file tells about the response to it. */
function contextFrom(request: JsonObject): ResponseContext {
  const params = isJsonObject(request.params) ? request.params : {};
  const event = isJsonObject(params.event) ? params.event : undefined;
  const ctx: ResponseContext = { requestId: request.id as string };
  if (typeof params.protocolVersion === 'string') ctx.protocolVersion = params.protocolVersion;
  if (event && typeof event.type === 'string' && isJsonObject(params.capabilities)) {
    ctx.eventType = event.type;
    ctx.capabilities = params.capabilities as unknown as Capabilities;
    ctx.event = event;
  }
  return ctx;
}

/** Validates one value by its kind; `requests` lets a response be judged at its request's boundary. */
export function judgeValue(value: JsonValue, requests: Map<string, JsonObject> = new Map()): ItemVerdict {
  const kind = detectKind(value);
  const verdict = (violations: Violation[], warnings: Violation[] = []): ItemVerdict => ({
    kind,
    violations,
    warnings,
  });
  switch (kind) {
    case 'registration document': {
      const check = validateRegistration(value);
      return check.ok ? verdict([], check.warnings) : verdict(check.violations);
    }
    case 'intercept request': {
      const violations = validateInterceptRequest(value);
      const id = (value as JsonObject).id;
      if (typeof id === 'string') requests.set(id, value as JsonObject);
      return verdict(violations);
    }
    case 'observe notification':
      return verdict(validateObserveNotification(value));
    case 'capabilities request':
      return verdict(validateCapabilitiesRequest(value));
    case 'capabilities response':
      return verdict(validateCapabilitiesResponse(value));
    case 'intercept response': {
      const id = (value as JsonObject).id;
      const request = typeof id === 'string' ? requests.get(id) : undefined;
      return verdict(validateInterceptResponse(value, request ? contextFrom(request) : {}));
    }
    case 'JSON-RPC message': {
      const envelope = checkRequestEnvelope(value);
      if (envelope.kind === 'invalid') return verdict(envelope.violations);
      return verdict([
        {
          path: '$.method',
          message: `"${envelope.method}" is not an AHP method (hooks/intercept, hooks/observe, hooks/capabilities)`,
          requirement: 'AHP-RPC-002',
        },
      ]);
    }
    default:
      return verdict([
        {
          path: '$',
          message:
            'neither a registration document (protocolVersion, hooks) nor a JSON-RPC 2.0 message (jsonrpc, method or result/error)',
          requirement: 'AHP-RPC-001',
        },
      ]);
  }
}

function judgeNdjson(bytes: Uint8Array): ItemVerdict[] {
  const decoder = new NdjsonDecoder();
  // A file is not a stream: a missing final newline is not a torn frame.
  const terminated =
    bytes.length > 0 && bytes[bytes.length - 1] !== 0x0a
      ? [...decoder.push(bytes), ...decoder.push(new Uint8Array([0x0a]))]
      : decoder.push(bytes);
  const items = [...terminated, ...decoder.end()];
  const requests = new Map<string, JsonObject>();
  return items.map((item, index) => {
    const line = index + 1;
    if (item.kind === 'fault') {
      return {
        line,
        kind: 'NDJSON frame' as const,
        violations: [{ path: '$', message: `framing: ${item.message}`, requirement: 'AHP-STDIO-001' }],
        warnings: [],
      };
    }
    return { line, ...judgeValue(item.value, requests) };
  });
}

/**
 * Judges a file's bytes. A `.jsonl`/`.ndjson` file, or one that is not a single JSON value but
 * has several lines, is read as NDJSON (one message per line, framing checked as stdio does);
 * anything else is one document. UTF-8 is decoded fatally: invalid bytes are a violation.
 */
export function judgeFile(bytes: Uint8Array, name: string): ItemVerdict[] {
  if (/\.(?:jsonl|ndjson)$/i.test(name)) return judgeNdjson(bytes);
  let text: string;
  try {
    text = new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch {
    return [
      {
        kind: 'unrecognised JSON',
        violations: [{ path: '$', message: 'the file is not valid UTF-8', requirement: 'AHP-RPC-001' }],
        warnings: [],
      },
    ];
  }
  let value: JsonValue;
  try {
    value = JSON.parse(text) as JsonValue;
  } catch (error) {
    if (text.trim().split(/\r?\n/).length > 1) return judgeNdjson(bytes);
    return [
      {
        kind: 'unrecognised JSON',
        violations: [
          { path: '$', message: `not JSON (${(error as Error).message})`, requirement: 'AHP-RPC-001' },
        ],
        warnings: [],
      },
    ];
  }
  return [judgeValue(value)];
}
