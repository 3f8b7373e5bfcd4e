import { PACKAGE_MANAGERS } from '@switchyard/contracts';
import { describe, expect, it } from 'vitest';
import { ecosystemFor, requireEcosystem, SUPPORTED_PACKAGE_MANAGERS, UnsupportedPackageManagerError } from '../src/index.ts';

describe('registry', () => {
  it('supports the six package managers of this issue', () => {
    expect([...SUPPORTED_PACKAGE_MANAGERS].sort()).toEqual(['bundler', 'cargo', 'composer', 'maven', 'npm_and_yarn', 'pip']);
    for (const pm of SUPPORTED_PACKAGE_MANAGERS) expect(ecosystemFor(pm)?.packageManager).toBe(pm);
  });
  it('has nothing for the ten others', () => {
    expect(ecosystemFor('docker')).toBeUndefined();
    const others = PACKAGE_MANAGERS.filter((pm) => !SUPPORTED_PACKAGE_MANAGERS.includes(pm));
    expect(others).toHaveLength(10);
    for (const pm of others) expect(ecosystemFor(pm)).toBeUndefined();
    expect(() => requireEcosystem('gradle')).toThrow(UnsupportedPackageManagerError);
  });
  it('lists the files each ecosystem reads', () => {
    expect(ecosystemFor('npm_and_yarn')?.files).toEqual({
      required: [['package.json']],
      optional: ['npm-shrinkwrap.json', 'package-lock.json', 'yarn.lock'],
    });
    expect(ecosystemFor('pip')?.files.required).toEqual([['requirements.txt', 'pyproject.toml']]);
    expect(ecosystemFor('maven')?.files.required).toEqual([['pom.xml']]);
    expect(ecosystemFor('bundler')?.files).toEqual({ required: [['Gemfile']], optional: ['Gemfile.lock'] });
    expect(ecosystemFor('cargo')?.files).toEqual({ required: [['Cargo.toml']], optional: ['Cargo.lock'] });
    expect(ecosystemFor('composer')?.files).toEqual({ required: [['composer.json']], optional: ['composer.lock'] });
  });
  it('normalises names per ecosystem', () => {
    expect(requireEcosystem('pip').normaliseName('Zope.Interface')).toBe('zope-interface');
    expect(requireEcosystem('maven').normaliseName('org.slf4j:slf4j-api')).toBe('org.slf4j:slf4j-api');
    expect(requireEcosystem('composer').normaliseName('Twig/Twig')).toBe('twig/twig');
    expect(requireEcosystem('cargo').normaliseName('Serde_JSON')).toBe('serde-json');
  });
});
