import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { depVersionToSemver } from '../src/dep/versions.ts';
import { depVersions } from '../src/index.ts';

const identifier = fc.oneof(
  fc.nat(40).map(String),
  fc.stringMatching(/^[0-9A-Za-z-]{1,8}$/).filter((id) => !/^\d+$/.test(id)),
);
const sign = (n: number) => Math.sign(n);

/** dep tags: semver with or without `v`. */
const depVersion = fc
  .record({
    v: fc.boolean(),
    major: fc.nat(20),
    minor: fc.nat(20),
    patch: fc.nat(20),
    pre: fc.option(fc.array(identifier, { minLength: 1, maxLength: 2 }), { nil: undefined }),
  })
  .map(({ v, major, minor, patch, pre }) => `${v ? 'v' : ''}${major}.${minor}.${patch}${pre ? `-${pre.join('.')}` : ''}`);

describe('dep version scheme properties', () => {
  it('a tag reads the same with or without v, and prints back without it', () => {
    fc.assert(
      fc.property(depVersion, (tag) => {
        const canonical = depVersionToSemver(tag);
        expect(canonical).toBe(tag.replace(/^v/, ''));
        expect(depVersionToSemver(`v${canonical}`)).toBe(canonical);
        expect(depVersions.compare(tag, `v${canonical}`)).toBe(0);
      }),
    );
  });
  it('compare is a total order: reflexive, antisymmetric, transitive', () => {
    fc.assert(
      fc.property(depVersion, depVersion, depVersion, (a, b, c) => {
        expect(depVersions.compare(a, a)).toBe(0);
        expect(sign(depVersions.compare(a, b)) + sign(depVersions.compare(b, a))).toBe(0);
        if (depVersions.compare(a, b) <= 0 && depVersions.compare(b, c) <= 0) expect(depVersions.compare(a, c)).toBeLessThanOrEqual(0);
      }),
      { numRuns: 500 },
    );
  });
  it('a bare version constraint (a caret) allows the version and the next patch, not the next major', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 20 }), fc.nat(20), fc.nat(20), (major, minor, patch) => {
        const written = `${major}.${minor}.${patch}`;
        expect(depVersions.satisfies(`v${written}`, written)).toBe(true);
        expect(depVersions.satisfies(`v${major}.${minor}.${patch + 1}`, written)).toBe(true);
        expect(depVersions.satisfies(`v${major + 1}.0.0`, written)).toBe(false);
      }),
    );
  });
});
