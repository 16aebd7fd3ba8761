/**
 * The claim of a harness under test (AHP-CORE-001), derived from its driver's `initialize`, and the
 * rules it must satisfy to be a claim the suite can hold it to. Pure.
 */
import type { InitializeResult } from '../../driver/index.js';
import { announcedTransports } from '../kit/features.js';
import type { HarnessTransport } from '../kit/timing.js';

/** A conformance claim (the report's `claim`; suites do not import the CLI). */
export interface HarnessClaim {
  role: 'harness';
  bindings: string[];
  profiles: string[];
}

/** The claim: role harness, the declared bindings, Base + Tool Interception (+ Lifecycle Observation). */
export function claimFor(info: InitializeResult): HarnessClaim {
  const profiles = [
    'base',
    'tool-interception',
    ...(info.features.observe === true ? ['lifecycle-observation'] : []),
  ];
  return { role: 'harness', bindings: [...info.bindings], profiles };
}

/**
 * The transports AHP-CORE-002 exercises: every announced one, stdio once (persistent when the
 * driver announces it, per_event otherwise).
 */
export function interceptionTransports(info: InitializeResult): HarnessTransport[] {
  const announced = announcedTransports(info);
  return announced.includes('stdio-persistent')
    ? announced.filter((t) => t !== 'stdio-per_event')
    : announced;
}

/** Every way the claim falls short, as sentences. */
export function claimProblems(info: InitializeResult): string[] {
  const problems: string[] = [];
  if (info.bindings.length === 0) problems.push('the driver claims no transport binding');
  if (new Set(info.bindings).size !== info.bindings.length) problems.push('the driver lists a binding twice');
  const stdio = info.features.stdioPersistent === true || info.features.stdioPerEvent === true;
  if (info.bindings.includes('stdio') && !stdio) {
    problems.push(
      'the driver claims the stdio binding but announces neither stdioPersistent nor stdioPerEvent',
    );
  }
  if (info.bindings.includes('http') && info.features.http !== true) {
    problems.push('the driver claims the http binding but does not announce features.http');
  }
  if (!info.bindings.includes('stdio') && stdio)
    problems.push('the driver announces stdio lifecycles without claiming the stdio binding');
  if (!info.bindings.includes('http') && info.features.http === true) {
    problems.push('the driver announces features.http without claiming the http binding');
  }
  return problems;
}
