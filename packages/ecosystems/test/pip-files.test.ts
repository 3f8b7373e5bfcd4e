import { describe, expect, it } from 'vitest';
import { ManifestParseError, pip } from '../src/index.ts';
import { pipfileHashes } from '../src/pip/pipfile.ts';
import { CORPUS_PRESENT, corpusDirectories } from './corpus.ts';
import { fixture, fixtureTree } from './fixtures.ts';
import { listChecked, rows } from './invariant.ts';

describe('pip files: which files are read', () => {
  it('requires a manifest or any *.txt / *.in of the directory or of requirements/; locks Pipfile.lock', () => {
    expect(pip.files.required).toEqual([
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
    expect(pip.files.optional).toEqual(['*/*.txt', '*/*.in', 'poetry.lock', 'uv.lock', 'Pipfile.lock', '.python-version', 'runtime.txt']);
    expect(pip.files.lockfiles).toEqual(['poetry.lock', 'uv.lock', 'Pipfile.lock']);
  });
  it('names the -r / -c includes of the requirements files read, relative to the including file', () => {
    const files = {
      'requirements.txt': '-r requirements/common.txt\n--constraint=../shared/constraints.txt\nflask\n',
      'requirements-dev.txt': '-rrequirements/test.txt  # tests\n--requirement requirements.txt\n-r https://example.com/x.txt\n',
    };
    expect(pip.files.related?.(files)).toEqual(['requirements/common.txt', '../shared/constraints.txt', 'requirements/test.txt']);
    expect(pip.files.related?.({ 'requirements/dev.txt': '-r ../base.txt\n-c ./pins.txt\n' })).toEqual([
      'base.txt',
      'requirements/pins.txt',
    ]);
  });
});

describe('pip Pipfile and Pipfile.lock', () => {
  const files = fixture('pipenv');

  it('reads [packages] as runtime, [dev-packages] and custom categories as development, versions from their lock section', () => {
    expect(rows(listChecked(pip, files))).toEqual([
      ['Flask', 'runtime', '==2.3.3', '2.3.3'],
      ['requests', 'runtime', '>=2.28,<3', '2.31.0'],
      ['zope.interface', 'runtime', '*', '6.1'],
      ['pytest', 'development', '>=7.4', '7.4.3'],
      ['black', 'development', '==23.11.0', '23.11.0'],
      ['sphinx', 'development', '~=7.2', '7.2.6'],
    ]);
    expect(pip.findDependency(files, 'flask')).toMatchObject({ manifest: 'Pipfile' });
  });
  it('finds git and path packages without a version and leaves them out of the list; [source], [requires] are not packages', () => {
    expect(pip.findDependency(files, 'internal-sdk')).toMatchObject({ requirement: null, version: null });
    expect(pip.findDependency(files, 'local-utils')).toMatchObject({ requirement: null });
    expect(pip.findDependency(files, 'python_version')).toBeUndefined();
    expect(pip.findDependency(files, 'pypi')).toBeUndefined();
  });
  it('takes the version of the section of the declaration when the sections lock different versions', () => {
    const lock = JSON.parse(files['Pipfile.lock'] ?? '{}');
    lock.default.pytest = { hashes: [], version: '==8.0.0' };
    expect(pip.findDependency({ ...files, 'Pipfile.lock': JSON.stringify(lock) }, 'pytest')).toMatchObject({ version: '7.4.3' });
  });
  it('without Pipfile.lock, the version is the exact pin', () => {
    const only = fixture('pipenv', ['Pipfile']);
    expect(pip.findDependency(only, 'flask')).toMatchObject({ version: '2.3.3' });
    expect(pip.findDependency(only, 'pytest')).toMatchObject({ version: null });
  });
  it('computes _meta.hash.sha256 as pipenv does', () => {
    const lock = JSON.parse(files['Pipfile.lock'] ?? '{}');
    expect(pipfileHashes(files.Pipfile ?? '')[0]).toBe(lock._meta.hash.sha256);
  });
  it('names the file that does not parse', () => {
    expect(() => pip.listDependencies({ Pipfile: '[packages\nflask = "*"' })).toThrow(ManifestParseError);
    expect(() => pip.listDependencies({ ...files, 'Pipfile.lock': '{"default": ' })).toThrow(
      expect.objectContaining({ file: 'Pipfile.lock' }),
    );
  });
});

describe('pip setup.py and setup.cfg', () => {
  const files = fixture('setuptools');

  it('reads setup.py literals (install_requires runtime; setup_requires, tests_require, extras_require development), not those with a `<` marker', () => {
    expect(rows(listChecked(pip, { 'setup.py': files['setup.py'] ?? '' }))).toEqual([
      ['click', 'runtime', '>=8.0,<9', null],
      ['PyYAML', 'runtime', '==6.0.1', '6.0.1'],
      ['setuptools_scm', 'development', '>=7', null],
      ['pytest', 'development', '>=7.4', null],
      ['coverage', 'development', '~=7.3', null],
      ['boto3', 'development', '>=1.28', null],
      ['sphinx', 'development', '==7.2.6', '7.2.6'],
      ['furo', 'development', null, null],
    ]);
  });
  it('skips what is not a literal, never running setup.py, and reports it', () => {
    expect(pip.skippedDeclarations?.({ 'setup.py': files['setup.py'] ?? '' })).toEqual([
      {
        file: 'setup.py',
        line: 10,
        text: "importlib-metadata>=4.6; python_version < '3.10'",
        reason: expect.stringContaining("the marker python_version < '3.10' holds '<'"),
      },
      {
        file: 'setup.py',
        line: 34,
        text: '"all": read("requirements-all.txt").splitlines(),',
        reason: "extras_require['all'] is not a literal list of strings (not evaluated)",
      },
    ]);
    const computed = 'from setuptools import setup\nsetup(name="x", install_requires=open("r.txt").read().splitlines())\n';
    expect(pip.listDependencies({ 'setup.py': computed })).toEqual([]);
    expect(pip.skippedDeclarations?.({ 'setup.py': computed })).toMatchObject([
      { line: 2, reason: expect.stringContaining('not a literal') },
    ]);
    expect(() => pip.listDependencies({ 'setup.py': 'setup(install_requires=["flask)\n' })).toThrow(ManifestParseError);
  });
  it('reads setup.cfg [options] and [options.extras_require], continuation lines, comments and ; markers (not one holding `<`)', () => {
    expect(rows(listChecked(pip, { 'setup.cfg': files['setup.cfg'] ?? '' }))).toEqual([
      ['click', 'runtime', '>=8.0,<9', null],
      ['requests', 'runtime', '>= 2.28, < 3', null],
      ['pytest-mock', 'development', '>=3.11', null],
      ['freezegun', 'development', null, null],
      ['boto3', 'development', '>=1.28', null],
      ['botocore', 'development', null, null],
    ]);
    expect(pip.skippedDeclarations?.({ 'setup.cfg': files['setup.cfg'] ?? '' })).toMatchObject([
      { file: 'setup.cfg', line: 12, text: 'tomli>=2.0.1; python_version < "3.11"', reason: expect.stringContaining("holds '<'") },
      { file: 'setup.cfg', line: 20, reason: expect.stringContaining('file:') },
    ]);
  });
  it('gives setup.py before setup.cfg, runtime when either declares it so', () => {
    expect(pip.findDependency(files, 'click')).toMatchObject({ manifest: 'setup.py', type: 'runtime' });
    expect(pip.findDependency(files, 'requests')).toMatchObject({ manifest: 'setup.cfg', requirement: '>= 2.28, < 3' });
  });
});

describe('pip requirements.in with its pip-compile output, and -r / -c includes', () => {
  it('reads requirements.in as requirements, the version from requirements.txt, whose pins are not declarations', () => {
    const files = fixture('pip-compile');
    expect(rows(listChecked(pip, files))).toEqual([
      ['Django', 'runtime', '>=4.2,<5', '4.2.7'],
      ['celery', 'runtime', '~=5.3', '5.3.4'],
    ]);
    expect(pip.findDependency(files, 'kombu')).toBeUndefined();
    expect(pip.findDependency(files, 'redis')).toBeUndefined();
  });
  it('follows -r includes (their own type by name) and takes versions, not dependencies, from -c constraints files', () => {
    const files = fixtureTree('pip-includes');
    expect(rows(listChecked(pip, files))).toEqual([
      ['gunicorn', 'runtime', '==21.2.0', '21.2.0'],
      ['ipdb', 'development', null, null],
      ['attrs', 'runtime', '>=23.1', null],
      ['structlog', 'runtime', '~=23.2', null],
      ['urllib3', 'runtime', null, '2.0.7'],
      ['pytest-xdist', 'development', '>=3.3', null],
    ]);
    expect(pip.findDependency(files, 'structlog')).toMatchObject({ manifest: 'requirements/common.txt' });
    expect(pip.findDependency(files, 'not-a-dependency')).toBeUndefined();
  });
  it('does not read an included file the map does not hold', () => {
    expect(pip.listDependencies({ 'requirements.txt': '-r missing.txt\nflask\n' }).map((use) => use.name)).toEqual(['flask']);
  });
});

describe.runIf(CORPUS_PRESENT)('pip corpus: Pipfile, setup.py, setup.cfg', () => {
  const directories = corpusDirectories(pip);
  const of = (label: string) => directories.find((d) => d.label === label)?.files ?? {};

  it('reads pypa/pipenv Pipfile with Pipfile.lock versions', () => {
    const list = listChecked(pip, of('pypa/pipenv/.'));
    const pipfile = list.filter((use) => use.manifest === 'Pipfile');
    expect(pipfile.length).toBeGreaterThan(20);
    expect(pipfile.every((use) => use.version !== null)).toBe(true);
    expect(pipfile.find((use) => use.name === 'pytz')).toMatchObject({ type: 'runtime' });
    expect(pipfile.find((use) => use.name === 'click')).toMatchObject({ type: 'development', requirement: '==8.0.3', version: '8.0.3' });
    const lock = JSON.parse(of('pypa/pipenv/.')['Pipfile.lock'] ?? '{}');
    expect(pipfileHashes(of('pypa/pipenv/.').Pipfile ?? '')).toContain(lock._meta.hash.sha256);
  });
  it('skips celery setup.py computed requirements and reads aiohttp setup.cfg without failing', () => {
    // requirements/default.txt's marker excludes the Python of setup.py's python_requires=">=3.10" (3.13.5)
    expect(pip.skippedDeclarations?.(of('celery/celery/.')).map((s) => s.text)).toEqual([
      "exceptiongroup>=1.3.0; python_version < '3.11'",
      'install_requires=install_requires(),',
      "tests_require=reqs('test.txt'),",
      'extras_require=extras_require(),',
    ]);
    const manifests = new Set(listChecked(pip, of('aio-libs/aiohttp/.')).map((use) => use.manifest));
    expect([...manifests]).toEqual(['pyproject.toml', 'requirements/base.txt', 'requirements/dev.txt']);
  });
  it('listDependencies never throws on a corpus directory', () => {
    for (const directory of directories) expect(() => listChecked(pip, directory.files), directory.label).not.toThrow();
  });
});
