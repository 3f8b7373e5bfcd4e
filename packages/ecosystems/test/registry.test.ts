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
    expect(ecosystemFor('npm_and_yarn')?.files).toMatchObject({
      required: [['package.json']],
      optional: ['npm-shrinkwrap.json', 'package-lock.json', 'yarn.lock', 'lerna.json'],
    });
    // A workspace member's own lockfile (a Lerna package's) is read through `related` and updated too.
    expect(ecosystemFor('npm_and_yarn')?.files.lockfiles).toEqual(
      expect.arrayContaining(['npm-shrinkwrap.json', 'package-lock.json', 'yarn.lock', '*/package-lock.json', '*/*/yarn.lock']),
    );
    expect(ecosystemFor('pip')?.files.required).toEqual([
      [
        'requirements.txt',
        'pyproject.toml',
        'Pipfile',
        'setup.py',
        'setup.cfg',
        'requirements.in',
        '*.txt',
        '*.in',
        'requirements/*.txt',
        'requirements/*.in',
      ],
    ]);
    expect(ecosystemFor('pip')?.files.lockfiles).toEqual(['poetry.lock', 'uv.lock', 'Pipfile.lock']);
    expect(ecosystemFor('maven')?.files.required).toEqual([['pom.xml']]);
    expect(ecosystemFor('bundler')?.files).toMatchObject({
      required: [['Gemfile', 'gems.rb', '*.gemspec']],
      optional: ['Gemfile.lock', 'gems.locked', '*.gemspec'],
      lockfiles: ['Gemfile.lock', 'gems.locked'],
    });
    // A member directory's workspace lockfile is the root's, read above it through `related`.
    expect(ecosystemFor('cargo')?.files).toMatchObject({
      required: [['Cargo.toml']],
      optional: ['Cargo.lock'],
      lockfiles: [
        'Cargo.lock',
        '../Cargo.lock',
        '../../Cargo.lock',
        '../../../Cargo.lock',
        '../../../../Cargo.lock',
        '../../../../../Cargo.lock',
      ],
    });
    expect(ecosystemFor('composer')?.files).toEqual({
      required: [['composer.json']],
      optional: ['composer.lock'],
      lockfiles: ['composer.lock'],
    });
    expect(ecosystemFor('submodules')?.files.gitlinks).toBe(true);
    for (const pm of PACKAGE_MANAGERS) {
      const { files } = requireEcosystem(pm);
      expect(files.required.length, pm).toBeGreaterThan(0);
      // Every lockfile is read: one of the directory's optional files, or a file `related` names (a member's own).
      for (const lockfile of files.lockfiles) {
        if (!files.optional.includes(lockfile)) expect(files.related, `${pm}: ${lockfile} is read`).toBeDefined();
      }
    }
  });
  it('normalises names per ecosystem', () => {
    expect(requireEcosystem('pip').normaliseName('Zope.Interface')).toBe('zope-interface');
    expect(requireEcosystem('maven').normaliseName('org.slf4j:slf4j-api')).toBe('org.slf4j:slf4j-api');
    expect(requireEcosystem('composer').normaliseName('Twig/Twig')).toBe('twig/twig');
    expect(requireEcosystem('cargo').normaliseName('Serde_JSON')).toBe('serde-json');
  });
});
