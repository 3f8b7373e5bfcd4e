import type { PackageManager } from '@switchyard/contracts';
import { type DependencyUse, npmAndYarn, pip, RegistryError } from '@switchyard/ecosystems';
import type { RegistryVersion } from '@switchyard/registries';
import { describe, expect, it } from 'vitest';
import { versionInUse } from '../src/pipeline/decide/choose-target.policy.ts';
import { decideDependency, decideRelease } from '../src/pipeline/decide/decide.policy.ts';
import { type ReadableTarget, readableTarget } from '../src/pipeline/read/target.policy.ts';
import type { Resolved } from '../src/pipeline/resolve/resolved.model.ts';
import type { KnownUpdateConfig } from '../src/read-model/scan-target.model.ts';

// A dependency whose version no lockfile gives (acme/data-pipeline's `Django>=2.2,<3.0`, requirements.txt only) is
// decided against what its requirement resolves to on the registry, never against the requirement's lowest version.

const listed = (...versions: Array<string | (Partial<RegistryVersion> & { version: string })>): RegistryVersion[] =>
  versions.map((v) => ({
    releasedAt: null,
    yanked: false,
    deprecated: null,
    digests: [],
    ...(typeof v === 'string' ? { version: v } : v),
  }));

/** The registry emulator's Django versions (its demo seed). */
const DJANGO = listed('2.2.13', '2.2.28', '3.0.7', '3.2.25', '4.2.16', '5.1a1');

const django = (overrides: Partial<DependencyUse> = {}): DependencyUse => ({
  name: 'Django',
  type: 'runtime',
  requirement: '>=2.2,<3.0',
  version: null,
  manifest: 'requirements.txt',
  ...overrides,
});

function target(packageManager: PackageManager = 'pip', overrides: Partial<KnownUpdateConfig> = {}): ReadableTarget {
  const config: KnownUpdateConfig = {
    id: 1,
    repoId: 3103,
    accountId: 2001,
    packageManager,
    directory: '/',
    targetBranch: null,
    automergeRuleRuntimeDeps: 'never',
    automergeRuleDevelopmentDeps: 'never',
    lockfileOnly: false,
    securityUpdatesOnly: false,
    revision: 1,
    deleted: false,
    ...overrides,
  };
  const readable = readableTarget({ config, repo: { fullName: 'acme/data-pipeline', defaultBranch: 'main' } }, packageManager);
  if ('skipped' in readable) throw new Error(readable.skipped.reason);
  return readable;
}

const found = (versions: RegistryVersion[], latest: string | null = null): Resolved => ({
  found: {
    package: { name: 'django', versions, latest, sourceUrl: null, changelogUrl: null },
    registry: 'http://registry.test/pypi/',
  },
});

describe('versionInUse', () => {
  it('resolves a requirement without a lockfile entry to the highest version the registry lists that it allows', () => {
    const inUse = versionInUse(pip, django(), { versions: DJANGO });
    expect(inUse).toEqual({ use: django({ version: '2.2.28' }), note: expect.stringContaining("resolved from '>=2.2,<3.0'") });
  });

  it('skips yanked versions, takes a deprecated one only when nothing else is allowed, and pre-releases only when asked', () => {
    const versions = listed(
      '4.17.15',
      { version: '4.17.21', yanked: true },
      { version: '4.17.20', deprecated: 'broken' },
      '4.17.19',
      '4.18.0-rc.1',
    );
    const lodash = (requirement: string) => django({ name: 'lodash', requirement, manifest: 'package.json' });
    expect(versionInUse(npmAndYarn, lodash('^4.17.0'), { versions })).toMatchObject({ use: { version: '4.17.19' } });
    expect(versionInUse(npmAndYarn, lodash('4.17.20 || 4.17.21'), { versions })).toMatchObject({ use: { version: '4.17.20' } });
    expect(versionInUse(npmAndYarn, lodash('^4.18.0-rc.0'), { versions })).toMatchObject({ use: { version: '4.18.0-rc.1' } });
  });

  it('keeps the version the files give, and a dependency without a requirement, as read', () => {
    const pinned = django({ requirement: '==2.2.13', version: '2.2.13' });
    expect(versionInUse(pip, pinned, { versions: DJANGO })).toEqual({ use: pinned, note: null });
    const bare = django({ requirement: null });
    expect(versionInUse(pip, bare, { versions: DJANGO })).toEqual({ use: bare, note: null });
  });

  it('cannot resolve a range the registry lists nothing for, nor without the registry', () => {
    expect(versionInUse(pip, django({ requirement: '>=2.2,<2.2.5' }), { versions: DJANGO })).toEqual({
      unresolved: "version in use unknown: no lockfile entry, and no version the registry lists satisfies '>=2.2,<2.2.5'",
    });
    expect(versionInUse(pip, django(), { missing: 'the registry could not be asked (unreachable): timeout' })).toEqual({
      unresolved:
        "version in use unknown: no lockfile entry, and '>=2.2,<3.0' could not be resolved: the registry could not be asked (unreachable): timeout",
    });
  });
});

