import type { PackageManager } from '@switchyard/contracts';
import fc from 'fast-check';
import semver from 'semver';
import { describe, expect, it } from 'vitest';
import {
  assessUpdate,
  cargo,
  cargoVersions,
  composerVersions,
  type DependencyUse,
  depVersions,
  elmVersions,
  goVersions,
  hexVersions,
  npmVersions,
  requireEcosystem,
  rubyVersions,
  SUPPORTED_PACKAGE_MANAGERS,
  terraformVersions,
  type UpdateKind,
  type VersionScheme,
} from '../src/index.ts';

/**
 * Each ecosystem's boundary cases: the last update its compatibility rule allows and the first it does not, from a 0.0.x,
 * a 0.x and a 1+ version (README, "Update kinds"). `semver:minor` automerges `minor` and `patch`, never `major`.
 */
const BOUNDARIES: Record<PackageManager, Array<[from: string, to: string, kind: UpdateKind]>> = {
  // node-semver caret: ^0.0.3 := >=0.0.3 <0.0.4, ^0.2.3 := >=0.2.3 <0.3.0, ^1.2.3 := >=1.2.3 <2.0.0
  npm_and_yarn: [
    ['0.0.3', '0.0.4', 'major'],
    ['0.7.3', '0.7.4', 'patch'],
    ['0.7.3', '0.8.5', 'major'],
    ['1.2.3', '1.9.0', 'minor'],
    ['1.2.3', '2.0.0', 'major'],
  ],
  // Cargo book, caret requirements: the same table as npm's
  cargo: [
    ['0.0.3', '0.0.4', 'major'],
    ['0.7.3', '0.7.9', 'patch'],
    ['0.7.3', '0.8.5', 'major'],
    ['1.2.3', '1.3.0', 'minor'],
    ['1.2.3', '2.0.0', 'major'],
  ],
  // composer require writes ^0.7.3 / ^1.2; composer/semver: ^0.0.3 := >=0.0.3 <0.0.4, ^0.3 := >=0.3.0 <0.4.0
  composer: [
    ['0.0.3', '0.0.4', 'major'],
    ['v0.3.1', '0.3.9', 'patch'],
    ['v0.3.1', '0.4.0', 'major'],
    ['1.2.3', '1.9.0', 'minor'],
    ['v6.3.8', '7.0.0', 'major'],
  ],
  // hex.pm's snippet ~> 0.7.3 / ~> 1.2; Elixir: ~> 0.0.3 := >= 0.0.3 and < 0.1.0
  hex: [
    ['0.0.3', '0.0.4', 'patch'],
    ['0.7.3', '0.7.9', 'patch'],
    ['0.7.3', '0.8.0', 'major'],
    ['1.2.0', '1.9.0', 'minor'],
    ['1.4.0', '2.0.0', 'major'],
  ],
  // bundle add writes ~> 0.7.3 / ~> 7.1; ~> 0.0.3 := >= 0.0.3, < 0.1
  bundler: [
    ['0.0.3', '0.0.4', 'patch'],
    ['0.7.3', '0.7.9', 'patch'],
    ['0.7.3', '0.8.0', 'major'],
    ['7.1.2', '7.2', 'minor'],
    ['6.1.7.6', '7.0.0', 'major'],
  ],
  // dep: ^0.0.3 means 0.0.3 <= X < 0.1.0, ^0.2.3 means 0.2.3 <= X < 0.3.0
  dep: [
    ['v0.0.3', 'v0.0.4', 'patch'],
    ['v0.8.0', 'v0.8.1', 'patch'],
    ['v0.8.0', 'v0.9.1', 'major'],
    ['v1.2.3', 'v1.3.0', 'minor'],
    ['v1.2.3', 'v2.0.0', 'major'],
  ],
  // Go: v0 and pre-releases are unstable, not subject to compatibility requirements
  go_modules: [
    ['v0.0.3', 'v0.0.4', 'major'],
    ['v0.1.0', 'v0.1.1', 'major'],
    ['v0.9.0', 'v1.0.0', 'major'],
    ['v1.2.3', 'v1.2.4', 'patch'],
    ['v1.2.3', 'v1.3.0', 'minor'],
  ],
  // positional: no default requirement with a 0.x rule
  pip: [
    ['0.7.3', '0.8.0', 'minor'],
    ['1.4.2', '1.5', 'minor'],
    ['1.0', '1.0.post1', 'patch'],
    ['2.0', '3.0', 'major'],
  ],
  maven: [
    ['0.7.3', '0.8.0', 'minor'],
    ['1.2', '1.2.1', 'patch'],
    ['1.9', '2.0', 'major'],
  ],
  gradle: [
    ['0.7.3', '0.8.0', 'minor'],
    ['1.2.3', '1.3.0', 'minor'],
    ['1.9', '2.0', 'major'],
  ],
  nuget: [
    ['0.7.3', '0.8.0', 'minor'],
    ['1.2.3', '1.2.3.1', 'patch'],
    ['12.0.3', '13.0.1', 'major'],
  ],
  terraform: [
    ['0.7.3', '0.8.0', 'minor'],
    ['5.31.0', '5.32.0', 'minor'],
    ['5.31.0', '6.0.0', 'major'],
  ],
  elm: [
    ['1.0.0', '1.0.1', 'patch'],
    ['1.0.5', '1.1.0', 'minor'],
    ['1.0.5', '2.0.0', 'major'],
  ],
  docker: [
    ['0.7', '0.8', 'minor'],
    ['3.11-slim', '3.12-slim', 'minor'],
    ['20.11-alpine', '22.1-alpine', 'major'],
  ],
  github_actions: [
    ['v0.1', 'v0.2', 'minor'],
    ['v4.0', 'v4.1.0', 'minor'],
    ['v2', 'v4', 'major'],
  ],
  submodules: [['1'.repeat(40), 'e'.repeat(40), 'major']],
};

