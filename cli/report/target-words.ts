/**
 * What was tested, in words for people (the HTML and Markdown reports): the driver or backend
 * command, the implementation it names, its bindings and what it announces, instead of the raw
 * JSON that report.json keeps. A target of a shape not known here is shown as JSON.
 */
import type { JsonValue } from '../../protocol/json.js';

type Json = { [key: string]: JsonValue };

const isObject = (v: JsonValue | undefined): v is Json =>
  v !== null && v !== undefined && typeof v === 'object' && !Array.isArray(v);
const strings = (v: JsonValue | undefined): string[] =>
  Array.isArray(v) ? v.filter((x): x is string => typeof x === 'string') : [];

/** A command line as one would type it (words with spaces quoted). */
function commandLine(words: readonly string[]): string {
  return words.map((w) => (/^[\w@%+=:,./-]+$/.test(w) ? w : JSON.stringify(w))).join(' ');
}

function driverFacts(t: Json): [string, string][] {
  const facts: [string, string][] = [['Driver', commandLine(strings(t.command))]];
  const impl = t.implementation;
  if (isObject(impl) && typeof impl.name === 'string')
    facts.push([
      'Implementation',
      `${impl.name}${typeof impl.version === 'string' ? ` ${impl.version}` : ''}`,
    ]);
  const bindings = strings(t.bindings);
  facts.push(['Bindings it declares', bindings.join(', ') || 'none']);
  if (isObject(t.features)) {
    const on = Object.entries(t.features)
      .filter(([k, v]) => v === true && k !== 'events')
      .map(([k]) => k);
    const events = strings(t.features.events);
    facts.push(['Features it announces', on.join(', ') || 'none']);
    facts.push([
      'Events it announces',
      events.length > 0 ? `${events.length}: ${events.join(', ')}` : 'none',
    ]);
  }
  return facts;
}

function backendFacts(t: Json): [string, string][] {
  const facts: [string, string][] =
    t.binding === 'stdio'
      ? [
          ['Backend (stdio)', commandLine([String(t.command ?? ''), ...strings(t.args)])],
          ['Lifecycle', String(t.lifecycle ?? 'unknown')],
        ]
      : [
          ['Backend (HTTP)', String(t.url ?? '')],
          ['Bearer token', typeof t.bearerTokenEnv === 'string' ? `from $${t.bearerTokenEnv}` : 'none'],
        ];
  if (typeof t.deadlineMs === 'number') facts.push(['Deadline', `${t.deadlineMs} ms`]);
  facts.push(['Deny input', t.denyInput === null || t.denyInput === undefined ? 'none given' : 'given']);
  facts.push([
    'Modify input',
    t.modifyInput === null || t.modifyInput === undefined ? 'none given' : 'given',
  ]);
  return facts;
}

/** The target as label/value pairs for a facts table. */
export function targetFacts(target: JsonValue): [string, string][] {
  if (isObject(target) && target.kind === 'driver') return driverFacts(target);
  if (isObject(target) && (target.binding === 'stdio' || target.binding === 'http'))
    return backendFacts(target);
  return [['Target', JSON.stringify(target)]];
}

/** The target in one line: its first fact ("Driver: node my-driver.mjs"). */
export function targetInWords(target: JsonValue): string {
  const [first] = targetFacts(target);
  return first ? `${first[0]}: ${first[1]}` : 'unknown target';
}
