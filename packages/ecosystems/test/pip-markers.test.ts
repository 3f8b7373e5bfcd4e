import { describe, expect, it } from 'vitest';
import { pip } from '../src/index.ts';
import { evaluateMarker, parseMarker } from '../src/pip/markers.ts';
import { projectPythonVersion } from '../src/pip/python-version.ts';
import { listChecked, rows } from './invariant.ts';
import { checkedUpdate } from './update-check.ts';

/** Two pins of foo, each under a marker on the Python version, as a project supporting old and new Pythons writes them. */
const PER_PYTHON = 'foo==1.0; python_version < "3.8"\nfoo==2.0; python_version >= "3.8"\nbar>=1\n';

describe('pip markers: the files read for the Python version', () => {
  it('reads .python-version and runtime.txt', () => {
    expect(pip.files.optional).toEqual(expect.arrayContaining(['.python-version', 'runtime.txt']));
  });
});

describe("pip markers: a requirements-file line Dependabot's blocking_marker? blocks is skipped", () => {
  const files = { 'requirements.txt': PER_PYTHON, '.python-version': '3.12\n' };

  it('counts only the line whose python_version marker the project’s Python (.python-version 3.12) satisfies', () => {
    expect(pip.findDependency(files, 'foo')).toEqual({
      name: 'foo',
      type: 'runtime',
      requirement: '==2.0',
      version: '2.0',
      manifest: 'requirements.txt',
    });
    expect(rows(listChecked(pip, files))).toEqual([
      ['foo', 'runtime', '==2.0', '2.0'],
      ['bar', 'runtime', '>=1', null],
    ]);
  });
  it('reports the skipped line with the reason', () => {
    expect(pip.skippedDeclarations?.(files)).toEqual([
      {
        file: 'requirements.txt',
        line: 1,
        text: 'foo==1.0; python_version < "3.8"',
        reason: expect.stringContaining(`python_version < "3.8" excludes the project's Python 3.12`),
      },
    ]);
    expect(pip.skippedDeclarations?.(files)[0]?.reason).toContain('3.12.11, from .python-version 3.12');
  });
  it('updates the line that counts and leaves the skipped one as it is', () => {
    expect(checkedUpdate(pip, files, 'foo', '3.0')).toEqual({
      files: { 'requirements.txt': PER_PYTHON.replace('foo==2.0', 'foo==3.0') },
      requirement: '==3.0',
    });
  });
  it('a package only declared under an excluded marker is not used', () => {
    const only = { 'requirements.txt': 'tomli>=2; python_version < "3.11"\nflask\n', '.python-version': '3.12' };
    expect(pip.findDependency(only, 'tomli')).toBeUndefined();
    expect(pip.listDependencies(only).map((use) => use.name)).toEqual(['flask']);
    const tomli = { name: 'tomli', type: 'runtime', requirement: '>=2', version: null, manifest: 'requirements.txt' } as const;
    expect(pip.updateManifest(only, tomli, '3.0')).toEqual({ cannot: "'tomli' is not declared in the files read" });
  });
  it('also skips such lines of constraints files and pip-compile outputs, whose pins then give no version', () => {
    const compiled = {
      'requirements.in': 'foo\n',
      'requirements.txt': '# pip-compile\nfoo==1.0 ; python_version < "3.8"\nfoo==2.0 ; python_version >= "3.8"\n',
      '.python-version': '3.12',
    };
    expect(pip.findDependency(compiled, 'foo')).toMatchObject({ requirement: null, version: '2.0', manifest: 'requirements.in' });
    const constrained = {
      'requirements.txt': '-c constraints.txt\nfoo\n',
      'constraints.txt': 'foo==1.0 ; python_version < "3.8"\nfoo==2.0 ; python_version >= "3.8"\n',
      '.python-version': '3.12',
    };
    expect(pip.findDependency(constrained, 'foo')).toMatchObject({ version: '2.0' });
    expect(pip.skippedDeclarations?.(constrained)).toMatchObject([{ file: 'constraints.txt', line: 1 }]);
  });
});

