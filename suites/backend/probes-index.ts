import type { Probe } from './probe.js';
import { DECISION_PROBES, VALUE_PROBES } from './probes-decisions.js';
import { LIVENESS_PROBES } from './probes-liveness.js';
import {
  DEFINED_ERROR_PROBES,
  DUPLICATE_PROBES,
  INVALID_REQUEST_PROBES,
  PARSE_ERROR_PROBES,
  TOOL_LESS_PROBES,
  UNKNOWN_FIELD_PROBES,
  UNPROCESSABLE_REQUEST_PROBES,
} from './probes-robustness.js';
import { WIRE_PROBES } from './probes-wire.js';

/**
 * Every backend probe, in report order: wire, decisions, returned values, duplicates, unknown
 * fields, errors (defined, then unprocessable requests), invalid tool.before events, a line that
 * is not JSON, one that is no Request object, liveness.
 */
export const BACKEND_PROBES: readonly Probe[] = [
  ...WIRE_PROBES,
  ...DECISION_PROBES,
  ...VALUE_PROBES,
  ...DUPLICATE_PROBES,
  ...UNKNOWN_FIELD_PROBES,
  ...DEFINED_ERROR_PROBES,
  ...UNPROCESSABLE_REQUEST_PROBES,
  ...TOOL_LESS_PROBES,
  ...PARSE_ERROR_PROBES,
  ...INVALID_REQUEST_PROBES,
  ...LIVENESS_PROBES,
];
