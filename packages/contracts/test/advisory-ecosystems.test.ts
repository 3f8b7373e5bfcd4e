import { describe, expect, it } from 'vitest';
import {
  ADVISORY_ECOSYSTEM_BY_PACKAGE_MANAGER,
  ADVISORY_ECOSYSTEMS,
  advisoryEcosystemOf,
  OSV_ECOSYSTEMS,
  PACKAGE_MANAGERS,
} from '../src/index.ts';

describe('advisory ecosystems of our package managers', () => {
  it('maps the package managers that have an advisory ecosystem, and no others', () => {
    expect(ADVISORY_ECOSYSTEM_BY_PACKAGE_MANAGER).toMatchObject({
      npm_and_yarn: 'npm',
      pip: 'pip',
      maven: 'maven',
      bundler: 'rubygems',
      cargo: 'rust',
      composer: 'composer',
    });
    expect(advisoryEcosystemOf('bundler')).toBe('rubygems');
    expect(advisoryEcosystemOf('docker')).toBeUndefined();
    expect(advisoryEcosystemOf('toString')).toBeUndefined();
  });

  it('maps only package managers of the API, each to an ecosystem of the advisory database', () => {
    for (const [manager, ecosystem] of Object.entries(ADVISORY_ECOSYSTEM_BY_PACKAGE_MANAGER)) {
      expect(PACKAGE_MANAGERS, manager).toContain(manager);
      expect(ADVISORY_ECOSYSTEMS, manager).toContain(ecosystem);
    }
  });

  it('names the OSV ecosystem of the package managers whose OSV records are imported', () => {
    expect(OSV_ECOSYSTEMS).toEqual({
      npm_and_yarn: 'npm',
      pip: 'PyPI',
      maven: 'Maven',
      bundler: 'RubyGems',
      cargo: 'crates.io',
      composer: 'Packagist',
    });
  });
});
