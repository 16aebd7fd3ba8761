/**
 * The reference AHP harness: the one public entry. Everything a host, a driver or a suite needs
 * is exported here; the modules behind it are internal.
 */
import { createHarnessWith, type Harness } from './harness.js';
import type { HarnessOptions } from './options.js';
import { createTransportForBackend } from './transports/index.js';

/**
 * Creates a harness for one registration, building stdio and HTTP transports for every backend
 * that has no injected transport. Throws `HarnessConfigError` for an invalid registration or
 * options, or a backend whose transport cannot be honoured; nothing is started then.
 */
export function createHarness(options: HarnessOptions): Harness {
  return createHarnessWith(options, (backend, deps) => createTransportForBackend(backend, deps));
}

export { createHarnessWith } from './harness.js';
export type {
  Harness,
  InvokeOptions,
  InvokeResult,
  TransportFactory,
  TransportFactoryDeps,
} from './harness.js';
export type { HarnessOptions } from './options.js';
export type { InvokeInput } from './event.js';
export type { EventInput } from './typed-event.js';
export type { HarnessEvent } from './staging.js';
export { HOST_PERMISSIONS, type HostPermission } from './host-permission.js';
export type { AuditOutcome, AuditRecord } from './audit.js';
export type { TranscriptEntry } from './transcript.js';
export type { Ending } from './interruption.js';
export type { Permission } from './staging.js';
export type { ConfirmedUpload, OwnedAttachments } from './attachment-uploads.js';
export { sendUploadOverHttp, type UploadPost, type UploadSender } from './transports/upload.js';
export {
  HarnessClosedError,
  HarnessConfigError,
  HarnessInputError,
  type HarnessConfigErrorCode,
} from './errors.js';
export { DEFAULT_ADVERTISED_EFFECTS, SUPPORTED_EFFECTS, type SupportedEffect } from './advertised-effects.js';
export { interruptedReason, SYNTHETIC_DENIAL_REASON } from './synthetic-denial.js';
export { DEFAULT_OBSERVER_BOUND_MS } from './observers.js';
export type {
  BackendTransport,
  NotifyOutcome,
  SendContext,
  TokenProvider,
  TransportFailure,
  TransportKind,
  TransportReply,
} from './transport.js';
export { CHILD_ENV_ALLOWLIST, createTransportForBackend, TransportConfigError } from './transports/index.js';
