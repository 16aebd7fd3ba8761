/**
 * What a mutation run mutates and how the conformance suite is pointed at the mutated code. Each
 * target names the files Stryker mutates (the sandbox copy is instrumented, every mutant switched
 * off until `__STRYKER_ACTIVE_MUTANT__` names it) and the CLI command that judges them.
 */

/** The environment variable that names the target in Stryker's processes (set by scripts/mutation.ts). */
export const TARGET_ENV = 'AHP_MUTATION_TARGET';

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
  /** The folders of the code that judges the cases (judging-digest.ts). */
  judging: string[];
  /** `--skip` patterns: cases of those units the target is not meant to pass (with the reason). */
  skip?: { patterns: string[]; why: string };
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

/**
 * What judges harness cases: the suite (its cases and kit, the shared parts, the driver client),
 * the mock and the CLI. All of it, cases included: which module of the suite a case's data and
 * checks come from is not known here, so any change to the suite counts as a change to every unit.
 */
const HARNESS_JUDGING = [
  'suites/common',
  'suites/driver',
  'suites/harness',
  'protocol',
  'mock-backend',
  'cli',
];
/** What judges backend cases: the backend suite, the reference transports it speaks through, the CLI. */
const BACKEND_JUDGING = [
  'suites/common',
  'suites/backend',
  'protocol',
  'reference-harness/transports',
  'cli',
];

/**
 * The mock's well-behaved path: what it does with a well-formed request it answers well. The
 * mutated ranges are the engine's way from a decoded request to its reply bytes (deciding by
 * rule, matching on method, event type and fields, building a success, a deny or an error reply,
 * writing it), not its misbehaviours, recordings or harness-side violation checks.
 */
const MOCK_WELL_BEHAVED_PATH = [
  // Without the rule firing counts (76-79): only a rule's `times` limit reads them (line 20 of
  // engine-matching.ts, left out below), and this target's scenario gives no rule a `times`.
  'mock-backend/engine.ts:64-75',
  'mock-backend/engine.ts:80-84',
  'mock-backend/engine.ts:200-223',
  // Rule lookup and matching on method, event type and a field, without a rule's `times` limit
  // (line 20), unparseable frames (29: decided before matching), array paths (70) or array and
  // deep-equality matches (83-100), which a conforming backend's scenario does not use.
  'mock-backend/engine-matching.ts:17-19',
  'mock-backend/engine-matching.ts:21-24',
  'mock-backend/engine-matching.ts:27-28',
  'mock-backend/engine-matching.ts:30-33',
  'mock-backend/engine-matching.ts:39-39',
  'mock-backend/engine-matching.ts:67-69',
  'mock-backend/engine-matching.ts:71-82',
  'mock-backend/engine-replies.ts:43-66',
  'mock-backend/engine-replies.ts:74-89',
  'mock-backend/engine-replies.ts:103-120',
  // The planning of a reply and its one write. The newline of a stdio frame is framed() in
  // engine-replies.ts (46). Left out: the write's `end` action and the transport test (256-257)
  // and the HTTP head (258): the stdio shell carries out neither `end` nor `head` (its perform
  // ignores both), so only the HTTP shell, which this target does not run, could tell them apart.
  'mock-backend/engine-behaviours.ts:66-72',
  'mock-backend/engine-behaviours.ts:249-255',
];

export const TARGETS: Readonly<Record<string, MutationTarget>> = {
  harness: {
    name: 'harness',
    description: "the harness suite against the reference harness's failure core",
    mutate: HARNESS_FAILURE_CORE,
    judges: (listed) => listed.role === 'harness',
    judging: HARNESS_JUDGING,
    // The CLI hands its environment to the reference driver and to its in-process cases.
    command: (options, env) => ({ args: ['harness', ...options], env: { ...env } }),
  },
  'example-backend': {
    name: 'example-backend',
    description: 'backend self-certification against docs/examples/deny-rm-backend.mjs',
    mutate: ['docs/examples/deny-rm-backend.mjs'],
    // A persistent stdio process is what the example is.
    judges: (listed) => listed.role === 'backend' && listed.transports.includes('stdio-persistent'),
    judging: BACKEND_JUDGING,
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
  'mock-backend': {
    name: 'mock-backend',
    description:
      "backend self-certification against the mock backend's well-behaved path (scripts/mutation/mock-as-backend.json)",
    mutate: MOCK_WELL_BEHAVED_PATH,
    judges: (listed) => listed.role === 'backend' && listed.transports.includes('stdio-persistent'),
    judging: BACKEND_JUDGING,
    skip: {
      patterns: ['AHP-VER-001/*/unsupported-protocol-version/**'],
      why: "the mock answers in the request's protocolVersion by design (harness tests need a reply in any version), and a scenario cannot match on params.protocolVersion",
    },
    command: (options, env) => ({
      args: [
        'backend',
        ...BACKEND_INPUTS.slice(0, 3),
        ...options,
        '--',
        ...withEnv(env, [
          'node',
          'bin/ahp-conformance.mjs',
          'mock-backend',
          '--stdio',
          '--scenario',
          'scripts/mutation/mock-as-backend.json',
        ]),
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