describe("pip markers: the project's Python, from the sources Dependabot read in its order", () => {
  it('with no source at all, Dependabot’s default: its highest pre-installed Python, 3.13.5', () => {
    expect(projectPythonVersion({ 'requirements.txt': 'flask\n' })).toMatchObject({
      python_version: '3.13',
      python_full_version: '3.13.5',
      source: "Dependabot's default",
    });
    // the markers imply no single Python here (< 3.8 and >= 3.8), so the default decides: only the 2.0 line counts
    expect(pip.findDependency({ 'requirements.txt': PER_PYTHON }, 'foo')).toMatchObject({ requirement: '==2.0' });
  });
  it('pyproject.toml requires-python: the highest pre-installed Python it allows', () => {
    const pyproject = (range: string) => `[project]\nname = "x"\nversion = "1"\nrequires-python = "${range}"\n`;
    expect(projectPythonVersion({ 'pyproject.toml': pyproject('>=3.9') })).toMatchObject({
      python_full_version: '3.13.5',
      source: 'pyproject.toml requires-python',
      requirement: '>=3.9',
    });
    const capped = { 'pyproject.toml': pyproject('>=3.9,<3.11'), 'requirements.txt': PER_PYTHON.replaceAll('"3.8"', '"3.11"') };
    expect(projectPythonVersion(capped)).toMatchObject({ python_version: '3.10', python_full_version: '3.10.18' });
    expect(pip.findDependency(capped, 'foo')).toMatchObject({ requirement: '==1.0' });
    expect(pip.skippedDeclarations?.(capped)).toMatchObject([
      { line: 2, reason: expect.stringContaining(`python_version >= "3.11" excludes the project's Python 3.10`) },
    ]);
    // before .python-version in Dependabot's order
    expect(projectPythonVersion({ ...capped, '.python-version': '3.12' })).toMatchObject({ python_version: '3.10' });
  });
  it('Pipfile [requires], Poetry python, a pip-compile header, runtime.txt and setup.py python_requires', () => {
    const cases: [Record<string, string>, string, string][] = [
      [{ Pipfile: '[requires]\npython_version = "3.10"\n' }, '3.10.18', 'Pipfile [requires] python_version'],
      [
        { Pipfile: '[requires]\npython_full_version = "3.11.4"\npython_version = "3.10"\n' },
        '3.11.13',
        'Pipfile [requires] python_full_version',
      ],
      [
        { 'pyproject.toml': '[tool.poetry.dependencies]\npython = "~3.10"\n' },
        '3.10.18',
        'pyproject.toml [tool.poetry.dependencies] python',
      ],
      [{ 'pyproject.toml': '[tool.poetry.dependencies]\npython = "^3.9"\n' }, '3.13.5', 'pyproject.toml [tool.poetry.dependencies] python'],
      [
        {
          'requirements.in': 'flask\n',
          'requirements.txt':
            '#\n# This file is autogenerated by pip-compile with Python 3.11\n# by the following command:\nflask==3.0.0\n',
        },
        '3.11.13',
        'the pip-compile header of requirements.txt',
      ],
      [{ '.python-version': '# pinned for CI\n3.10.4  # the image\n' }, '3.10.18', '.python-version'],
      [{ 'runtime.txt': 'python-3.11.9\n' }, '3.11.13', 'runtime.txt'],
      [{ 'setup.py': 'setup(name="x", python_requires=">=3.9,<3.12")\n' }, '3.11.13', 'setup.py python_requires'],
      [
        { Pipfile: '[requires]\npython_version = "3.10"\n', 'pyproject.toml': '[project]\nrequires-python = ">=3.12"\n' },
        '3.10.18',
        'Pipfile [requires] python_version',
      ],
      [{ '.python-version': 'system\n', 'runtime.txt': 'python-3.9.1' }, '3.9.23', 'runtime.txt'],
    ];
    for (const [files, version, source] of cases) {
      expect(projectPythonVersion(files), JSON.stringify(files)).toMatchObject({ python_full_version: version, source });
    }
  });
  it('without a stated Python, the highest pre-installed one all python_version markers of the .txt files allow', () => {
    const files = { 'requirements.txt': 'async-timeout==5.0.1 ; python_version < "3.11"\nflask\n' };
    expect(projectPythonVersion(files)).toMatchObject({ python_full_version: '3.10.18' });
    expect(pip.findDependency(files, 'async-timeout')).toMatchObject({ requirement: '==5.0.1' });
  });
  it('a Python no pre-installed version matches: the version written (Dependabot failed), else not known', () => {
    const old = { 'requirements.txt': PER_PYTHON, '.python-version': '3.7' };
    expect(projectPythonVersion(old)).toMatchObject({ python_version: '3.7', python_full_version: '3.7.0' });
    expect(pip.findDependency(old, 'foo')).toMatchObject({ requirement: '==1.0' });
    const range = { 'requirements.txt': PER_PYTHON, 'setup.py': 'setup(python_requires=">=2.7,<3")' };
    expect(projectPythonVersion(range)).toBeNull();
    expect(pip.findDependency(range, 'foo')).toMatchObject({ requirement: '==1.0' });
    expect(pip.skippedDeclarations?.(range)).toEqual([]);
  });
  it("names the parent directories' .python-version only when it can decide, and reads the farthest up found", () => {
    const marked = { 'requirements.txt': PER_PYTHON };
    expect(pip.files.related?.(marked)).toEqual([
      '../.python-version',
      '../../.python-version',
      '../../../.python-version',
      '../../../../.python-version',
      '../../../../../.python-version',
      '../../../../../../.python-version',
      '../../../../../../../.python-version',
      '../../../../../../../../.python-version',
    ]);
    expect(pip.files.related?.({ 'requirements.txt': 'flask\n' })).toEqual([]);
    expect(pip.files.related?.({ ...marked, '.python-version': '3.12' })).toEqual([]);
    expect(pip.files.related?.({ ...marked, 'pyproject.toml': '[project]\nrequires-python = ">=3.9"\n' })).toEqual([]);
    const root = { ...marked, '../.python-version': '3.12', '../../.python-version': '3.7' };
    expect(projectPythonVersion(root)).toMatchObject({ python_version: '3.7', source: '../../.python-version' });
  });
});

