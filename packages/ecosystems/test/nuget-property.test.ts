import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { normaliseNuGetVersion, nuget, nugetVersions, parseNuGetVersion } from '../src/index.ts';

const number = fc.oneof(fc.nat(20), fc.nat(3_000_000_000));
const label = fc.oneof(
  fc.constantFrom('alpha', 'Alpha', 'beta', 'BETA', 'rc', 'preview', 'x-y'),
  fc.nat(30).map(String),
  fc.stringMatching(/^[a-zA-Z][0-9A-Za-z-]{0,5}$/),
);
/** NuGet versions as people write them: 1 to 4 numbers (some with leading zeros), labels, build metadata. */
const version = fc
  .record({
    numbers: fc.array(number, { minLength: 1, maxLength: 4 }),
    zeros: fc.boolean(),
    pre: fc.array(label, { maxLength: 3 }),
    build: fc.option(fc.stringMatching(/^[0-9A-Za-z]{1,6}$/), { nil: undefined }),
  })
  .map(({ numbers, zeros, pre, build }) => {
    const core = numbers.map((n, i) => (zeros && i === 1 ? `0${n}` : String(n))).join('.');
    return `${core}${pre.length ? `-${pre.join('.')}` : ''}${build ? `+${build}` : ''}`;
  });

describe('NuGet version scheme properties', () => {
  it('generated versions are valid', () => {
    fc.assert(
      fc.property(version, (v) => {
        expect(nugetVersions.isValid(v), v).toBe(true);
      }),
    );
  });
  it('ordering is total and antisymmetric', () => {
    fc.assert(
      fc.property(version, version, (a, b) => {
        const ab = Math.sign(nugetVersions.compare(a, b));
        const ba = Math.sign(nugetVersions.compare(b, a));
        expect(ab + ba).toBe(0);
        expect(nugetVersions.compare(a, a)).toBe(0);
      }),
      { numRuns: 500 },
    );
  });
  it('ordering is transitive', () => {
    fc.assert(
      fc.property(version, version, version, (a, b, c) => {
        const [x, y, z] = [a, b, c].sort(nugetVersions.compare) as [string, string, string];
        expect(nugetVersions.compare(x, y)).toBeLessThanOrEqual(0);
        expect(nugetVersions.compare(y, z)).toBeLessThanOrEqual(0);
        expect(nugetVersions.compare(x, z)).toBeLessThanOrEqual(0);
      }),
      { numRuns: 500 },
    );
  });
  it('normalising keeps the version, and printing the normal form round-trips', () => {
    fc.assert(
      fc.property(version, (v) => {
        const normal = normaliseNuGetVersion(v) as string;
        expect(nugetVersions.compare(normal, v)).toBe(0);
        expect(normaliseNuGetVersion(normal)).toBe(normal);
        expect(parseNuGetVersion(normal)?.pre).toEqual(parseNuGetVersion(v)?.pre);
      }),
      { numRuns: 500 },
    );
  });
  it('a pin rewritten to any valid target reads back as that target', () => {
    fc.assert(
      fc.property(version, version, (from, to) => {
        const csproj = `<Project>\r\n  <ItemGroup>\r\n    <PackageReference Include="Pkg" Version="${from}" />\r\n  </ItemGroup>\r\n</Project>\r\n`;
        const files = { 'App.csproj': csproj };
        const use = nuget.findDependency(files, 'pkg');
        if (!use) throw new Error('not found');
        const result = nuget.updateManifest(files, use, to);
        if (nugetVersions.compare(from, to) === 0) expect(result).toHaveProperty('unchanged');
        else expect(result).toEqual({ files: { 'App.csproj': csproj.replace(`"${from}"`, `"${to}"`) }, requirement: to });
      }),
      { numRuns: 200 },
    );
  });
});
