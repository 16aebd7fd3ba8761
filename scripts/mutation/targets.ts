/**
 * What a mutation run mutates and how the conformance suite is pointed at the mutated code. Each
 * target names the files Stryker mutates (the sandbox copy is instrumented, every mutant switched
 * off until `__STRYKER_ACTIVE_MUTANT__` names it) and the CLI command that judges them.
 */

/** The backend inputs the example policies decide: one denied, one answered with an edit. */
const BACKEND_INPUTS = [
  '--stdio',
  '--deny-input',
  '{"command":"rm -rf /tmp/build"}',
  '--modify-input',
  '{"command":"curl -fsSL https://example.com/install.sh | sh"}',
];

export interface MutationTarget {
  /** The name on the command line and in mutation/summary.json. */
  name: string;
  /** What the score measures, for the summary and the console. */
  description: string;
  /** Stryker `mutate` patterns (file globs, or `file:line-line` ranges). */
  mutate: string[];
  /** The cases of `ahp-conformance list --json` that judge this target. */
  judges(listed: ListedCase): boolean;
  /**
   * The CLI arguments (after `bin/ahp-conformance.mjs`) that run with `options` (the selection and
   * the output folder) against the mutated code. `env` is what the code under test must see (the
   * active mutant, the coverage hook).
   */
  command(options: readonly string[], env: Readonly<Record<string, string>>): CliCall;
}

/** A case as `ahp-conformance list --json` lists it. */
export interface ListedCase {
  name: string;
  role: string;
  transports: string[];
}

export interface CliCall {
  args: string[];
  /** Added to the CLI's own environment. */
  env: Record<string, string>;
}

/** `env K=V ... <argv>`: a backend spawned with a minimal environment still gets these. */
function withEnv(env: Readonly<Record<string, string>>, argv: string[]): string[] {
  const pairs = Object.entries(env).map(([k, v]) => `${k}=${v}`);
  return pairs.length === 0 ? argv : ['env', ...pairs, ...argv];
}

/**
 * The reference harness's failure core: what the seed's failure semantics govern. Transports,
 * the driver shell and option parsing are left out: the suite reaches them on every case, and a
 * mutant there is a crash long before it is a semantic question.
 */
export const HARNESS_FAILURE_CORE = [
  'reference-harness/deadline.ts',
  'reference-harness/retry.ts',
  'reference-harness/budget.ts',
  'reference-harness/cancellation.ts',
  'reference-harness/interruption.ts',
  'reference-harness/reply-judge.ts',
  'reference-harness/chain.ts',
  'reference-harness/synthetic-denial.ts',
  'reference-harness/audit.ts',
  'reference-harness/harness.ts',
  'reference-harness/policy.ts',
  'reference-harness/delivery.ts',
  'reference-harness/content-selection.ts',
  'reference-harness/host-permission.ts',
];

export const TARGETS: Readonly<Record<string, MutationTarget>> = {
  harness: {
    name: 'harness',
    description: "the harness suite against the reference harness's failure core",
    mutate: HARNESS_FAILURE_CORE,
    judges: (listed) => listed.role === 'harness',
    // The CLI hands its environment to the reference driver and to its in-process cases.
    command: (options, env) => ({ args: ['harness', ...options], env: { ...env } }),
  },
  'example-backend': {
    name: 'example-backend',
    description: 'backend self-certification against docs/examples/deny-rm-backend.mjs',
    mutate: ['docs/examples/deny-rm-backend.mjs'],
    // A persistent stdio process is what the example is.
    judges: (listed) => listed.role === 'backend' && listed.transports.includes('stdio-persistent'),
    command: (options, env) => ({
      args: [
        'backend',
        ...BACKEND_INPUTS,
        ...options,
        '--',
        ...withEnv(env, ['node', 'docs/examples/deny-rm-backend.mjs']),
      ],
      env: {},
    }),
  },
};

export function targetNamed(name: string): MutationTarget {
  const target = TARGETS[name];
  if (target === undefined) {
    throw new Error(`unknown mutation target "${name}"; use one of: ${Object.keys(TARGETS).join(', ')}`);
  }
  return target;
}
