import { systemClock, type Clock } from '../../protocol/clock.js';
import { INTERCEPTABLE_EVENTS } from '../../protocol/events.js';
import { PROTOCOL_VERSION } from '../../protocol/wire-types.js';
import {
  createHarness,
  HarnessClosedError,
  HarnessConfigError,
  HarnessInputError,
  type Harness,
  type HarnessOptions,
  type SupportedEffect,
} from '../index.js';
import { DRIVER_ERROR_CODES, DriverMethodError } from './errors.js';
import { packageVersion } from './package-version.js';
import { parseClose, parseConfigure, parseInitialize, parseInvoke } from './params.js';
import { toDriverInvokeResult, type DriverInvokeResult } from './result-mapping.js';

/** What the reference harness can do, as announced in `initialize` (docs/driver-protocol.md). */
export const REFERENCE_FEATURES = {
  retries: true,
  budget: true,
  cancel: true,
  close: true,
  observe: true,
  tokenEnv: true,
  // The driver protocol has no way to hand a token provider to the harness.
  tokenProvider: false,
  stdioPersistent: true,
  stdioPerEvent: true,
  http: true,
  // v1.1: every interceptable event can be raised, results say whether the operation ran, and
  // the host permission is applied after settlement.
  events: [...INTERCEPTABLE_EVENTS],
  execution: true,
  hostPermission: true,
  // v1.2: attachment bytes are uploaded to subscriptions that configure upload.
  uploads: true,
  // v1.3: results carry the outcome members, and a call may bring its own advertisement.
  outcomes: true,
  advertise: true,
} as const;

/**
 * The effects the driven harness advertises at tool.before: deny; modify of the tool input (replace
 * and merge), so that a chain of backends can edit what it passes on (AHP-EDIT-001); flow stop, so
 * that a backend may end decision-making without denying (AHP-COMP-001); and allow and ask, which the host permission
 * (driver protocol v1.1) gives a meaning: ask holds an operation for an approval this host never
 * gives, and allow never lifts what the host refused. A harness default may override.
 */
export const REFERENCE_ADVERTISED_EFFECTS: readonly SupportedEffect[] = [
  'deny',
  'modify',
  'allow',
  'ask',
  'flow',
];

/** The implementation name announced in `initialize`. */
export const REFERENCE_DRIVER_NAME = 'ahp-conformance-reference-harness';

/** Harness options a driver's owner may fix; registration, retries, env and clock come from the driver's methods. */
export type DriverHarnessDefaults = Omit<HarnessOptions, 'registration' | 'retries' | 'env' | 'clock'>;

/** Inputs of the driver's methods. */
export interface DriverMethodsOptions {
  /** The environment the harness reads `tokenEnv` from and builds child environments out of. */
  env: Record<string, string | undefined>;
  clock?: Clock;
  harnessDefaults?: DriverHarnessDefaults;
  /** One diagnostic line (the driver writes these to stderr). */
  log?: (line: string) => void;
}

/**
 * The four driver methods over one reference harness at a time. A `configure` replaces the
 * current harness (closing it first); `close` keeps the closed harness so that a later `invoke`
 * reaches it and fails there, locally, as the seed requires.
 */
export class DriverMethods {
  private initialized = false;
  private harness: Harness | undefined;
  /** Serializes configure, close and shutdown, so two harnesses never overlap. */
  private lifecycle: Promise<unknown> = Promise.resolve();
  private readonly clock: Clock;

  constructor(private readonly options: DriverMethodsOptions) {
    this.clock = options.clock ?? systemClock;
  }

  /** `initialize`: who we are and what the harness supports. */
  initialize(params: unknown): object {
    parseInitialize(params);
    this.initialized = true;
    return {
      implementation: { name: REFERENCE_DRIVER_NAME, version: packageVersion() },
      protocolVersions: [PROTOCOL_VERSION],
      bindings: ['stdio', 'http'],
      features: { ...REFERENCE_FEATURES, events: [...REFERENCE_FEATURES.events] },
    };
  }

