import { describe, expect, it } from 'vitest';
import { assessUpdate, bundler, composer, type DependencyUse, docker, maven, npmAndYarn, pip, submodules } from '../src/index.ts';

const use = (overrides: Partial<DependencyUse>): DependencyUse => ({
  name: 'x',
  type: 'runtime',
  requirement: null,
  version: null,
  manifest: 'package.json',
  ...overrides,
});

describe('assessUpdate', () => {
  const lodash = use({ name: 'lodash', requirement: '^4.17.15', version: '4.17.21' });

  it('is outdated, with the kind, when the released version is higher', () => {
    expect(assessUpdate(npmAndYarn, lodash, '4.17.22')).toEqual({ outdated: true, kind: 'patch', inRange: true });
    expect(assessUpdate(npmAndYarn, lodash, '4.18.0')).toEqual({ outdated: true, kind: 'minor', inRange: true });
    expect(assessUpdate(npmAndYarn, lodash, '5.0.0')).toEqual({ outdated: true, kind: 'major', inRange: false });
  });
  it('is not outdated for the same or a lower version', () => {
    expect(assessUpdate(npmAndYarn, lodash, '4.17.21')).toEqual({ outdated: false, inRange: true });
    expect(assessUpdate(npmAndYarn, lodash, '4.17.20')).toEqual({ outdated: false, inRange: true });
    expect(assessUpdate(npmAndYarn, lodash, '4.17.14')).toEqual({ outdated: false, inRange: false });
  });
  it('is in range when there is no requirement', () => {
    expect(assessUpdate(npmAndYarn, use({ version: '1.0.0' }), '2.0.0')).toEqual({ outdated: true, kind: 'major', inRange: true });
  });

  describe('pre-release rule', () => {
    it('ignores a pre-release for a stable version in use', () => {
      const result = assessUpdate(npmAndYarn, use({ requirement: '^2.0.0', version: '2.3.0' }), '3.0.0-rc.1');
      expect(result).toMatchObject({ outdated: false, inRange: false });
      expect(result.reason).toMatch(/pre-release/);
    });
    it('counts a pre-release of the same major.minor.patch as the pre-release in use', () => {
      expect(assessUpdate(npmAndYarn, use({ requirement: '^1.0.0-beta.5', version: '1.0.0-beta.6' }), '1.0.0-beta.7')).toEqual({
        outdated: true,
        kind: 'patch',
        inRange: true,
      });
      expect(assessUpdate(npmAndYarn, use({ version: '3.0.0-rc.1' }), '3.1.0-rc.1')).toMatchObject({ outdated: false });
    });
    it('counts any pre-release when the requirement asks for pre-releases', () => {
      expect(assessUpdate(npmAndYarn, use({ requirement: '>=2.0.0-alpha.1', version: '2.0.0' }), '3.0.0-beta.1')).toMatchObject({
        outdated: true,
        kind: 'major',
      });
      expect(assessUpdate(pip, use({ requirement: '>=1.0b1', version: '1.0' }), '2.0rc1')).toMatchObject({ outdated: true, kind: 'major' });
      expect(assessUpdate(composer, use({ requirement: '^2.0@beta', version: 'v2.1.0' }), '2.2.0-beta1')).toEqual({
        outdated: true,
        kind: 'minor',
        inRange: true,
      });
    });
    it('applies to every scheme', () => {
      expect(assessUpdate(pip, use({ requirement: '>=2.0', version: '2.1' }), '3.0a1')).toMatchObject({ outdated: false });
      expect(assessUpdate(maven, use({ requirement: '5.7.0', version: '5.7.0' }), '6.0.0-M1')).toMatchObject({ outdated: false });
      expect(assessUpdate(bundler, use({ requirement: '~> 7.1.2', version: '7.1.2' }), '7.2.0.rc1')).toMatchObject({ outdated: false });
      expect(assessUpdate(bundler, use({ version: '7.2.0.beta1' }), '7.2.0.rc1')).toMatchObject({ outdated: true, kind: 'patch' });
    });
  });

  describe('unknown version in use', () => {
    it('compares with the lowest version the requirement allows and says so', () => {
      const result = assessUpdate(npmAndYarn, use({ requirement: '^4.17.0' }), '4.18.0');
      expect(result).toMatchObject({ outdated: true, kind: 'minor', inRange: true });
      expect(result.reason).toMatch(/lowest version.*4\.17\.0|4\.17\.0.*lowest/);
      expect(assessUpdate(maven, use({ requirement: '[42.6.0,43.0)' }), '42.7.0')).toMatchObject({
        outdated: true,
        kind: 'minor',
        inRange: true,
      });
      expect(assessUpdate(pip, use({ requirement: '^0.104.1' }), '0.105.0')).toMatchObject({
        outdated: true,
        kind: 'minor',
        inRange: false,
      });
      expect(assessUpdate(bundler, use({ requirement: '~> 1.2' }), '1.3.0')).toMatchObject({
        outdated: true,
        kind: 'minor',
        inRange: true,
      });
    });
    it('is not outdated when the requirement has no lowest version, or there is none', () => {
      const star = assessUpdate(npmAndYarn, use({ requirement: '*' }), '4.18.0');
      expect(star).toMatchObject({ outdated: false, inRange: true });
      expect(star.reason).toMatch(/no lowest version/);
      const none = assessUpdate(maven, use({}), '1.0');
      expect(none).toMatchObject({ outdated: false, inRange: true });
      expect(none.reason).toMatch(/unknown/);
    });
    it('is not outdated when the version in use is not a version (branch)', () => {
      const result = assessUpdate(composer, use({ requirement: 'dev-main', version: 'dev-main' }), '1.0.0');
      expect(result).toMatchObject({ outdated: false, inRange: false });
      expect(result.reason).toMatch(/dev-main/);
    });
  });

  it('answers with a reason instead of throwing on an invalid released version or requirement', () => {
    expect(assessUpdate(npmAndYarn, lodash, 'not-a-version')).toMatchObject({
      outdated: false,
      inRange: false,
      reason: expect.any(String),
    });
    const unreadable = assessUpdate(npmAndYarn, use({ requirement: 'next', version: '1.0.0' }), '1.1.0');
    expect(unreadable).toMatchObject({ outdated: true, kind: 'minor', inRange: false });
    expect(unreadable.reason).toMatch(/cannot be read/);
  });
  it('treats a Maven soft requirement as always in range', () => {
    expect(assessUpdate(maven, use({ requirement: '2.15.3', version: '2.15.3' }), '3.0.0')).toEqual({
      outdated: true,
      kind: 'major',
      inRange: true,
    });
  });
});