const use = (pm: PackageManager, version: string): DependencyUse => ({
  name: 'x',
  type: 'runtime',
  requirement: null,
  version,
  manifest: requireEcosystem(pm).files.required[0]?.[0] ?? '',
});

describe('update kinds follow each ecosystem compatibility rule', () => {
  it('has boundary cases for every package manager', () => {
    expect(Object.keys(BOUNDARIES).sort()).toEqual([...SUPPORTED_PACKAGE_MANAGERS].sort());
  });

  describe.each(SUPPORTED_PACKAGE_MANAGERS)('%s', (pm) => {
    it.each(BOUNDARIES[pm])('%s → %s is %s, as updateKind and assessUpdate say', (from, to, kind) => {
      const ecosystem = requireEcosystem(pm);
      expect(ecosystem.versions.updateKind(from, to)).toBe(kind);
      expect(assessUpdate(ecosystem, use(pm, from), to)).toMatchObject({ outdated: true, kind });
    });
  });

  it("keeps Cargo's rand 0.7.3 → 0.8.5 from a semver:minor automerge (the issue's case)", () => {
    const files = {
      'Cargo.toml': '[package]\nname = "app"\nversion = "0.1.0"\n\n[dependencies]\nrand = "0.7.3"\n',
      'Cargo.lock': 'version = 3\n\n[[package]]\nname = "rand"\nversion = "0.7.3"\n',
    };
    const rand = cargo.findDependency(files, 'rand');
    expect(rand).toMatchObject({ requirement: '0.7.3', version: '0.7.3' });
    expect(assessUpdate(cargo, rand as DependencyUse, '0.8.5')).toEqual({ outdated: true, kind: 'major', inRange: false });
    expect(assessUpdate(cargo, rand as DependencyUse, '0.7.4')).toEqual({ outdated: true, kind: 'patch', inRange: true });
  });
});

/** Release versions with small numbers, so that zeros and neighbours come up often. */
const release = fc.tuple(fc.nat(3), fc.nat(3), fc.nat(3)).map((parts) => parts.join('.'));
const prerelease = fc.option(fc.constantFrom('alpha', 'beta.1', 'rc.1', 'rc.2'), { nil: undefined });
const withPre = fc.tuple(release, prerelease).map(([v, p]) => (p === undefined ? v : `${v}-${p}`));

/** `kind` of every ordered pair `from < to` of `versions`, checked against `oracle` (true: compatible, not `major`). */
function agrees(scheme: VersionScheme, versions: fc.Arbitrary<string>, oracle: (from: string, to: string) => boolean) {
  fc.assert(
    fc.property(versions, versions, (a, b) => {
      fc.pre(scheme.compare(a, b) < 0);
      const kind = scheme.updateKind(a, b);
      expect(kind === 'major', `${a} → ${b}: ${kind}`).toBe(!oracle(a, b));
    }),
    { numRuns: 400 },
  );
}

