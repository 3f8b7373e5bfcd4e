import { describe, expect, it } from 'vitest';
import { InvalidRequirementError, ManifestParseError, normalisePythonName, pep440Versions, pip, poetryToPep440 } from '../src/index.ts';
import { fixture, sorted } from './fixtures.ts';
import { listChecked, rows } from './invariant.ts';

describe('pip findDependency in requirements files', () => {
  const files = fixture('pip-requirements');

  it('reads an exact pin with a trailing comment, names normalised per PEP 503', () => {
    expect(pip.findDependency(files, 'django')).toEqual({
      name: 'Django',
      type: 'runtime',
      requirement: '==4.2.7',
      version: '4.2.7',
      manifest: 'requirements.txt',
    });
  });
  it('reads ranges, extras, markers, continuations with --hash, and old-style parentheses', () => {
    expect(pip.findDependency(files, 'djangorestframework')).toMatchObject({ requirement: '>=3.14,<3.15', version: null });
    expect(pip.findDependency(files, 'celery')).toMatchObject({ requirement: '==5.3.4', version: '5.3.4' });
    expect(pip.findDependency(files, 'psycopg2-binary')).toMatchObject({ requirement: '==2.9.9', version: '2.9.9' });
    expect(pip.findDependency(files, 'importlib_metadata')).toMatchObject({ name: 'importlib-metadata', requirement: '>=4.6' });
    expect(pip.findDependency(files, 'zope-interface')).toMatchObject({ name: 'zope.interface', requirement: '>=5.0,<7' });
    expect(pip.findDependency(files, 'Requests')).toMatchObject({ requirement: '~= 2.31' });
  });
  it('reads a bare name as no requirement and a direct URL reference as no version', () => {
    expect(pip.findDependency(files, 'typing-extensions')).toMatchObject({ name: 'typing_extensions', requirement: null, version: null });
    expect(pip.findDependency(files, 'internal_sdk')).toMatchObject({ requirement: null, version: null });
  });
  it('skips includes, editables, URLs and archives without failing', () => {
    expect(pip.findDependency(files, 'reporting-tools')).toBeUndefined();
    expect(pip.findDependency(files, 'pdfgen')).toBeUndefined();
    expect(pip.findDependency(files, 'legacy-auth')).toBeUndefined();
  });
  it('reads requirements-dev.txt as development', () => {
    expect(pip.findDependency(files, 'pytest')).toMatchObject({ type: 'development', version: '7.4.3', manifest: 'requirements-dev.txt' });
    expect(pip.findDependency(files, 'django-debug-toolbar')).toMatchObject({ name: 'Django-Debug-Toolbar', type: 'development' });
  });
  it('names the file and line of a requirement it cannot read', () => {
    const call = () => pip.findDependency({ 'requirements.txt': 'flask==3.0.0\nrequests=2.31.0\n' }, 'flask');
    expect(call).toThrow(ManifestParseError);
    expect(call).toThrow(/requirements\.txt: line 2/);
  });
});

describe('pip findDependency in a Poetry pyproject.toml', () => {
  const files = fixture('poetry');

  it('reads Poetry constraints as written and the version from poetry.lock', () => {
    expect(pip.findDependency(files, 'fastapi')).toEqual({
      name: 'fastapi',
      type: 'runtime',
      requirement: '^0.104.1',
      version: '0.104.1',
      manifest: 'pyproject.toml',
    });
    expect(pip.findDependency(files, 'sqlalchemy')).toMatchObject({ name: 'SQLAlchemy', requirement: '~2.0.23', version: '2.0.23' });
    expect(pip.findDependency(files, 'numpy')).toMatchObject({ requirement: '^1.24 || ^1.26', version: '1.26.2' });
  });
  it('reads group and dev dependencies as development', () => {
    expect(pip.findDependency(files, 'pytest')).toMatchObject({ type: 'development', requirement: '^7.4.3', version: '7.4.3' });
    expect(pip.findDependency(files, 'mkdocs-material')).toMatchObject({ type: 'development', version: null });
  });
  it('skips python, and gives git dependencies no requirement', () => {
    expect(pip.findDependency(files, 'python')).toBeUndefined();
    expect(pip.findDependency(files, 'internal-lib')).toMatchObject({ requirement: null, version: null });
  });
  it('takes a bare Poetry version as the exact pin without a lockfile', () => {
    const manifestOnly = fixture('poetry', ['pyproject.toml']);
    expect(pip.findDependency(manifestOnly, 'mypy')).toMatchObject({ requirement: '1.7.0', version: '1.7.0' });
    expect(pip.findDependency(manifestOnly, 'httpx')).toMatchObject({ requirement: '*', version: null });
  });
  it('names poetry.lock when it does not parse', () => {
    expect(() => pip.findDependency({ ...files, 'poetry.lock': '[[package]\nname = "x"' }, 'fastapi')).toThrow(
      expect.objectContaining({ name: 'ManifestParseError', file: 'poetry.lock' }),
    );
  });
});

