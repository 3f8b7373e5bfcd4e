import { describe, expect, it } from 'vitest';
import { filesMatching, ManifestParseError, pip, RELATED_ROUNDS, relatedFiles } from '../src/index.ts';
import { isRequirementsFile, MAX_SCANNED_SIZE } from '../src/pip/files.ts';
import { fixtureTree } from './fixtures.ts';
import { listChecked, rows } from './invariant.ts';

const entries = [...pip.files.required.flat(), ...pip.files.optional];

/**
 * The rounds the worker reads (RELATED_ROUNDS): from the files its entries name among `tree` (a
 * repository's files, by path relative to the config's directory, `../` above it), then what `related` names, round
 * after round; the paths asked in each round are returned with the files read.
 */
function readRounds(tree: Record<string, string>, directory = '/'): { files: Record<string, string>; asked: string[][] } {
  const files = Object.fromEntries(filesMatching(entries, Object.keys(tree)).map((path) => [path, tree[path] ?? '']));
  const asked: string[][] = [];
  for (let round = 0; round < RELATED_ROUNDS; round++) {
    const related = relatedFiles(pip.files, files, directory);
    if (related.length === 0) break;
    asked.push(related);
    for (const path of related) if (tree[path] !== undefined) files[path] = tree[path];
  }
  return { files, asked };
}

describe('pip: the *.txt and *.in files Dependabot scanned', () => {
  const tree = fixtureTree('pip-scan');

  it('reads every requirements file of the directory, of requirements/ and of other subdirectories, leaving prose out', () => {
    const { files } = readRounds(tree);
    expect(Object.keys(files).sort()).toEqual(Object.keys(tree).sort());
    expect(rows(listChecked(pip, files))).toEqual([
      ['gunicorn', 'runtime', '==22.0.0', '22.0.0'],
      ['click', 'runtime', '>=8.1,<9', null],
      ['ruff', 'runtime', '~=0.4', null],
      ['sphinx', 'runtime', '>=7.2', null],
      ['itsdangerous', 'runtime', '~=2.1', null],
      ['flask', 'runtime', '>=3.0,<4', null],
      ['pytest', 'development', '>=8.0', '8.2.0'],
    ]);
    expect(pip.findDependency(files, 'click')).toMatchObject({ manifest: 'base.txt' });
    expect(pip.findDependency(files, 'itsdangerous')).toMatchObject({ manifest: 'requirements/base.txt' });
    expect(pip.findDependency(files, 'sphinx')).toMatchObject({ manifest: 'docs/requirements.txt' });
  });
  it('keeps a constraints file a constraints file, and a pip-compile output of requirements/ a lockfile', () => {
    const files = readRounds(tree).files;
    expect(pip.findDependency(files, 'markupsafe')).toBeUndefined();
    expect(pip.findDependency(files, 'packaging')).toBeUndefined();
    expect(pip.findDependency(files, 'pytest')).toMatchObject({ manifest: 'requirements/test.in', version: '8.2.0' });
  });
  it('does not fail the directory for a .txt or .in that is not a requirements file', () => {
    const withProse = {
      'requirements.txt': 'flask>=3\n',
      'LICENSE.txt': tree['LICENSE.txt'] ?? '',
      'MANIFEST.in': tree['MANIFEST.in'] ?? '',
    };
    expect(pip.listDependencies(withProse).map((use) => use.name)).toEqual(['flask']);
    expect(pip.listDependencies({ 'NOTES.txt': tree['NOTES.txt'] ?? '', 'base.txt': 'click\n' }).map((use) => use.name)).toEqual(['click']);
  });
  it('decides by path and content which files are requirements files', () => {
    const cases: [string, string, boolean][] = [
      ['base.txt', 'click>=8\n', true],
      ['tools.in', '# linters\nruff~=0.4  # fast\n', true],
      ['all.txt', '-r base.txt\n-c pins.txt\n', true],
      ['hashes.txt', 'idna==3.6 \\\n    --hash=sha256:abc\n', true],
      ['LICENSE.txt', tree['LICENSE.txt'] ?? '', false],
      ['MANIFEST.in', tree['MANIFEST.in'] ?? '', false],
      ['empty.txt', '', false],
      ['comments.txt', '# nothing pinned yet\n', false],
      ['docs/index.txt', tree['docs/index.txt'] ?? '', false],
      ['requirements/README.txt', 'Anything: the path says requirements.\n', true],
      ['big.txt', 'click\n'.repeat(MAX_SCANNED_SIZE / 5), false],
    ];
    for (const [file, text, expected] of cases) expect(isRequirementsFile(file, text), file).toBe(expected);
  });
  it('fails on a file that its path names a requirements file but that does not read, as Dependabot did', () => {
    expect(() => pip.listDependencies({ 'requirements/README.txt': 'How to pin: one package a line.\n' })).toThrow(ManifestParseError);
  });
  it('takes a directory holding only requirements/ files, or any *.txt / *.in, as a pip directory', () => {
    expect(filesMatching(pip.files.required.flat(), ['requirements/base.txt'])).toEqual(['requirements/base.txt']);
    expect(filesMatching(pip.files.required.flat(), ['tools.in', 'docs/requirements.txt'])).toEqual(['tools.in']);
    expect(filesMatching(pip.files.optional, ['docs/requirements.txt', 'a/b/requirements.txt'])).toEqual(['docs/requirements.txt']);
  });
});