  /** `configure`: builds a harness for the registration, or reports why it refuses it. */
  configure(params: unknown): Promise<object> {
    this.requireInitialized();
    const { registration, retries } = parseConfigure(params);
    return this.serialized(async () => {
      await this.harness?.close();
      this.harness = undefined;
      try {
        this.harness = createHarness({
          advertisedEffects: REFERENCE_ADVERTISED_EFFECTS,
          ...this.options.harnessDefaults,
          registration,
          env: this.options.env,
          clock: this.clock,
          ...(retries === undefined ? {} : { retries }),
        });
      } catch (error) {
        if (!(error instanceof HarnessConfigError)) throw this.failure('configure', error);
        const issues = error.violations.map((v) => ({ path: v.path, message: v.message }));
        return {
          accepted: false,
          issues: issues.length > 0 ? issues : [{ path: '$', message: error.message }],
        };
      }
      this.options.log?.(`configured a harness (${retries ?? 0} retries)`);
      return { accepted: true };
    });
  }

  /**
   * `invoke`: raises one event, with an optional budget, a timed cancellation, a host permission
   * and (v1.3) the call's own advertisement.
   */
  async invoke(params: unknown): Promise<DriverInvokeResult> {
    this.requireInitialized();
    const { input, budgetMs, cancelAfterMs, hostPermission, attachments, capabilities } = parseInvoke(params);
    const harness = this.harness;
    if (!harness) {
      throw new DriverMethodError(
        DRIVER_ERROR_CODES.notConfigured,
        'not-configured',
        'No harness is configured; call configure first.',
      );
    }
    const cancel = new AbortController();
    const stopTimer = new AbortController();
    if (cancelAfterMs !== undefined) {
      this.clock.sleep(cancelAfterMs, stopTimer.signal).then(
        () => cancel.abort(new Error('cancelled by the driver (cancelAfterMs)')),
        () => undefined,
      );
    }
    try {
      const options = {
        ...(budgetMs === undefined ? {} : { budgetMs }),
        ...(hostPermission === undefined ? {} : { hostPermission }),
        ...(cancelAfterMs === undefined ? {} : { signal: cancel.signal }),
        ...(attachments === undefined ? {} : { attachments }),
        ...(capabilities === undefined ? {} : { capabilities }),
      };
      // Narrowed for invoke's overloads (a tool.before input, or any other event).
      const result =
        'type' in input ? await harness.invoke(input, options) : await harness.invoke(input, options);
      return toDriverInvokeResult(result);
    } catch (error) {
      if (error instanceof HarnessClosedError) {
        throw new DriverMethodError(DRIVER_ERROR_CODES.harnessClosed, error.code, error.message);
      }
      if (error instanceof HarnessInputError) {
        const violations = error.violations.map((v) => ({ path: v.path, message: v.message }));
        throw new DriverMethodError(DRIVER_ERROR_CODES.invalidParams, error.code, error.message, {
          violations,
        });
      }
      throw this.failure('invoke', error);
    } finally {
      stopTimer.abort();
    }
  }

  /** `close`: shuts the harness down (reaping its processes) before answering. */
  close(params: unknown): Promise<object> {
    this.requireInitialized();
    parseClose(params);
    return this.serialized(async () => {
      await this.harness?.close();
      return {};
    });
  }

  /** When the driver stops: closes whatever harness is open. */
  shutdown(): Promise<void> {
    return this.serialized(async () => {
      await this.harness?.close();
    });
  }

  private serialized<T>(work: () => Promise<T>): Promise<T> {
    const next = this.lifecycle.then(work);
    this.lifecycle = next.catch(() => undefined);
    return next;
  }

  private requireInitialized(): void {
    if (!this.initialized) {
      throw new DriverMethodError(
        DRIVER_ERROR_CODES.notInitialized,
        'not-initialized',
        'The driver is not initialized; call initialize first.',
      );
    }
  }

  private failure(method: string, error: unknown): DriverMethodError {
    const message = error instanceof Error ? error.message : String(error);
    this.options.log?.(`${method} failed: ${message}`);
    return new DriverMethodError(
      DRIVER_ERROR_CODES.harnessFailure,
      'harness-failure',
      `The harness failed during ${method}: ${message}`,
    );
  }
}