describe('deciding a range without a lockfile (acme/data-pipeline, Django>=2.2,<3.0)', () => {
  it('a run records a job from the resolved version in use to the newest version, saying the version was resolved', () => {
    const decided = decideDependency(target(), django(), found(DJANGO), [], 'run-1');
    expect(decided).toMatchObject({
      outcome: 'job-recorded',
      latest: '4.2.16',
      latestAllowed: '4.2.16',
      inRange: false,
      dependency: django({ version: '2.2.28' }),
      job: { versionInUse: '2.2.28', targetVersion: '4.2.16', updateKind: 'major', dependencyName: 'Django' },
    });
    expect(decided.reason).toBe(
      "2.2.28 → 4.2.16 (major); version in use 2.2.28 resolved from '>=2.2,<3.0' on the registry (no lockfile entry says which version is installed)",
    );
  });

  it('a range that installs the newest version is up to date against it, and says so', () => {
    const decided = decideDependency(target(), django({ requirement: '>=4.2' }), found(DJANGO), [], 'run-1');
    expect(decided).toMatchObject({ outcome: 'up-to-date', dependency: { version: '4.2.16' } });
    expect(decided.reason).toMatch(/^uses 4\.2\.16, the newest allowed; version in use 4\.2\.16 resolved from '>=4\.2'/);
  });

  it('a lockfile-only config skips the update the range excludes, against the resolved version', () => {
    const decided = decideDependency(target('pip', { lockfileOnly: true }), django(), found(DJANGO), [], 'run-1');
    expect(decided).toMatchObject({ outcome: 'skipped', dependency: { version: '2.2.28' } });
    expect(decided.reason).toMatch(/lockfile-only; version in use 2\.2\.28 resolved/);
  });

  it('a range nothing listed satisfies is skipped, never up to date', () => {
    const decided = decideDependency(target(), django({ requirement: '<1.0' }), found(DJANGO), [], 'run-1');
    expect(decided).toMatchObject({ outcome: 'skipped', latest: '4.2.16', latestAllowed: null, errorKind: null });
    expect(decided.reason).toContain("no version the registry lists satisfies '<1.0'");
  });

  it("a notification's scan decides against the resolved version too, and skips when the registry cannot resolve it", () => {
    const scope = { kind: 'one-dependency', notificationId: 'n-1', name: 'Django', version: '4.2.16', packageManager: 'pip' } as const;
    const scanned = decideRelease(target(), scope, { use: django(), resolved: found(DJANGO), advisories: [] });
    expect(scanned.dependency).toEqual(django({ version: '2.2.28' }));
    expect(scanned.decision).toMatchObject({ outcome: 'job-recorded', job: { versionInUse: '2.2.28', targetVersion: '4.2.16' } });
    expect(scanned.decision.reason).toContain('resolved from');
    const failed: Resolved = { failed: new RegistryError('unreachable', 'http://registry.test/pypi/django/json', 'timeout') };
    const unresolved = decideRelease(target(), scope, { use: django(), resolved: failed, advisories: [] });
    expect(unresolved.decision).toMatchObject({
      outcome: 'skipped',
      reason: expect.stringMatching(/^version in use unknown: no lockfile entry/),
    });
  });
});