describe('pip related: the -r / -c includes of every requirements file, included ones too', () => {
  it('follows a chain of includes round after round, each resolved against the including file', () => {
    const tree = {
      'requirements.txt': '-r deps/app/main.txt\nflask>=3\n',
      'deps/app/main.txt': '-r ../base/core.txt\n-c ../../locks/py/pins.txt\ncelery~=5.3\n',
      'deps/base/core.txt': '-r ../../../shared/extra.txt\nredis>=5\n',
      'locks/py/pins.txt': 'redis==5.0.4\nkombu==5.3.7\n',
      '../shared/extra.txt': 'structlog~=24.1  # logs\n',
    };
    const { files, asked } = readRounds(tree, '/service');
    expect(asked).toEqual([['deps/app/main.txt'], ['deps/base/core.txt', 'locks/py/pins.txt'], ['../shared/extra.txt']]);
    expect(Object.keys(files).sort()).toEqual(Object.keys(tree).sort());
    expect(rows(listChecked(pip, files))).toEqual([
      ['flask', 'runtime', '>=3', null],
      ['celery', 'runtime', '~=5.3', null],
      ['redis', 'runtime', '>=5', '5.0.4'],
      ['structlog', 'runtime', '~=24.1', null],
    ]);
    expect(pip.findDependency(files, 'kombu')).toBeUndefined();
  });
  it('follows the includes of an included file whatever its name, and not those of a file that is not a requirements file', () => {
    const files = {
      'requirements.txt': '-r ci/base.pip\n',
      'ci/base.pip': '-r ../extra/more.pip\n-c constraints\nflask\n',
      'NOTES.txt': '-r is how pip includes another file.\nSee ci/base.pip.\n',
    };
    expect(pip.files.related?.(files)).toEqual(['extra/more.pip', 'ci/constraints']);
  });
  it('names the includes of the files the patterns found, in requirements/ and other subdirectories', () => {
    const files = {
      'requirements/dev.txt': '-r base.txt\n-r ../lint/tools.in\n',
      'docs/requirements.txt': '-c ../pins/docs.txt\nsphinx\n',
      'base.txt': '-r shared/common.txt\n',
    };
    expect(pip.files.related?.(files)).toEqual(['shared/common.txt', 'pins/docs.txt', 'requirements/base.txt', 'lint/tools.in']);
  });
});

describe('pip: a pip-compile output named by --output-file', () => {
  const files = {
    'requirements/main.in': 'django>=4.2,<5\n',
    'requirements/lock.txt': [
      '#',
      '# This file is autogenerated by pip-compile with Python 3.12',
      '# by the following command:',
      '#',
      '#    pip-compile --output-file=requirements/lock.txt requirements/main.in',
      '#',
      'asgiref==3.8.1',
      '    # via django',
      'django==4.2.11',
      '    # via -r requirements/main.in',
      'sqlparse==0.5.0',
      '    # via django',
      '',
    ].join('\n'),
  };

  it('is the lockfile of the .in its header names: it gives versions, not dependencies', () => {
    expect(rows(listChecked(pip, files))).toEqual([['django', 'runtime', '>=4.2,<5', '4.2.11']]);
    expect(pip.findDependency(files, 'sqlparse')).toBeUndefined();
  });
  it('is updated as that .in’s lockfile', async () => {
    const use = pip.findDependency(files, 'django');
    if (!use) throw new Error('django is declared');
    const target = { name: 'django', version: '4.2.13', dependencies: [], artifacts: [] };
    const lock = await pip.updateLockfiles?.({ files, updated: files, use, target, registries: [] });
    expect(lock).toEqual({
      files: { 'requirements/lock.txt': files['requirements/lock.txt'].replace('django==4.2.11', 'django==4.2.13') },
    });
  });
  it('is a requirements file when no .in is read, as Dependabot matched outputs only with a .in', () => {
    const alone = { 'requirements/lock.txt': files['requirements/lock.txt'] };
    expect(pip.listDependencies(alone).map((use) => use.name)).toEqual(['asgiref', 'django', 'sqlparse']);
  });
});
