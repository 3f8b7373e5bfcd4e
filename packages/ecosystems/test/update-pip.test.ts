import { describe, expect, it } from 'vitest';
import { type DependencyUse, pip } from '../src/index.ts';
import { fixture } from './fixtures.ts';
import { checkedUpdate } from './update-check.ts';

/** The new requirements.txt line of `pkg`, or `unchanged` / `cannot`. */
function requirementsLine(line: string, target: string): string {
  const text = `# pins\nalpha==1.0.0\n${line}\nomega>=2  # last\n`;
  const result = checkedUpdate(pip, { 'requirements.txt': text }, 'pkg', target);
  if (!('files' in result)) return 'unchanged' in result ? 'unchanged' : 'cannot';
  const updated = result.files['requirements.txt'] ?? '';
  expect(updated.split('\n').filter((_, i) => i !== 2)).toEqual(text.split('\n').filter((_, i) => i !== 2));
  return updated.split('\n')[2] ?? '';
}

describe('pip updateManifest: requirements files, one specifier per operator', () => {
  it.each([
    ['pkg==1.2.3', '1.3.0', 'pkg==1.3.0'],
    ['pkg==1.2.3', '1.2.3', 'unchanged'],
    ['pkg===1.2.3', '1.3.0', 'pkg===1.3.0'],
    ['pkg==1.2.*', '1.3.4', 'pkg==1.3.*'],
    ['pkg~=1.2', '2.0.1', 'pkg~=2.0'],
    ['pkg~=1.2.3', '1.3.5', 'pkg~=1.3.5'],
    ['pkg>=1.2,<2', '2.4.0', 'pkg>=1.2,<3'],
    ['pkg >= 1.2, < 1.5  # comment', '1.7.0', 'pkg >= 1.2, < 1.8  # comment'],
    ['pkg>=1.2,<=1.5', '1.7.0', 'pkg>=1.2,<=1.7.0'],
    ['pkg[extra]==1.0 ; python_version < "3.12"', '2.0', 'pkg[extra]==2.0 ; python_version < "3.12"'],
    ['pkg (>=1.0,<2)', '2.1', 'pkg (>=1.0,<3)'],
    ['pkg>=1.2,<2', '1.9', 'unchanged'],
    ['pkg>=1.2', '5.0', 'unchanged'],
    ['pkg', '5.0', 'unchanged'],
    ['pkg>=1.2,!=2.0.0,<3', '2.0.0', 'cannot'],
    ['pkg>=2.0', '1.0', 'cannot'],
    ['pkg==1.2.3 --hash=sha256:abcd', '1.3.0', 'cannot'],
    ['pkg @ https://example.com/pkg-1.0.tar.gz', '2.0', 'cannot'],
  ])('%s for %s → %s', (line, target, expected) => {
    expect(requirementsLine(line, target)).toBe(expected);
  });
});

describe('pip updateManifest: several files and pyproject.toml', () => {
  const use = (files: Record<string, string>, name: string) => pip.findDependency(files, name) as DependencyUse;

  it('updates every requirements file naming the package, CRLF kept', () => {
    const files = {
      'requirements.txt': 'Django==4.2.7\r\nrequests\r\n',
      'requirements-dev.txt': '-r requirements.txt\r\ndjango==4.2.7  # same\r\n',
    };
    expect(checkedUpdate(pip, files, 'django', '5.0.1')).toEqual({
      files: {
        'requirements.txt': 'Django==5.0.1\r\nrequests\r\n',
        'requirements-dev.txt': '-r requirements.txt\r\ndjango==5.0.1  # same\r\n',
      },
      requirement: '==5.0.1',
    });
  });
  it('rewrites Poetry constraints keeping inline tables and their precision', () => {
    const files = fixture('poetry');
    const text = files['pyproject.toml'] ?? '';
    const cases: [string, string, string, string][] = [
      ['fastapi', '0.110.0', 'fastapi = "^0.104.1"', 'fastapi = "^0.110.0"'],
      ['sqlalchemy', '2.1.4', 'version = "~2.0.23"', 'version = "~2.1.4"'],
      ['pydantic', '3.1.0', 'pydantic = ">=2.4,<3.0"', 'pydantic = ">=2.4,<4.0"'],
      ['uvicorn', '0.25.0', 'version = "0.24.0"', 'version = "0.25.0"'],
      ['mkdocs-material', '10.1.0', '"^9.4"', '"^10.1"'],
    ];
    for (const [name, target, before, after] of cases) {
      expect(checkedUpdate(pip, files, name, target), name).toMatchObject({ files: { 'pyproject.toml': text.replace(before, after) } });
    }
    expect(pip.updateManifest(files, use(files, 'httpx'), '9.0.0')).toEqual({ unchanged: expect.stringContaining("'*' already allows") });
    expect(pip.updateManifest(files, use(files, 'internal-lib'), '3.0.0')).toEqual({ cannot: expect.stringContaining('git, path or URL') });
    expect(pip.updateManifest(files, use(files, 'numpy'), '2.0.0')).toEqual({ cannot: expect.stringContaining('several constraints') });
  });
  it('rewrites PEP 621 and dependency-group strings inside their quotes', () => {
    const files = fixture('pep621');
    const text = files['pyproject.toml'] ?? '';
    expect(checkedUpdate(pip, files, 'pyproj', '4.0.0')).toMatchObject({
      files: { 'pyproject.toml': text.replace('"pyproj~=3.6"', '"pyproj~=4.0"') },
    });
    expect(checkedUpdate(pip, files, 'rich', '14.1.0')).toMatchObject({
      files: { 'pyproject.toml': text.replace('"rich >=13.0, <14"', '"rich >=13.0, <15"') },
    });
    expect(checkedUpdate(pip, files, 'ruff', '0.2.0')).toMatchObject({
      files: { 'pyproject.toml': text.replace('"ruff==0.1.6"', '"ruff==0.2.0"') },
    });
    expect(checkedUpdate(pip, files, 'attrs', '24.1')).toMatchObject({ unchanged: expect.any(String) });
  });
  it('cannot rewrite a package pinned on several lines of one file that count (per marker)', () => {
    const files = { 'requirements.txt': 'pkg==1.0; sys_platform == "win32"\npkg==2.0; sys_platform != "win32"\n' };
    expect(pip.updateManifest(files, use(files, 'pkg'), '3.0')).toEqual({ cannot: expect.stringContaining('several lines') });
  });
  it('rewrites the one line of per-Python pins whose marker the project’s Python (here the default, 3.13) satisfies', () => {
    const files = { 'requirements.txt': 'pkg==1.0; python_version < "3.8"\npkg==2.0; python_version >= "3.8"\n' };
    expect(checkedUpdate(pip, files, 'pkg', '3.0')).toEqual({
      files: { 'requirements.txt': 'pkg==1.0; python_version < "3.8"\npkg==3.0; python_version >= "3.8"\n' },
      requirement: '==3.0',
    });
  });
  it('keeps the fixture lines it does not touch, including --hash continuations of other packages', () => {
    const files = fixture('pip-requirements');
    const result = checkedUpdate(pip, files, 'djangorestframework', '3.16.0');
    expect(result).toMatchObject({ requirement: '>=3.14,<3.17' });
    expect(pip.updateManifest(files, use(files, 'celery'), '5.4.0')).toEqual({ cannot: expect.stringContaining('--hash') });
    expect(checkedUpdate(pip, files, 'requests', '3.0.0')).toMatchObject({ requirement: '~= 3.0' });
  });
});