describe('pip markers: PEP 508 evaluation of python_version / python_full_version, other variables as Dependabot did', () => {
  const counts = (line: string, python = '3.12') =>
    pip.findDependency({ 'requirements.txt': `${line}\n`, '.python-version': python }, 'foo') !== undefined;

  it.each([
    ['foo==1.0 ; python_version == "3.12"', true],
    ['foo==1.0 ; python_version <= "3.12"', true],
    ['foo==1.0 ; python_version != "3.12"', false],
    ['foo==1.0 ; python_version ~= "3.10"', true],
    ['foo==1.0 ; python_version in "3.11 3.12"', true],
    ['foo==1.0 ; python_version not in "3.11 3.12"', false],
    ['foo==1.0 ; "3.8" > python_version', false],
    ["foo==1.0 ; python_version<'3.8'", false],
    ['foo==1.0 ; python_full_version >= "3.12.1"', true],
    ['foo==1.0 ; python_full_version < "3.12.5"', false],
    ['foo==1.0 ; python_version < "3.8" and sys_platform == "linux"', false],
    ['foo==1.0 ; python_version < "3.8" or sys_platform == "linux"', true],
    ['foo==1.0 ; sys_platform == "win32" and (python_version >= "3.13" or python_version < "3.9")', false],
    ['foo==1.0 ; (python_version >= "3.8" and python_version < "3.13") or implementation_name == "pypy"', true],
    ['foo==1.0 ; python_version >= "3.8" and (sys_platform == "win32" or python_version < "3.6")', true],
    ['foo==1.0 ; sys_platform == "win32"', true],
    ['foo==1.0 ; extra == "tests"', true],
    ['foo==1.0 ; platform_machine != "x86_64"', true],
    ['foo<2 ; sys_platform == "win32"', false],
    ['foo>=1,<2 ; implementation_name == "cpython"', false],
    ['foo==1.0 ; platform_release < "5.0"', false],
    ['foo<2 ; platform_release > "5.0"', true],
  ])('%s: counts for Python 3.12.11 → %s', (line, expected) => {
    expect(counts(line)).toBe(expected);
  });
  it('reports the other-variable rule with its reason', () => {
    expect(pip.skippedDeclarations?.({ 'requirements.txt': 'foo<2 ; sys_platform == "win32"\n' })).toEqual([
      {
        file: 'requirements.txt',
        line: 1,
        text: 'foo<2 ; sys_platform == "win32"',
        reason: expect.stringContaining('the specifier <2 holds \'<\' under the marker sys_platform == "win32"'),
      },
    ]);
  });
  it('parses and evaluates with three values', () => {
    const python = { python_version: '3.12', python_full_version: '3.12.11' };
    const evaluate = (marker: string) => {
      const tree = parseMarker(marker);
      return tree && evaluateMarker(tree, python);
    };
    expect(evaluate('python_version >= "3.8"')).toBe(true);
    expect(evaluate('sys_platform == "linux"')).toBeUndefined();
    expect(evaluate('sys_platform == "linux" and python_version < "3"')).toBe(false);
    expect(evaluate('sys_platform == "linux" or python_version >= "3"')).toBe(true);
    expect(evaluate('(python_version < "3" or python_version > "3.11") and python_full_version != "3.12.11"')).toBe(false);
    expect(parseMarker('python_version <')).toBeUndefined();
    expect(parseMarker('(python_version < "3"')).toBeUndefined();
    expect(parseMarker('python_version < "3" and')).toBeUndefined();
  });
});

describe('pip markers: pyproject.toml PEP 621/735 strings and setup files with a `<` marker are skipped, as Dependabot did', () => {
  it('leaves out and reports a PEP 621 string whose marker holds <, whatever the Python', () => {
    const files = {
      'pyproject.toml': [
        '[project]',
        'name = "x"',
        'requires-python = ">=3.8"',
        'dependencies = [',
        '  "tomli>=2; python_version < \'3.11\'",',
        '  "httpx>=0.27; python_version >= \'3.8\'",',
        ']',
        '',
      ].join('\n'),
    };
    expect(pip.listDependencies(files).map((use) => use.name)).toEqual(['httpx']);
    expect(pip.skippedDeclarations?.(files)).toEqual([
      {
        file: 'pyproject.toml',
        line: 5,
        text: "tomli>=2; python_version < '3.11'",
        reason: expect.stringContaining("holds '<'"),
      },
    ]);
  });
});

describe('pip markers: runtime.txt', () => {
  it('is read for the Python version, not as a requirements file declaring a package python-3.12.1', () => {
    const files = { 'runtime.txt': 'python-3.12.1\n', 'requirements.txt': 'flask\n' };
    expect(pip.listDependencies(files).map((use) => use.name)).toEqual(['flask']);
    expect(pip.findDependency(files, 'python-3.12.1')).toBeUndefined();
    expect(projectPythonVersion(files)).toMatchObject({ python_full_version: '3.12.11', source: 'runtime.txt' });
  });
});