describe('pip findDependency in a PEP 621 pyproject.toml', () => {
  const files = fixture('pep621');

  it('reads [project] dependencies as runtime', () => {
    expect(pip.findDependency(files, 'shapely')).toMatchObject({ type: 'runtime', requirement: '>=2.0.2', version: null });
    expect(pip.findDependency(files, 'mercantile')).toMatchObject({ name: 'Mercantile', requirement: '==1.2.1', version: '1.2.1' });
    expect(pip.findDependency(files, 'attrs')).toMatchObject({ requirement: '>=23.1' });
    expect(pip.findDependency(files, 'rich')).toMatchObject({ requirement: '>=13.0, <14' });
  });
  it('reads optional-dependencies and dependency-groups as development', () => {
    expect(pip.findDependency(files, 'hypothesis')).toMatchObject({ type: 'development', version: '6.88.1' });
    expect(pip.findDependency(files, 'ruff')).toMatchObject({ type: 'development', requirement: '==0.1.6' });
    expect(pip.findDependency(files, 'coverage')).toMatchObject({ type: 'development', requirement: '>=7.3' });
  });
  it('reads the version from uv.lock, choosing among several locked versions by the requirement', () => {
    const uvLock = [
      '[[package]]\nname = "shapely"\nversion = "2.0.2"\n',
      '[[package]]\nname = "rich"\nversion = "12.6.0"\n',
      '[[package]]\nname = "rich"\nversion = "13.7.0"\n',
    ].join('\n');
    expect(pip.findDependency({ ...files, 'uv.lock': uvLock }, 'shapely')).toMatchObject({ version: '2.0.2' });
    expect(pip.findDependency({ ...files, 'uv.lock': uvLock }, 'rich')).toMatchObject({ requirement: '>=13.0, <14', version: '13.7.0' });
  });
  it('is undefined for an absent package and names pyproject.toml when it does not parse', () => {
    expect(pip.findDependency(files, 'numpy')).toBeUndefined();
    expect(() => pip.findDependency({ 'pyproject.toml': '[project\ndependencies = []' }, 'numpy')).toThrow(
      expect.objectContaining({ name: 'ManifestParseError', file: 'pyproject.toml' }),
    );
  });
});

describe('pip listDependencies', () => {
  it('lists requirements files in file order, leaving out includes, URLs, archives and direct references', () => {
    const list = listChecked(pip, fixture('pip-requirements'));
    expect(list.map((use) => use.name)).toEqual([
      'Django',
      'djangorestframework',
      'celery',
      'psycopg2-binary',
      'importlib-metadata',
      'typing_extensions',
      'zope.interface',
      'requests',
      'pytest',
      'pytest-django',
      'black',
      'Django-Debug-Toolbar',
    ]);
    expect(list.find((use) => use.name === 'black')).toEqual({
      name: 'black',
      type: 'development',
      requirement: '==23.11.0',
      version: '23.11.0',
      manifest: 'requirements-dev.txt',
    });
  });
  it('lists Poetry dependencies with poetry.lock versions, leaving out git dependencies and python', () => {
    expect(rows(listChecked(pip, fixture('poetry')))).toEqual([
      ['fastapi', 'runtime', '^0.104.1', '0.104.1'],
      ['SQLAlchemy', 'runtime', '~2.0.23', '2.0.23'],
      ['pydantic', 'runtime', '>=2.4,<3.0', '2.5.2'],
      ['uvicorn', 'runtime', '0.24.0', '0.24.0'],
      ['httpx', 'runtime', '*', null],
      ['numpy', 'runtime', '^1.24 || ^1.26', '1.26.2'],
      ['pytest', 'development', '^7.4.3', '7.4.3'],
      ['mypy', 'development', '1.7.0', '1.7.0'],
      ['ruff', 'development', '^0.1.6', null],
      ['mkdocs-material', 'development', '^9.4', null],
    ]);
  });
  it('lists PEP 621 runtime and optional dependencies', () => {
    const list = listChecked(pip, fixture('pep621'));
    expect(list.filter((use) => use.type === 'runtime').map((use) => use.name)).toEqual([
      'shapely',
      'pyproj',
      'Mercantile',
      'attrs',
      'rich',
    ]);
    expect(list.find((use) => use.name === 'hypothesis')).toMatchObject({ type: 'development', version: '6.88.1' });
  });
  it("gives a package listed in several files once: first file's requirement, runtime if any file is", () => {
    const files = {
      'requirements.txt': 'requests>=2.31\nlocal-tool @ file:///opt/local_tool\n',
      'pyproject.toml': '[project]\nname = "svc"\ndependencies = ["Requests==2.31.0", "attrs>=23"]\n',
      'requirements-dev.txt': 'requests==2.31.0\npytest==7.4.3\nattrs==23.1.0\n',
    };
    expect(listChecked(pip, files)).toEqual([
      { name: 'requests', type: 'runtime', requirement: '>=2.31', version: '2.31.0', manifest: 'requirements.txt' },
      { name: 'attrs', type: 'runtime', requirement: '>=23', version: '23.1.0', manifest: 'pyproject.toml' },
      { name: 'pytest', type: 'development', requirement: '==7.4.3', version: '7.4.3', manifest: 'requirements-dev.txt' },
    ]);
  });
  it('leaves out Poetry path and url dependencies', () => {
    const toml = [
      '[tool.poetry.dependencies]',
      'python = "^3.11"',
      'shared = { path = "../shared", develop = true }',
      'wheel-pkg = { url = "https://example.com/wheel_pkg-1.0-py3-none-any.whl" }',
      'click = "^8.1"',
    ].join('\n');
    expect(rows(listChecked(pip, { 'pyproject.toml': toml }))).toEqual([['click', 'runtime', '^8.1', null]]);
  });
  it('throws ManifestParseError on a file that does not parse', () => {
    expect(() => pip.listDependencies({ 'requirements.txt': 'flask==3.0.0\nrequests=2.31.0\n' })).toThrow(ManifestParseError);
    expect(() => pip.listDependencies({ ...fixture('poetry'), 'poetry.lock': '[[package]\n' })).toThrow(
      expect.objectContaining({ file: 'poetry.lock' }),
    );
  });
});

