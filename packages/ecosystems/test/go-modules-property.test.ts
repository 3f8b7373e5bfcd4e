import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { goVersions, parseGoVersion, printGoVersion } from '../src/index.ts';

const identifier = fc.oneof(
  fc.nat(40).map(String),
  fc.stringMatching(/^[0-9A-Za-z-]{1,8}$/).filter((id) => !/^\d+$/.test(id)),
);
/** Go module versions: releases, pre-releases, pseudo-versions, `+incompatible` v2+ versions. */
const goVersion = fc
  .record({
    major: fc.nat(12),
    minor: fc.nat(12),
    patch: fc.nat(12),
    pre: fc.option(fc.array(identifier, { minLength: 1, maxLength: 3 }), { nil: undefined }),
    pseudo: fc.option(
      fc.tuple(
        fc.date({ min: new Date('2000-01-01'), max: new Date('2099-12-31'), noInvalidDate: true }),
        fc.stringMatching(/^[0-9a-f]{12}$/),
      ),
      {
        nil: undefined,
      },
    ),
    incompatible: fc.boolean(),
  })
  .map(({ major, minor, patch, pre, pseudo, incompatible }) => {
    let prerelease = pre?.join('.') ?? '';
    if (pseudo) {
      const stamp = pseudo[0].toISOString().replace(/[-:T]/g, '').slice(0, 14);
      prerelease = `${prerelease === '' ? '0' : `${prerelease}.0`}.${stamp}-${pseudo[1]}`;
    }
    return `v${major}.${minor}.${patch}${prerelease ? `-${prerelease}` : ''}${incompatible && major >= 2 ? '+incompatible' : ''}`;
  });

const sign = (n: number) => Math.sign(n);

describe('Go module version scheme properties', () => {
  it('generated versions are valid and print back as parsed', () => {
    fc.assert(
      fc.property(goVersion, (v) => {
        expect(goVersions.isValid(v)).toBe(true);
        const parsed = parseGoVersion(v);
        expect(parsed && printGoVersion(parsed)).toBe(v);
      }),
    );
  });
  it('compare is a total order: reflexive, antisymmetric, transitive', () => {
    fc.assert(
      fc.property(goVersion, goVersion, goVersion, (a, b, c) => {
        expect(goVersions.compare(a, a)).toBe(0);
        expect(sign(goVersions.compare(a, b)) + sign(goVersions.compare(b, a))).toBe(0);
        if (goVersions.compare(a, b) <= 0 && goVersions.compare(b, c) <= 0) expect(goVersions.compare(a, c)).toBeLessThanOrEqual(0);
      }),
      { numRuns: 500 },
    );
  });
  it('a pseudo-version sorts after its base release and before the next patch', () => {
    fc.assert(
      fc.property(fc.nat(9), fc.nat(9), fc.nat(9), (major, minor, patch) => {
        const base = `v${major}.${minor}.${patch}`;
        const pseudo = `v${major}.${minor}.${patch + 1}-0.20240101000000-abcdefabcdef`;
        expect(goVersions.compare(base, pseudo)).toBeLessThan(0);
        expect(goVersions.compare(pseudo, `v${major}.${minor}.${patch + 1}`)).toBeLessThan(0);
      }),
    );
  });
});
