import { type DependencyUse, githubActions, npmAndYarn, pip, submodules } from '@switchyard/ecosystems';
import type { RegistryVersion } from '@switchyard/registries';
import { describe, expect, it } from 'vitest';
import { type AffectedPackage, parseVulnerableRange } from '../src/advisories/advisory-match.policy.ts';
import { chooseTarget, notificationTarget } from '../src/pipeline/decide/choose-target.policy.ts';

const listed = (...versions: Array<string | (Partial<RegistryVersion> & { version: string })>): RegistryVersion[] =>
  versions.map((v) => ({
    releasedAt: null,
    yanked: false,
    deprecated: null,
    digests: [],
    ...(typeof v === 'string' ? { version: v } : v),
  }));
const npmUse = (version: string | null, requirement = `^${version ?? '1.0.0'}`): DependencyUse => ({
  name: 'lodash',
  type: 'runtime',
  requirement,
  version,
  manifest: 'package.json',
});
const rules = { lockfileOnly: false, securityUpdatesOnly: false };
const ghsa = (id: string, range: string): AffectedPackage => ({
  advisoryId: id,
  ranges: [],
  versions: [],
  constraints: parseVulnerableRange(range),
});

describe('chooseTarget (the version an update run targets)', () => {
  it('takes the newest version that is neither yanked, deprecated nor a pre-release', () => {
    const choice = chooseTarget(
      npmAndYarn,
      npmUse('4.17.15'),
      listed('4.17.15', '4.17.20', { version: '4.17.21' }, { version: '4.17.22', deprecated: 'broken' }, '5.0.0-rc.1', {
        version: '4.17.23',
        yanked: true,
      }),
      rules,
      [],
    );
    expect(choice).toMatchObject({ target: '4.17.21', kind: 'patch', latest: '4.17.21' });
  });

  it('takes a pre-release only for a version in use that is a pre-release of the same release', () => {
    expect(chooseTarget(npmAndYarn, npmUse('2.0.0-rc.1'), listed('1.9.0', '2.0.0-rc.1', '2.0.0-rc.2'), rules, [])).toMatchObject({
      target: '2.0.0-rc.2',
    });
    expect(chooseTarget(npmAndYarn, npmUse('1.9.0'), listed('1.9.0', '2.0.0-rc.2'), rules, [])).toMatchObject({
      target: null,
      outcome: 'up-to-date',
    });
  });

  it('keeps a lockfile-only config within the requirement, and says so when nothing newer fits', () => {
    const versions = listed('16.13.1', '16.14.0', '17.0.2', '18.3.1');
    expect(chooseTarget(npmAndYarn, npmUse('16.13.1'), versions, { ...rules, lockfileOnly: true }, [])).toMatchObject({
      target: '16.14.0',
      inRange: true,
    });
    const none = chooseTarget(npmAndYarn, npmUse('16.14.0', '~16.14.0'), versions, { ...rules, lockfileOnly: true }, []);
    expect(none).toMatchObject({ target: null, outcome: 'skipped', latest: '18.3.1' });
    expect(none.reason).toContain('lockfile-only');
  });

  it('for security updates only: the lowest version free of every advisory affecting the version in use, or nothing', () => {
    const versions = listed('2.23.0', '2.31.0', { version: '2.32.0', yanked: true }, '2.32.3', '2.33.0');
    const use: DependencyUse = {
      name: 'requests',
      type: 'runtime',
      requirement: '==2.23.0',
      version: '2.23.0',
      manifest: 'requirements.txt',
    };
    const advisories = [ghsa('GHSA-a', '>= 2.3.0, < 2.31.0'), ghsa('GHSA-b', '< 2.32.0')];
    const fix = chooseTarget(pip, use, versions, { ...rules, securityUpdatesOnly: true }, advisories);
    expect(fix).toMatchObject({ target: '2.32.3', fixes: ['GHSA-a', 'GHSA-b'] });
    const clean = chooseTarget(
      pip,
      { ...use, version: '2.32.3', requirement: '==2.32.3' },
      versions,
      { ...rules, securityUpdatesOnly: true },
      advisories,
    );
    expect(clean).toMatchObject({ target: null, outcome: 'skipped' });
    // Without the security rule the newest is taken, and the advisories it fixes are named.
    expect(chooseTarget(pip, use, versions, rules, advisories)).toMatchObject({ target: '2.33.0', fixes: ['GHSA-a', 'GHSA-b'] });
  });

  it('chooses the fullest of versions its scheme calls equal (a moving `v2` tag and `v2.0.0`): what is pinned is what it says', () => {
    const use: DependencyUse = {
      name: 'acme-oss/setup-tool',
      type: 'runtime',
      requirement: 'v1.2.0',
      version: 'v1.2.0',
      manifest: '.github/workflows/ci.yml',
    };
    for (const order of [listed('v1.2.0', 'v2', 'v2.0.0'), listed('v1.2.0', 'v2.0.0', 'v2')]) {
      const choice = chooseTarget(githubActions, use, order, rules, []);
      expect(choice).toMatchObject({ target: 'v2.0.0', latest: 'v2.0.0' });
    }
  });

  it('is up to date, saying why, when the version in use is unknown or the newest', () => {
    expect(chooseTarget(npmAndYarn, npmUse('4.17.21'), listed('4.17.20', '4.17.21'), rules, [])).toMatchObject({
      target: null,
      outcome: 'up-to-date',
    });
    expect(chooseTarget(npmAndYarn, npmUse(null, 'github:lodash/lodash'), listed('4.17.21'), rules, [])).toMatchObject({
      target: null,
      outcome: 'up-to-date',
    });
  });
});

