import { describe, expect, it } from 'vitest';
import {
  AHP_REQUIREMENTS,
  REQUIREMENTS,
  SEED_COVERAGE,
  draftLocation,
  requirementById,
  requirementsForProfile,
} from './requirements.js';

// The 26 IDs of the draft's requirements.json (protocol reference §7).
const AHP_IDS = [
  'AHP-CORE-001',
  'AHP-CORE-002',
  'AHP-RPC-001',
  'AHP-RPC-002',
  'AHP-VER-001',
  'AHP-CORE-003',
  'AHP-EXT-001',
  'AHP-TB-001',
  'AHP-CAP-001',
  'AHP-CAP-002',
  'AHP-DEC-001',
  'AHP-DEC-002',
  'AHP-DEC-003',
  'AHP-COMP-001',
  'AHP-FAIL-001',
  'AHP-FAIL-002',
  'AHP-CORE-004',
  'AHP-STDIO-001',
  'AHP-HTTP-001',
  'AHP-REG-001',
  'AHP-REG-002',
  'AHP-SEC-001',
  'AHP-AUTH-001',
  'AHP-CONTENT-001',
  'AHP-CONTENT-002',
  'AHP-EDIT-001',
];

// Profile membership from the conformance manifest (protocol reference §8).
const PROFILES: Record<string, string[]> = {
  base: [
    'CORE-001',
    'CORE-002',
    'RPC-001',
    'RPC-002',
    'VER-001',
    'CORE-003',
    'EXT-001',
    'REG-001',
    'REG-002',
    'SEC-001',
    'CONTENT-001',
    'CONTENT-002',
    'EDIT-001',
  ],
  'tool-interception': [
    'TB-001',
    'CAP-001',
    'CAP-002',
    'DEC-001',
    'DEC-002',
    'DEC-003',
    'COMP-001',
    'FAIL-001',
    'FAIL-002',
    'CORE-004',
  ],
  'lifecycle-observation': ['RPC-002'],
  stdio: ['STDIO-001'],
  http: ['HTTP-001', 'AUTH-001'],
};

// Sections of the seed and how many sentences in each carry an upper-case MUST / MUST NOT
// (17 in all, the "AHP-… — MUST." headings included), counted when the seed was read.
const SEED_MUST_SENTENCES: Record<string, number> = {
  'Failure classes': 0,
  'Failure policy': 3,
  'Synthetic denial': 1,
  Deadlines: 6,
  'Duplicate delivery and retries': 4,
  'Enclosing operation budgets and shutdown': 3,
};

