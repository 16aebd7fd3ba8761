// The suite's checks of a driver's replies: each is the protocol schema's, with fields named from
// `$.result`, every problem reported at once.
import {
  checkShape,
  closeResultSchema,
  configureResultSchema,
  initializeResultSchema,
  invokeResultSchema,
  type CloseResult,
  type ConfigureResult,
  type InitializeResult,
  type InvokeResult,
  type ShapeCheck,
} from '../../protocol/driver-protocol/index.js';
import type { JsonValue } from '../../protocol/json.js';

export type { ShapeCheck, ShapeProblem } from '../../protocol/driver-protocol/index.js';

const ROOT = '$.result';

/** Checks an `initialize` result against the protocol's shape. */
export function checkInitializeResult(value: JsonValue | undefined): ShapeCheck<InitializeResult> {
  return checkShape(initializeResultSchema, value, ROOT);
}

/** Checks a `configure` result against the protocol's shape. */
export function checkConfigureResult(value: JsonValue | undefined): ShapeCheck<ConfigureResult> {
  return checkShape(configureResultSchema, value, ROOT);
}

/** Checks an `invoke` result against the protocol's shape, every audit entry included. */
export function checkInvokeResult(value: JsonValue | undefined): ShapeCheck<InvokeResult> {
  return checkShape(invokeResultSchema, value, ROOT);
}

/** Checks a `close` result: an object (the protocol defines no members). */
export function checkCloseResult(value: JsonValue | undefined): ShapeCheck<CloseResult> {
  return checkShape(closeResultSchema, value, ROOT);
}
