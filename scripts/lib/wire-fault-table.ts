/**
 * The table of docs/harness-authors.md that says which wire fault is which failure class, per
 * transport: each row is a mock behaviour, each cell what the harness suite's classifier
 * (`suites/harness/kit/classify.ts`) expects of a conforming harness. The doc test compares the
 * page's table with this one, so the page cannot drift from what the suite judges.
 */
import { BEHAVIOUR_TRANSPORTS, type Behaviour } from '../../mock-backend/index.js';
import { classifyBehaviour } from '../../suites/harness/kit/classify.js';
import { HARNESS_TRANSPORTS, type HarnessTransport } from '../../suites/harness/kit/timing.js';
import { markdownTable, markdownTableInPage } from './markdown-table.js';

/** The subscription deadline the rows are read against (the delay row answers after it). */
const TIMEOUT_MS = 1000;

/** The wire faults the table shows: what the backend does, and the mock behaviour that does it. */
export const WIRE_FAULTS: readonly { fault: string; behaviour: Behaviour }[] = [
  { fault: 'never answers', behaviour: { kind: 'hang' } },
  {
    fault: 'answers after the deadline',
    behaviour: { kind: 'delay', ms: 2 * TIMEOUT_MS, then: { kind: 'respond' } },
  },
  { fault: 'ends the exchange without a reply', behaviour: { kind: 'silent' } },
  { fault: 'closes the stream (stdout, the socket)', behaviour: { kind: 'reset' } },
  { fault: 'exits with a non-zero code', behaviour: { kind: 'exit', code: 1 } },
  { fault: 'dies by a signal', behaviour: { kind: 'signal', signal: 'SIGKILL' } },
  { fault: 'a reply that is not JSON', behaviour: { kind: 'malformed-json' } },
  { fault: 'a reply that is not UTF-8', behaviour: { kind: 'malformed-utf8' } },
  { fault: 'JSON that is not JSON-RPC', behaviour: { kind: 'not-jsonrpc', variant: 'no-jsonrpc' } },
  { fault: 'a reply over several lines', behaviour: { kind: 'pretty' } },
  { fault: 'a reply to another id', behaviour: { kind: 'mismatched-id', id: 'other' } },
  { fault: 'JSON-RPC error -32001 (unsupported version)', behaviour: { kind: 'rpc-error', code: -32001 } },
  { fault: 'JSON-RPC error -32002 (unsupported event)', behaviour: { kind: 'rpc-error', code: -32002 } },
  { fault: 'any other JSON-RPC error', behaviour: { kind: 'rpc-error', code: -32603 } },
  { fault: 'a result of another protocolVersion', behaviour: { kind: 'respond', protocolVersion: '0.0' } },
  { fault: 'a result without effects', behaviour: { kind: 'respond', omit: ['effects'] } },
  { fault: 'an unknown effect', behaviour: { kind: 'respond', effects: [{ type: 'teleport' }] } },
  { fault: 'a status other than 200', behaviour: { kind: 'http-status', status: 503 } },
  { fault: 'a redirect', behaviour: { kind: 'http-redirect', location: '/elsewhere' } },
  { fault: 'a 401 the harness cannot resolve', behaviour: { kind: 'http-unauthorized' } },
  { fault: 'a 200 with a JSON body and media type text/plain', behaviour: { kind: 'wrong-content-type' } },
];

/** The table's header cells. */
export const WIRE_FAULT_HEADER = [
  'wire fault (mock behaviour)',
  'stdio persistent',
  'stdio per_event',
  'HTTP',
];

function cell(behaviour: Behaviour, transport: HarnessTransport): string {
  const mockTransport = transport === 'http' ? 'http' : 'stdio';
  if (!BEHAVIOUR_TRANSPORTS[behaviour.kind].includes(mockTransport)) return 'n/a';
  const provoked = classifyBehaviour(behaviour, { transport, timeoutMs: TIMEOUT_MS, late: false });
  if (provoked.kind === 'answer') return 'no failure (a valid answer)';
  if (provoked.kind === 'deny') return 'no failure (an explicit deny)';
  return provoked.classes.map((c) => `\`${c}\``).join(' or ');
}

/** Every row of the table as cells, the header first. */
export function wireFaultRows(): string[][] {
  return [
    WIRE_FAULT_HEADER,
    ...WIRE_FAULTS.map(({ fault, behaviour }) => [
      `${fault} (\`${JSON.stringify(behaviour)}\`)`,
      ...HARNESS_TRANSPORTS.map((t) => cell(behaviour, t)),
    ]),
  ];
}

/** The table as Markdown (before prettier aligns it). */
export function wireFaultTable(): string {
  return markdownTable(wireFaultRows());
}

/** The cells of this table in `page`; [] when none. */
export function tableInPage(page: string): string[][] {
  return markdownTableInPage(page, WIRE_FAULT_HEADER[0] as string);
}