describe('requirements catalogue', () => {
  it('has unique IDs and looks each one up', () => {
    const ids = REQUIREMENTS.map((r) => r.id);
    expect(new Set(ids).size).toBe(ids.length);
    for (const r of REQUIREMENTS) expect(requirementById(r.id)).toBe(r);
    expect(requirementById('AHP-NOPE-001')).toBeUndefined();
  });

  it('holds exactly the 26 AHP IDs of the draft, as source ahp', () => {
    expect(AHP_REQUIREMENTS.map((r) => r.id).sort()).toEqual([...AHP_IDS].sort());
    expect(REQUIREMENTS.filter((r) => r.source === 'ahp')).toHaveLength(26);
    expect(requirementById('AHP-DEC-003')?.level).toBe('MUST NOT');
    expect(requirementById('AHP-SEC-001')?.level).toBe('MUST NOT');
  });

  it('assigns each AHP ID the profiles of the conformance manifest', () => {
    for (const [profile, short] of Object.entries(PROFILES)) {
      expect(
        requirementsForProfile(profile)
          .filter((r) => r.source === 'ahp')
          .map((r) => r.id)
          .sort(),
      ).toEqual(short.map((s) => `AHP-${s}`).sort());
    }
  });

  it('names our own IDs AHPX-FAMILY-NNN, with a seed reference and locator quote', () => {
    const ahpx = REQUIREMENTS.filter((r) => r.source === 'ahpx');
    expect(ahpx.length).toBeGreaterThanOrEqual(12);
    for (const r of ahpx) {
      expect(r.id).toMatch(/^AHPX-[A-Z]+-\d{3}$/);
      expect(r.reference).toMatch(/^seed: .+ ¶\d+$/);
      expect(r.seedSentence?.length ?? 0).toBeGreaterThan(8);
      expect(r.profiles.length).toBeGreaterThan(0);
    }
  });

  it('includes the IDs other parts already cite', () => {
    for (const id of [
      'AHPX-FAIL-003',
      'AHPX-SYN-001',
      'AHPX-DL-002',
      'AHPX-INT-002',
      'AHPX-RETRY-001',
      'AHPX-BUD-004',
      'AHPX-SHUT-001',
      'AHPX-SHUT-004',
    ]) {
      expect(requirementById(id), id).toBeDefined();
    }
  });

  it('places every sentence: an AHP ID in a draft document at its ID, an AHPX ID at its seed quote', () => {
    for (const r of REQUIREMENTS) {
      if (r.source === 'ahp') {
        expect(r.location.document, r.id).toMatch(/^spec\/draft\/.+\.(md|json)$/);
        expect(r.location.anchor, r.id).toBe(r.id);
        expect(draftLocation(r.id), r.id).toBe(r.location);
      } else {
        expect(r.location, r.id).toEqual({ document: r.reference, anchor: r.seedSentence });
        expect(draftLocation(r.id), r.id).toBeUndefined();
      }
    }
  });

  it('writes every summary as one line in our own words', () => {
    for (const r of REQUIREMENTS) {
      expect(r.summary, r.id).not.toMatch(/\n/);
      expect(r.summary.length, r.id).toBeGreaterThan(10);
      expect(r.summary.length, r.id).toBeLessThan(160);
    }
  });
});

describe('seed coverage', () => {
  it('covers every seed sentence written with MUST or MUST NOT, section by section', () => {
    for (const [section, count] of Object.entries(SEED_MUST_SENTENCES)) {
      const written = SEED_COVERAGE.filter(
        (s) => s.section === section && (s.keyword === 'MUST' || s.keyword === 'MUST NOT'),
      );
      expect(written.length, section).toBe(count);
    }
  });

  it('maps every MUST / MUST NOT sentence to catalogue IDs of a binding level', () => {
    for (const s of SEED_COVERAGE.filter((x) => x.level === 'MUST' || x.level === 'MUST NOT')) {
      expect(s.ids.length, s.anchor).toBeGreaterThan(0);
      for (const id of s.ids) {
        const r = requirementById(id);
        expect(r, `${s.anchor} -> ${id}`).toBeDefined();
        expect(['MUST', 'MUST NOT'], `${s.anchor} -> ${id}`).toContain(r?.level);
      }
    }
  });

  it('leaves a sentence unmapped only when it binds no implementation, and says why', () => {
    for (const s of SEED_COVERAGE.filter((x) => x.ids.length === 0)) {
      expect(['SHOULD', 'SHOULD NOT', 'MAY']).toContain(s.level);
      expect(s.note).toBeTruthy();
    }
  });

  it('traces every AHPX ID back to a seed sentence with the same locator', () => {
    for (const r of REQUIREMENTS.filter((x) => x.source === 'ahpx')) {
      const sentence = SEED_COVERAGE.find((s) => s.anchor === r.seedSentence);
      expect(sentence, r.id).toBeDefined();
      expect(sentence?.ids, r.id).toContain(r.id);
      expect(r.reference, r.id).toBe(`seed: ${sentence?.section} ¶${sentence?.paragraph}`);
    }
  });

  it('keeps the level of an explicit keyword unless the sentence bounds a permission', () => {
    for (const s of SEED_COVERAGE.filter((x) => x.keyword !== null && x.keyword !== x.level)) {
      expect(s.keyword).toBe('MAY');
      expect(s.note).toMatch(/bounded/);
    }
  });
});
