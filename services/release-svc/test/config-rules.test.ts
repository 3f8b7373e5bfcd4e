import { DEFAULT_UPDATE_CONFIG_SETTINGS } from '@switchyard/contracts';
import { type DependencyUse, type Ecosystem, ecosystemFor } from '@switchyard/ecosystems';
import { describe, expect, it } from 'vitest';
import { chooseTarget } from '../src/pipeline/decide/choose-target.policy.ts';
import { ignoredBy, notAllowed, type UpdateRules } from '../src/pipeline/decide/config-rules.policy.ts';

const npm = ecosystemFor('npm_and_yarn') as Ecosystem;
const express: DependencyUse = { name: 'express', type: 'runtime', requirement: '^4.17.0', version: '4.17.1', manifest: 'package.json' };
const jest: DependencyUse = { name: 'jest', type: 'development', requirement: '^29.0.0', version: '29.1.0', manifest: 'package.json' };
const rules = (over: Partial<UpdateRules>): UpdateRules => ({ allow: [], ignore: [], ...over });
const ignore = (dependencyName: string, versions: string[] = [], updateTypes: UpdateRules['ignore'][number]['updateTypes'] = []) => ({
  dependencyName,
  versions,
  updateTypes,
});

describe("a config's ignore rules", () => {
  it('ignore every version of a dependency named alone, by pattern, in either case', () => {
    expect(ignoredBy(rules({ ignore: [ignore('express')] }), npm, express, '5.0.0')).toBe('the config ignores express');
    expect(ignoredBy(rules({ ignore: [ignore('EXP*')] }), npm, express, '4.18.0')).toBe('the config ignores EXP*');
    expect(ignoredBy(rules({ ignore: [ignore('react*')] }), npm, express, '5.0.0')).toBeNull();
  });

  it("ignore the versions a range in the ecosystem's syntax holds, or an exact version", () => {
    const r = rules({ ignore: [ignore('express', ['5.x', '4.18.2'])] });
    expect(ignoredBy(r, npm, express, '5.1.0')).toBe('the config ignores express 5.x');
    expect(ignoredBy(r, npm, express, '4.18.2')).toBe('the config ignores express 4.18.2');
    expect(ignoredBy(r, npm, express, '4.18.3')).toBeNull();
    // A range the ecosystem cannot read ignores nothing.
    expect(ignoredBy(rules({ ignore: [ignore('express', ['not a range ((('])] }), npm, express, '5.0.0')).toBeNull();
  });

  it('ignore update types relative to the version in use, as dependabot-core does', () => {
    const majors = rules({ ignore: [ignore('express', [], ['version-update:semver-major'])] });
    expect(ignoredBy(majors, npm, express, '5.0.0')).toBe('the config ignores express version-update:semver-major updates');
    expect(ignoredBy(majors, npm, express, '4.21.0')).toBeNull();
    const patches = rules({ ignore: [ignore('express', [], ['version-update:semver-patch'])] });
    expect(ignoredBy(patches, npm, express, '4.17.3')).not.toBeNull();
    expect(ignoredBy(patches, npm, express, '4.18.0')).toBeNull();
  });

  it('leave the newest version that is not ignored as the target, or skip when every newer one is', () => {
    const versions = ['4.17.1', '4.18.2', '4.21.0', '5.0.0', '5.1.0'].map((version) => ({ version, yanked: false, deprecated: null }));
    const choose = (r: UpdateRules) =>
      chooseTarget(
        npm,
        express,
        versions as never,
        { lockfileOnly: false, securityUpdatesOnly: false, ignored: (v) => ignoredBy(r, npm, express, v) },
        [],
      );
    expect(choose(rules({})).target).toBe('5.1.0');
    expect(choose(rules({ ignore: [ignore('express', [], ['version-update:semver-major'])] })).target).toBe('4.21.0');
    const all = choose(rules({ ignore: [ignore('express', ['>=4.18.0'])] }));
    expect(all).toMatchObject({
      target: null,
      outcome: 'skipped',
      reason: 'every newer version is ignored: the config ignores express >=4.18.0',
    });
  });
});

describe('a config ignoring a submodule', () => {
  it('skips the head of its branch, as it skips a version of a versioned dependency', () => {
    const submodules = ecosystemFor('submodules') as Ecosystem;
    const inUse = 'a'.repeat(40);
    const head = 'b'.repeat(40);
    const use: DependencyUse = { name: 'vendor/errors', type: 'runtime', requirement: 'main', version: inUse, manifest: '.gitmodules' };
    const versions = [{ version: head, yanked: false, deprecated: null, refs: ['main'] }];
    const whole = rules({ held: [{ dependencyName: 'vendor/errors', kind: 'dependency', version: null }] });
    const choose = (r: UpdateRules) =>
      chooseTarget(
        submodules,
        use,
        versions as never,
        { lockfileOnly: false, securityUpdatesOnly: false, ignored: (v) => ignoredBy(r, submodules, use, v) },
        [],
      );
    expect(choose(rules({})).target).toBe(head);
    expect(choose(whole)).toMatchObject({ target: null, outcome: 'skipped', reason: 'ignored on the code host: vendor/errors' });
    expect(choose(rules({ ignore: [ignore('vendor/*')] }))).toMatchObject({
      target: null,
      outcome: 'skipped',
      reason: 'the config ignores vendor/*',
    });
  });
});

describe("a config's allow rules", () => {
  it('take every dependency without rules, and only those a rule names with them', () => {
    expect(notAllowed(DEFAULT_UPDATE_CONFIG_SETTINGS, express)).toBeNull();
    const onlyProduction = rules({ allow: [{ dependencyType: 'production' }] });
    expect(notAllowed(onlyProduction, express)).toBeNull();
    expect(notAllowed(onlyProduction, jest)).toBe("jest is not among the dependencies the config's allow rules take");
    const named = rules({ allow: [{ dependencyName: 'jes*' }] });
    expect(notAllowed(named, jest)).toBeNull();
    expect(notAllowed(named, express)).not.toBeNull();
  });
});
