import type { Violation } from '../protocol/json.js';

/** Stable codes of configuration errors raised by `createHarness`. */
export type HarnessConfigErrorCode =
  'registration-invalid' | 'registration-unsupported' | 'options-invalid' | 'transport-invalid';

/** The harness was configured with something it must not use; nothing was started. */
export class HarnessConfigError extends Error {
  readonly code: HarnessConfigErrorCode;
  readonly violations: Violation[];

  constructor(code: HarnessConfigErrorCode, message: string, violations: Violation[] = []) {
    super(message);
    this.name = 'HarnessConfigError';
    this.code = code;
    this.violations = violations;
  }
}

/** `invoke` was called after `close()`: the call failed locally and reached no backend. */
export class HarnessClosedError extends Error {
  readonly code = 'harness-closed';

  constructor() {
    super('The harness is closed; create a new harness to invoke hooks again.');
    this.name = 'HarnessClosedError';
  }
}

/** `invoke` was given an input that cannot become a valid `tool.before`; nothing was sent. */
export class HarnessInputError extends Error {
  readonly code = 'invoke-input-invalid';
  readonly violations: Violation[];

  constructor(message: string, violations: Violation[] = []) {
    super(message);
    this.name = 'HarnessInputError';
    this.violations = violations;
  }
}