/** `M.m.p` of a version, pre-release and build dropped. */
const releaseOf = (version: string) => version.replace(/^v/, '').replace(/[-+].*$/, '');

describe('each rule against its reference', () => {
  it("npm: major exactly when node-semver's satisfies(to, '^' + from) is false (pre-releases placed on their release)", () => {
    expect(semver.satisfies('0.8.5', '^0.7.3')).toBe(false);
    expect(npmVersions.updateKind('0.7.3', '0.8.5')).toBe('major');
    agrees(npmVersions, withPre, (from, to) => semver.satisfies(to, `^${from}`, { includePrerelease: true }));
  });
  it("Cargo: major exactly when the bare version (Cargo's default caret) of the release in use does not allow the new release", () => {
    agrees(cargoVersions, withPre, (from, to) => cargoVersions.satisfies(releaseOf(to), releaseOf(from)));
  });
  it('Composer: major exactly when the constraint composer require writes (^0.m.p, ^M.m) does not allow the new release', () => {
    const recommended = (v: string) => {
      const [major, minor, patch] = releaseOf(v).split('.');
      return major === '0' ? `^0.${minor}.${patch}` : `^${major}.${minor}`;
    };
    expect(composerVersions.satisfies('0.0.4', '^0.0.3')).toBe(false);
    expect(composerVersions.satisfies('0.3.9', '^0.3')).toBe(true);
    expect(composerVersions.satisfies('0.4.0', '^0.3')).toBe(false);
    agrees(composerVersions, release, (from, to) => composerVersions.satisfies(to, recommended(from)));
  });
  it("dep: major exactly when the bare constraint (dep's default caret) does not allow the new release", () => {
    agrees(depVersions, release, (from, to) => depVersions.satisfies(to, from));
  });
  it("Hex: major exactly when hex.pm's snippet (~> 0.m.p, ~> M.m) does not allow the new release", () => {
    const snippet = (v: string) => {
      const [major, minor, patch] = v.split('.');
      return major === '0' ? `~> 0.${minor}.${patch}` : `~> ${major}.${minor}`;
    };
    agrees(hexVersions, release, (from, to) => hexVersions.satisfies(to, snippet(from)));
  });
  it("Bundler: major exactly when bundle add's pessimistic requirement (~> 0.m.p, ~> M.m) does not allow the new release", () => {
    const pessimistic = (v: string) => {
      const [major, minor, patch] = v.split('.');
      return major === '0' ? `~> 0.${minor}.${patch}` : `~> ${major}.${minor}`;
    };
    agrees(rubyVersions, release, (from, to) => rubyVersions.satisfies(to, pessimistic(from)));
  });
  it('Terraform: major exactly when the ~> MAJOR.MINOR terraform init proposed does not allow the new release, 0.x included', () => {
    agrees(terraformVersions, release, (from, to) => terraformVersions.satisfies(to, `~> ${from.split('.').slice(0, 2).join('.')}`));
  });
  it('Elm: major exactly when the range elm install writes (M.0.0 <= v < M+1.0.0) does not allow the new version', () => {
    const elmRelease = fc.tuple(fc.integer({ min: 1, max: 3 }), fc.nat(3), fc.nat(3)).map((parts) => parts.join('.'));
    agrees(elmVersions, elmRelease, (from, to) => {
      const major = Number(from.split('.')[0]);
      return elmVersions.satisfies(to, `${major}.0.0 <= v < ${major + 1}.0.0`);
    });
  });
  it('Go: major exactly when either version is unstable (v0 or a pre-release), else positional', () => {
    const goVersion = withPre.map((v) => `v${v}`);
    agrees(goVersions, goVersion, (from, to) => !/^v0\.|-/.test(from) && !/^v0\.|-/.test(to) && from.split('.')[0] === to.split('.')[0]);
    expect(goVersions.updateKind('v1.5.0-beta', 'v1.5.0')).toBe('major');
    expect(goVersions.updateKind('v1.2.4-0.20191109021931-daa7c04131f5', 'v1.3.0')).toBe('major');
    expect(goVersions.updateKind('v14.2.0+incompatible', 'v14.3.0+incompatible')).toBe('minor');
  });
});
