import { describe, expect, it } from 'vitest';
import { requirementById } from '../../protocol/requirements.js';
import { appliesTo, caseName, stepsFor } from './probe.js';
import { BACKEND_PROBES } from './probes-index.js';
import { LIVENESS_PROBES, LIVENESS_RUN } from './probes-liveness.js';
import type { BackendBinding } from './target.js';

const BINDINGS: BackendBinding[] = ['stdio-persistent', 'stdio-per_event', 'http'];

describe('backend probe tables', () => {
  it('name catalogue requirements and give unique, path-like case names per binding', () => {
    for (const binding of BINDINGS) {
      const names = BACKEND_PROBES.filter((p) => appliesTo(p, binding)).map((p) => caseName(p, binding));
      expect(new Set(names).size).toBe(names.length);
      for (const name of names)
        expect(name).toMatch(/^AHP-[A-Z]+-\d{3}\/transport:[a-z_-]+\/[a-z0-9:,./_-]+$/);
    }
    for (const p of BACKEND_PROBES) expect(requirementById(p.requirement), p.requirement).toBeDefined();
  });

  it('cover every backend-checkable requirement over every binding', () => {
    const expected = [
      'AHP-RPC-001',
      'AHP-RPC-002',
      'AHP-VER-001',
      'AHP-CORE-003',
      'AHP-CORE-004',
      'AHP-CAP-001',
      'AHP-DEC-001',
    ];
    for (const binding of BINDINGS) {
      const covered = new Set(BACKEND_PROBES.filter((p) => appliesTo(p, binding)).map((p) => p.requirement));
      for (const id of expected) expect(covered.has(id), `${id} over ${binding}`).toBe(true);
      expect(covered.has(binding === 'http' ? 'AHP-HTTP-001' : 'AHP-STDIO-001')).toBe(true);
    }
  });

  it('hold the whole liveness count to the deadline: a persistent run sends its warm-up on top', () => {
    const allowSteps = (binding: BackendBinding) =>
      stepsFor(
        LIVENESS_PROBES.find((p) => appliesTo(p, binding))!,
        false,
      ).length;
    expect(allowSteps('stdio-persistent')).toBe(LIVENESS_RUN.persistent + 1);
    expect(allowSteps('stdio-per_event')).toBe(LIVENESS_RUN.perEvent);
    expect(allowSteps('http')).toBe(LIVENESS_RUN.http);
  });

  it('only refer to steps that are always sent, earlier than the referring step', () => {
    for (const p of BACKEND_PROBES) {
      const always = stepsFor(p, false).length;
      // Optional deny-path steps come last, so indexes stay stable with or without them.
      expect(
        p.steps.slice(0, always).every((s) => !s.ifDenyInput),
        p.name,
      ).toBe(true);
      p.steps.forEach((s, i) => {
        if (s.frame.send === 'repeat') expect(s.frame.of).toBeLessThan(Math.min(i, always));
      });
      for (const [a, b] of p.sameDecision ?? []) expect(Math.max(a, b)).toBeLessThan(always);
      if (p.requireDeny) expect(p.needsDenyInput).toBe(true);
    }
  });
});