describe('assessUpdate with an unordered scheme (commit ids)', () => {
  const commits = submodules;
  const [low, high] = ['1'.repeat(40), 'e'.repeat(40)];

  it('calls any other commit an update, whichever way the ids sort', () => {
    expect(assessUpdate(commits, use({ version: high }), low)).toEqual({ outdated: true, kind: 'major', inRange: true });
    expect(assessUpdate(commits, use({ version: low }), high)).toEqual({ outdated: true, kind: 'major', inRange: true });
    expect(assessUpdate(commits, use({ version: low }), low)).toEqual({ outdated: false, inRange: true });
  });

  it('has no baseline without a commit in use', () => {
    expect(assessUpdate(commits, use({ version: null, requirement: 'main' }), low)).toEqual({
      outdated: false,
      inRange: true,
      reason: 'version in use unknown',
    });
  });
});

describe('assessUpdate with a scheme that says which versions are comparable (Docker tags)', () => {
  it('never calls a tag of another variant an update, however it sorts', () => {
    const python = use({ name: 'python', version: '3.11-slim', manifest: 'Dockerfile' });
    expect(assessUpdate(docker, python, '3.12-slim')).toEqual({ outdated: true, kind: 'minor', inRange: true });
    expect(assessUpdate(docker, python, '3.12-alpine')).toMatchObject({ outdated: false, reason: expect.stringMatching(/not comparable/) });
    expect(assessUpdate(docker, python, '3.12')).toMatchObject({ outdated: false });
  });
});
