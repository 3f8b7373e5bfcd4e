import { PACKAGE_MANAGERS } from '@switchyard/contracts';
import { describe, expect, it } from 'vitest';
import { ecosystemFor, requireEcosystem, SUPPORTED_PACKAGE_MANAGERS, UnsupportedPackageManagerError } from '../src/index.ts';

describe('registry', () => {
  it('supports every package manager of the API', () => {
    expect([...SUPPORTED_PACKAGE_MANAGERS]).toEqual([...PACKAGE_MANAGERS]);
    for (const pm of PACKAGE_MANAGERS) expect(ecosystemFor(pm)?.packageManager).toBe(pm);
    expect(() => requireEcosystem('cobol' as never)).toThrow(UnsupportedPackageManagerError);
  });
  it('lists the files each ecosystem reads', () => {
    expect(ecosystemFor('npm_and_yarn')?.files).toEqual({
      required: [['package.json']],
      optional: ['npm-shrinkwrap.json', 'package-lock.json', 'yarn.lock'],
      lockfiles: ['npm-shrinkwrap.json', 'package-lock.json', 'yarn.lock'],
    });
    expect(ecosystemFor('pip')?.files.required).toEqual([['requirements.txt', 'pyproject.toml']]);
    expect(ecosystemFor('pip')?.files.lockfiles).toEqual(['poetry.lock', 'uv.lock']);
    expect(ecosystemFor('maven')?.files.required).toEqual([['pom.xml']]);
    expect(ecosystemFor('bundler')?.files).toEqual({ required: [['Gemfile']], optional: ['Gemfile.lock'], lockfiles: ['Gemfile.lock'] });
    expect(ecosystemFor('cargo')?.files).toEqual({ required: [['Cargo.toml']], optional: ['Cargo.lock'], lockfiles: ['Cargo.lock'] });
    expect(ecosystemFor('composer')?.files).toEqual({
      required: [['composer.json']],
      optional: ['composer.lock'],
      lockfiles: ['composer.lock'],
    });
    expect(ecosystemFor('submodules')?.files.gitlinks).toBe(true);
    for (const pm of PACKAGE_MANAGERS) {
      const { files } = requireEcosystem(pm);
      expect(files.required.length, pm).toBeGreaterThan(0);
      for (const lockfile of files.lockfiles) expect(files.optional, `${pm}: ${lockfile} is read`).toContain(lockfile);
    }
  });
  it('normalises names per ecosystem', () => {
    expect(requireEcosystem('pip').normaliseName('Zope.Interface')).toBe('zope-interface');
    expect(requireEcosystem('maven').normaliseName('org.slf4j:slf4j-api')).toBe('org.slf4j:slf4j-api');
    expect(requireEcosystem('composer').normaliseName('Twig/Twig')).toBe('twig/twig');
    expect(requireEcosystem('cargo').normaliseName('Serde_JSON')).toBe('serde-json');
  });
});