describe('PEP 440 versions', () => {
  it('normalises names per PEP 503', () => {
    expect(normalisePythonName('Zope.Interface')).toBe('zope-interface');
    expect(normalisePythonName('typing__extensions')).toBe('typing-extensions');
  });
  it('orders dev, pre, release, local, post releases and epochs', () => {
    const order = ['1.0.dev1', '1.0a1', '1.0a2.dev1', '1.0a2', '1.0b1', '1.0rc1', '1.0', '1.0+local.1', '1.0.post1', '1.1', '1!0.5'];
    expect(sorted(order, pep440Versions.compare)).toEqual(order);
    expect(pep440Versions.compare('1.0', '1.0.0')).toBe(0);
  });
  it.each([
    ['1.4.2', '~=1.4', true],
    ['2.0', '~=1.4', false],
    ['2.0.1', '>=2.0,<3', true],
    ['3.0', '>=2.0,<3', false],
    ['1.2.5', '==1.2.*', true],
    ['1.0+local.1', '==1.0', true],
    ['2.0b1', '>=1.0', false],
    ['2.0b1', '>=2.0b1', true],
    ['1.9.0', '^1.2', true],
    ['2.0.0', '^1.2', false],
    ['0.3.0', '^0.2.3', false],
    ['1.2.9', '~1.2.3', true],
    ['1.3.0', '~1.2', false],
    ['1.2.3', '1.2.3', true],
    ['2.5', '^1.0 || ^2.0', true],
    ['1.5', '>=1.0 <2.0', true],
  ])('%s satisfies %s: %s', (version, requirement, expected) => {
    expect(pep440Versions.satisfies(version, requirement)).toBe(expected);
  });
  it('converts Poetry constraints to PEP 440', () => {
    expect(poetryToPep440('^1.2.3')).toEqual(['>=1.2.3,<2.0.0']);
    expect(poetryToPep440('^0.0.3')).toEqual(['>=0.0.3,<0.0.4']);
    expect(poetryToPep440('~1.2')).toEqual(['>=1.2,<1.3']);
    expect(poetryToPep440('1.2.*')).toEqual(['==1.2.*']);
    expect(poetryToPep440('*')).toEqual(['']);
    expect(() => poetryToPep440('^banana')).toThrow(InvalidRequirementError);
  });
  it('tells pre-releases, update kinds and lowest versions', () => {
    expect(pep440Versions.isPrerelease('1.0a1')).toBe(true);
    expect(pep440Versions.isPrerelease('1.0.dev3')).toBe(true);
    expect(pep440Versions.isPrerelease('1.0.post1')).toBe(false);
    expect(pep440Versions.isPrerelease('1.0+ubuntu1')).toBe(false);
    expect(pep440Versions.updateKind('1.0', '1.0.post1')).toBe('patch');
    expect(pep440Versions.updateKind('1.4.2', '1.5')).toBe('minor');
    expect(pep440Versions.updateKind('2.0', '1!1.0')).toBe('major');
    expect(pep440Versions.lowestAllowed?.('>=2.0.2,<3')).toBe('2.0.2');
    expect(pep440Versions.lowestAllowed?.('^1.2')).toBe('1.2');
    expect(pep440Versions.lowestAllowed?.('<3')).toBeNull();
    expect(() => pep440Versions.satisfies('1.0', '>>1')).toThrow(InvalidRequirementError);
  });
});
