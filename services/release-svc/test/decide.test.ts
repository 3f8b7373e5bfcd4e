import type { PackageManager } from '@switchyard/contracts';
import type { DependencyUse } from '@switchyard/ecosystems';
import { describe, expect, it } from 'vitest';
import type { AffectedPackage } from '../src/advisories/advisory-match.policy.ts';
import { automergeAllowed, type DecisionInput, decide } from '../src/pipeline/decide/decide.policy.ts';
import { type ReadableTarget, readableTarget } from '../src/pipeline/read/target.policy.ts';
import type { KnownUpdateConfig, ScanTarget } from '../src/read-model/scan-target.model.ts';

/** An npm_and_yarn config of repo 3101 at `/` on the default branch, no automerge, no policies (config-svc's defaults). */
function config(overrides: Partial<KnownUpdateConfig> = {}): KnownUpdateConfig {
  return {
    id: 1,
    repoId: 3101,
    accountId: 2001,
    packageManager: 'npm_and_yarn',
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
}

const repo = { fullName: 'acme/web-storefront', defaultBranch: 'main' };

/** The readable target of `c` (a test failure when it would be skipped). */
function readable(c: KnownUpdateConfig, packageManager: PackageManager = c.packageManager): ReadableTarget {
  const target = readableTarget({ config: c, repo }, packageManager);
  if ('skipped' in target) throw new Error(`unexpectedly skipped: ${target.skipped.reason}`);
  return target;
}

const use = (overrides: Partial<DependencyUse> = {}): DependencyUse => ({
  name: 'lodash',
  type: 'runtime',
  requirement: '^4.17.15',
  version: '4.17.15',
  manifest: 'package.json',
  ...overrides,
});

/** decide() for lodash `version` in a config, with `dependency` and `advisories`. */
function decideFor(
  version: string,
  options: { config?: KnownUpdateConfig; dependency?: DependencyUse | undefined; advisories?: AffectedPackage[]; name?: string } = {},
) {
  const input: DecisionInput = {
    target: readable(options.config ?? config()),
    release: { name: options.name ?? 'lodash', version },
    dependency: 'dependency' in options ? options.dependency : use(),
    advisories: options.advisories ?? [],
  };
  return decide(input);
}

/** An advisory on lodash below 4.17.21 (fixed in 4.17.21). */
const prototypePollution: AffectedPackage = {
  advisoryId: 'GHSA-35jh-r3h4-6jhm',
  ranges: [{ type: 'SEMVER', events: [{ introduced: '0' }, { fixed: '4.17.21' }] }],
  versions: [],
};

describe('readableTarget (which configs are read at all)', () => {
  it('skips a config no longer known, a deleted one, an unsupported package manager and an unknown repo, in this order', () => {
    const skipped = (target: ScanTarget | undefined, pm: PackageManager = 'npm_and_yarn') => {
      const result = readableTarget(target, pm);
      return 'skipped' in result ? result.skipped : undefined;
    };
    expect(skipped(undefined)).toEqual({ outcome: 'skipped', reason: 'the update config or its repo is no longer known' });
    expect(skipped({ config: config({ deleted: true }), repo: undefined }, 'docker')).toEqual({
      outcome: 'skipped',
      reason: 'the update config was deleted',
    });
    // Every package manager of the API has an ecosystem; a value from outside the list (a newer config) has none.
    const cobol = 'cobol' as PackageManager;
    expect(skipped({ config: config({ packageManager: cobol }), repo: undefined }, cobol)).toEqual({
      outcome: 'skipped',
      reason: 'package manager cobol is not supported yet',
    });
    expect(skipped({ config: config(), repo: undefined })).toEqual({
      outcome: 'skipped',
      reason: 'repo 3101 is not known to the service yet',
    });
  });

  it('reads on the target branch when set, else on the repo default branch, with the package manager ecosystem', () => {
    expect(readable(config()).branch).toBe('main');
    expect(readable(config({ targetBranch: 'develop' })).branch).toBe('develop');
    expect(readable(config({ packageManager: 'pip' })).ecosystem.packageManager).toBe('pip');
  });
});

describe('decide (what a release means for a config whose manifests were read)', () => {
  it('records a job with its attributes for an outdated dependency', () => {
    expect(decideFor('4.17.21')).toEqual({
      outcome: 'job-recorded',
      reason: '4.17.15 → 4.17.21 (patch)',
      job: {
        updateConfigId: 1,
        repoId: 3101,
        accountId: 2001,
        packageManager: 'npm_and_yarn',
        dependencyName: 'lodash',
        dependencyType: 'runtime',
        versionInUse: '4.17.15',
        targetVersion: '4.17.21',
        updateKind: 'patch',
        automerge: false,
        securityFix: false,
        updateRunId: null,
        unverified: false,
        targetBranch: 'main',
        directory: '/',
      },
    });
    expect(decideFor('4.17.21', { config: config({ targetBranch: 'develop', directory: '/web' }) })).toMatchObject({
      job: { targetBranch: 'develop', directory: '/web' },
    });
  });

  it('says not-used when the manifests do not declare the dependency', () => {
    expect(decideFor('1.3.0', { name: 'left-pad', dependency: undefined, config: config({ directory: '/web' }) })).toEqual({
      outcome: 'not-used',
      reason: 'left-pad is not a dependency in /web',
    });
  });

  it('says up-to-date for a version in use at or past the release', () => {
    expect(decideFor('4.17.15')).toEqual({ outcome: 'up-to-date', reason: 'uses 4.17.15, not older than 4.17.15' });
    expect(decideFor('4.17.10')).toEqual({ outcome: 'up-to-date', reason: 'uses 4.17.15, not older than 4.17.10' });
    // pip compares by PEP 440: 2.31 is 2.31.0.
    const pip = config({ packageManager: 'pip' });
    const requests = use({ name: 'requests', requirement: '>=2.0', version: '2.31.0', manifest: 'requirements.txt' });
    expect(decideFor('2.31', { config: pip, dependency: requests, name: 'requests' })).toMatchObject({ outcome: 'up-to-date' });
  });

  it('says up-to-date, with the reason, when the version in use is unknown or cannot be read', () => {
    const unknown = decideFor('4.17.21', { dependency: use({ version: null, requirement: '*' }) });
    expect(unknown.outcome).toBe('up-to-date');
    expect(unknown.reason).toMatch(/version in use unknown/);
    const git = decideFor('4.17.21', { dependency: use({ version: 'github:lodash/lodash', requirement: 'github:lodash/lodash' }) });
    expect(git.outcome).toBe('up-to-date');
    expect(git.reason).toMatch(/not a valid version/);
  });

  it('compares with the lowest version the requirement allows when no version is pinned', () => {
    expect(decideFor('4.18.0', { dependency: use({ version: null, requirement: '^4.17.0' }) })).toMatchObject({
      outcome: 'up-to-date',
      reason: expect.stringMatching(/version in use unknown; compared with 4\.17\.0/),
    });
  });

  it('ignores a pre-release for a stable version in use, unless the requirement asks for pre-releases', () => {
    const stable = decideFor('5.0.0-rc.1');
    expect(stable.outcome).toBe('up-to-date');
    expect(stable.reason).toMatch(/pre-release/);
    expect(decideFor('4.17.16-beta.2', { dependency: use({ version: '4.17.16-beta.1', requirement: '^4.17.16-beta.1' }) })).toMatchObject({
      outcome: 'job-recorded',
      job: { updateKind: 'patch', versionInUse: '4.17.16-beta.1' },
    });
    expect(decideFor('5.0.0-beta.1', { dependency: use({ requirement: '>=4.0.0-alpha.1' }) })).toMatchObject({
      outcome: 'job-recorded',
      job: { updateKind: 'major' },
    });
  });

  it('gives the update kind by the ecosystem version parts', () => {
    expect(decideFor('4.18.0')).toMatchObject({ job: { updateKind: 'minor' } });
    expect(decideFor('5.0.0')).toMatchObject({ job: { updateKind: 'major' } });
  });

  describe('lockfile-only', () => {
    const lockfileOnly = config({ lockfileOnly: true });
    it('skips an update outside the manifest requirement', () => {
      expect(decideFor('5.0.0', { config: lockfileOnly })).toEqual({
        outcome: 'skipped',
        reason: "5.0.0 is outside the manifest's requirement ^4.17.15 and the config is lockfile-only",
      });
    });
    it('takes an update the requirement allows, and one without a requirement', () => {
      expect(decideFor('4.18.0', { config: lockfileOnly })).toMatchObject({ outcome: 'job-recorded' });
      expect(decideFor('5.0.0', { config: lockfileOnly, dependency: use({ requirement: null }) })).toMatchObject({
        outcome: 'job-recorded',
      });
    });
    it('skips when the requirement cannot be read as a range (never in range)', () => {
      expect(decideFor('4.17.21', { config: lockfileOnly, dependency: use({ requirement: 'latest' }) })).toMatchObject({
        outcome: 'skipped',
        reason: "4.17.21 is outside the manifest's requirement latest and the config is lockfile-only",
      });
    });
  });

  describe('security-updates-only', () => {
    const securityOnly = config({ securityUpdatesOnly: true });
    it('skips an update that fixes no known advisory', () => {
      expect(decideFor('4.17.21', { config: securityOnly })).toEqual({
        outcome: 'skipped',
        reason: 'no known advisory for lodash 4.17.15 is fixed by 4.17.21 and the config takes security updates only',
      });
      // Known, but the release is still affected: not a fix.
      expect(decideFor('4.17.20', { config: securityOnly, advisories: [prototypePollution] })).toMatchObject({ outcome: 'skipped' });
    });
    it('takes an update that fixes an advisory affecting the version in use, marked as a security fix', () => {
      expect(decideFor('4.17.21', { config: securityOnly, advisories: [prototypePollution] })).toMatchObject({
        outcome: 'job-recorded',
        reason: '4.17.15 → 4.17.21 (patch), fixes GHSA-35jh-r3h4-6jhm',
        job: { securityFix: true },
      });
    });
    it('marks a fix as such without the policy too, listing each advisory once, sorted', () => {
      const other: AffectedPackage = { advisoryId: 'GHSA-29mw-wpgm-hmr9', ranges: [], versions: ['4.17.15'] };
      expect(decideFor('4.17.21', { advisories: [prototypePollution, other, prototypePollution] })).toMatchObject({
        reason: '4.17.15 → 4.17.21 (patch), fixes GHSA-29mw-wpgm-hmr9, GHSA-35jh-r3h4-6jhm',
        job: { securityFix: true },
      });
    });
  });

  describe('automerge', () => {
    const rules = config({ automergeRuleRuntimeDeps: 'semver:patch', automergeRuleDevelopmentDeps: 'all' });
    it('follows the rule for runtime dependencies', () => {
      expect(decideFor('4.17.21', { config: rules })).toMatchObject({ job: { automerge: true, dependencyType: 'runtime' } });
      expect(decideFor('4.18.0', { config: rules })).toMatchObject({ job: { automerge: false } });
    });
    it('follows the rule for development dependencies', () => {
      const jest = use({ name: 'jest', type: 'development', requirement: '^25.5.4', version: '25.5.4' });
      expect(decideFor('26.0.0', { config: rules, dependency: jest, name: 'jest' })).toMatchObject({
        job: { automerge: true, dependencyType: 'development', updateKind: 'major' },
      });
    });
    it('merges in-range updates under in_range, and security patches under security:patch', () => {
      const inRange = config({ automergeRuleRuntimeDeps: 'in_range' });
      expect(decideFor('4.18.0', { config: inRange })).toMatchObject({ job: { automerge: true } });
      expect(decideFor('5.0.0', { config: inRange })).toMatchObject({ job: { automerge: false } });
      const securityPatch = config({ automergeRuleRuntimeDeps: 'security:patch' });
      expect(decideFor('4.17.21', { config: securityPatch, advisories: [prototypePollution] })).toMatchObject({ job: { automerge: true } });
      expect(decideFor('4.17.21', { config: securityPatch })).toMatchObject({ job: { automerge: false } });
    });
  });
});

describe('automergeAllowed (the original automerge rules)', () => {
  it('follows each rule by update kind, range and security fix', () => {
    const table: Array<[Parameters<typeof automergeAllowed>, boolean]> = [
      [['never', 'patch', true, true], false],
      [['all', 'major', false, false], true],
      [['semver:patch', 'patch', false, false], true],
      [['semver:patch', 'minor', true, false], false],
      [['semver:minor', 'minor', false, false], true],
      [['semver:minor', 'major', true, false], false],
      [['in_range', 'major', true, false], true],
      [['in_range', 'patch', false, false], false],
      [['security:patch', 'patch', true, true], true],
      [['security:patch', 'patch', true, false], false],
      [['security:patch', 'minor', true, true], false],
    ];
    for (const [args, expected] of table) expect(automergeAllowed(...args), args.join(' ')).toBe(expected);
  });
});