describe('notificationTarget (a release notification asks the registry)', () => {
  it("targets the registry's newer allowed version over the notified one", () => {
    expect(notificationTarget(npmAndYarn, npmUse('4.17.15'), '4.17.21', { versions: listed('4.17.21', '4.17.22') }, rules, [])).toEqual({
      version: '4.17.22',
      unverified: false,
      note: "the registry's newest allowed version 4.17.22 is past the notified 4.17.21",
    });
  });

  it('targets the notified version, unverified, when the registry does not list it or cannot be asked', () => {
    expect(notificationTarget(npmAndYarn, npmUse('4.17.15'), '4.17.99', { versions: listed('4.17.21') }, rules, [])).toMatchObject({
      version: '4.17.99',
      unverified: true,
    });
    expect(
      notificationTarget(npmAndYarn, npmUse('4.17.15'), '4.17.21', { missing: 'the registry could not be asked' }, rules, []),
    ).toMatchObject({
      version: '4.17.21',
      unverified: true,
    });
  });

  it('keeps the notified version when it is the newest allowed, and matches versions by the scheme (v2.32.0 is 2.32.0)', () => {
    const use: DependencyUse = {
      name: 'requests',
      type: 'runtime',
      requirement: '==2.23.0',
      version: '2.23.0',
      manifest: 'requirements.txt',
    };
    expect(notificationTarget(pip, use, 'v2.32.0', { versions: listed('2.23.0', '2.32.0') }, rules, [])).toEqual({
      version: 'v2.32.0',
      unverified: false,
      note: '',
    });
  });
});

describe('chooseTarget for commit pins (an unordered scheme)', () => {
  const commit = (c: string) => c.repeat(40);
  // The submodules ecosystem's scheme: commit ids, no order.
  const commits = submodules;
  const use = (version: string | null, branch: string | null = null): DependencyUse => ({
    name: 'github.com/acme-oss/errors',
    type: 'runtime',
    requirement: branch,
    version,
    manifest: 'vendor/errors',
  });
  const heads = listed({ version: commit('1'), refs: ['main'] }, { version: commit('0'), refs: ['release', 'stable'] });

  it("targets the registry's latest (the default branch's head) when it is another commit, whatever the ids' order", () => {
    expect(chooseTarget(commits, use(commit('f')), heads, rules, [], commit('1'))).toMatchObject({
      target: commit('1'),
      kind: 'major',
      inRange: true,
      latest: commit('1'),
    });
  });

  it('targets the head of the branch the requirement names', () => {
    expect(chooseTarget(commits, use(commit('f'), 'stable'), heads, rules, [], commit('1'))).toMatchObject({ target: commit('0') });
  });

  it('is up to date at the head, with an unknown commit, or when the registry names no head', () => {
    expect(chooseTarget(commits, use(commit('1')), heads, rules, [], commit('1'))).toMatchObject({ target: null, outcome: 'up-to-date' });
    expect(chooseTarget(commits, use(null), heads, rules, [], commit('1'))).toMatchObject({
      target: null,
      reason: 'the commit in use is unknown',
    });
    expect(chooseTarget(commits, use(commit('f'), 'gone'), heads, rules, [], null)).toMatchObject({
      target: null,
      reason: 'the registry names no head commit of branch gone',
    });
  });

  it('skips commits for a security-updates-only config (commits have no advisories)', () => {
    expect(chooseTarget(commits, use(commit('f')), heads, { ...rules, securityUpdatesOnly: true }, [], commit('1'))).toMatchObject({
      target: null,
      outcome: 'skipped',
    });
  });
});
