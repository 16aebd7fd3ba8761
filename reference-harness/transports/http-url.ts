import { isIP } from 'node:net';

/** Why a backend entry cannot be turned into a transport; the core makes it a registration issue. */
export class TransportConfigError extends Error {
  readonly code: string;
  constructor(code: string, message: string) {
    super(message);
    this.name = 'TransportConfigError';
    this.code = code;
  }
}

/** Why an HTTP backend URL cannot be used. */
export class HttpTransportConfigError extends TransportConfigError {
  declare readonly code: 'http.invalid-url' | 'http.insecure-url';
  constructor(code: 'http.invalid-url' | 'http.insecure-url', message: string) {
    super(code, message);
    this.name = 'HttpTransportConfigError';
  }
}

/** True for 127.0.0.0/8, ::1 (and its IPv4-mapped loopback forms) and the name `localhost`. */
export function isLoopbackHost(hostname: string): boolean {
  const host = hostname.startsWith('[') && hostname.endsWith(']') ? hostname.slice(1, -1) : hostname;
  const lower = host.toLowerCase();
  if (lower === 'localhost') return true;
  if (isIP(lower) === 4) return lower.startsWith('127.');
  if (isIP(lower) === 6) {
    if (lower === '::1') return true;
    // WHATWG URL writes ::ffff:127.0.0.1 as ::ffff:7f00:1; the first hextet 7fxx is 127/8.
    return /^::ffff:7f[0-9a-f]{2}:[0-9a-f]{1,4}$/.test(lower) || /^::ffff:127\.\d+\.\d+\.\d+$/.test(lower);
  }
  return false;
}

/**
 * Parses and checks a backend URL: absolute `https:`, or plain `http:` only to a loopback host
 * (remote endpoints must use TLS). Throws `HttpTransportConfigError` otherwise.
 */
export function checkBackendUrl(raw: string): URL {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new HttpTransportConfigError(
      'http.invalid-url',
      `${JSON.stringify(raw)} is not an absolute URL; give a full https:// URL.`,
    );
  }
  if (url.protocol === 'https:') return url;
  if (url.protocol !== 'http:') {
    throw new HttpTransportConfigError(
      'http.invalid-url',
      `${JSON.stringify(raw)} is not an http(s) URL; give a full https:// URL.`,
    );
  }
  if (!isLoopbackHost(url.hostname)) {
    throw new HttpTransportConfigError(
      'http.insecure-url',
      `${JSON.stringify(raw)} uses plain http to a non-loopback host; use https, or http only to 127.0.0.1, ::1 or localhost.`,
    );
  }
  return url;
}
