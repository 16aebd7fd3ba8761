import { describe, expect, it } from 'vitest';
import type { InitializeResult } from '../../driver/index.js';
import { claimFor, claimProblems, interceptionTransports } from './core-claim-rules.js';

const info = (
  bindings: InitializeResult['bindings'],
  features: InitializeResult['features'],
): InitializeResult => ({
  implementation: { name: 'h', version: '1' },
  protocolVersions: ['draft'],
  bindings,
  features,
});

describe('the claim', () => {
  it('states role, bindings and profiles from initialize', () => {
    expect(claimFor(info(['stdio'], { stdioPerEvent: true }))).toEqual({
      role: 'harness',
      bindings: ['stdio'],
      profiles: ['base', 'tool-interception'],
    });
    expect(claimFor(info(['http'], { http: true, observe: true })).profiles).toContain(
      'lifecycle-observation',
    );
  });

  it('must be backed by the transport features', () => {
    expect(claimProblems(info(['stdio', 'http'], { stdioPersistent: true, http: true }))).toEqual([]);
    expect(claimProblems(info([], {}))).toEqual(['the driver claims no transport binding']);
    expect(claimProblems(info(['stdio'], {}))).toHaveLength(1);
    expect(claimProblems(info(['stdio'], { stdioPerEvent: true, http: true }))).toEqual([
      'the driver announces features.http without claiming the http binding',
    ]);
  });

  it('exercises one stdio lifecycle and HTTP where claimed', () => {
    expect(
      interceptionTransports(
        info(['stdio', 'http'], { stdioPersistent: true, stdioPerEvent: true, http: true }),
      ),
    ).toEqual(['stdio-persistent', 'http']);
    expect(interceptionTransports(info(['stdio'], { stdioPerEvent: true }))).toEqual(['stdio-per_event']);
  });
});
