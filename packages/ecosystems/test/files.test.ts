import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  type EcosystemFiles,
  filesMatching,
  MAX_RELATED_PATHS,
  ManifestParseError,
  matchesFilePattern,
  normaliseRelativePath,
  relatedFiles,
  repositoryPath,
} from '../src/index.ts';

/** What a `*` pattern means, spelled as a regular expression: the reference the matcher is checked against. */
const reference = (entry: string, path: string) =>
  new RegExp(
    `^${entry
      .split('*')
      .map((part) => part.replace(/[.+?^${}()|[\]\\]/g, '\\$&'))
      .join('[^/]*')}$`,
  ).test(path);

describe('matchesFilePattern: `*` within one path segment', () => {
  it('matches names, patterns and subdirectory entries as the worker lists them', () => {
    expect(matchesFilePattern('Dockerfile*', 'Dockerfile.prod')).toBe(true);
    expect(matchesFilePattern('*.csproj', 'src/App.csproj')).toBe(false);
    expect(matchesFilePattern('.github/workflows/*.yml', '.github/workflows/ci.yml')).toBe(true);
    expect(matchesFilePattern('crates/*/Cargo.toml', 'crates/grep/Cargo.toml')).toBe(true);
    expect(matchesFilePattern('crates/*/Cargo.toml', 'crates/a/b/Cargo.toml')).toBe(false);
    expect(matchesFilePattern('package.json', 'package.json')).toBe(true);
    expect(matchesFilePattern('a*b*c', 'abc')).toBe(true);
    expect(matchesFilePattern('a*b*c', 'acb')).toBe(false);
  });

  it('answers at once on stars a repository writes to make a regular expression backtrack', () => {
    const name = 'a'.repeat(5_000);
    expect(matchesFilePattern('crates/*a*a*a*a*a*a*a*a*a*a*b/Cargo.toml', `crates/${name}/Cargo.toml`)).toBe(false);
    expect(matchesFilePattern('*a*a*a*a*a*a*a*a*a*a*', name)).toBe(true);
  });

  it('agrees with the regular expression it stands for on generated entries and paths', () => {
    const piece = fc.constantFrom('a', 'b', '.', '*', '/', 'ab');
    fc.assert(
      fc.property(fc.array(piece, { maxLength: 8 }), fc.array(fc.constantFrom('a', 'b', '.', '/'), { maxLength: 10 }), (e, p) => {
        const entry = e.join('');
        const path = p.join('');
        expect(matchesFilePattern(entry, path), `${entry} ~ ${path}`).toBe(reference(entry, path));
      }),
      { numRuns: 2_000 },
    );
  });
});

describe('relatedFiles: what one round of the worker reads', () => {
  const files = (related: (files: Readonly<Record<string, string>>) => string[]): EcosystemFiles => ({
    required: [['requirements.txt']],
    optional: [],
    lockfiles: [],
    related,
  });

  it('drops paths above the repository, duplicates, and other names of a file already read', () => {
    const read = { 'requirements.txt': '-r base.txt', 'base.txt': '' };
    const related = files(() => ['../web/base.txt', 'base.txt', '../shared/x.txt', '../shared/x.txt', '../../../../y.txt']);
    expect(relatedFiles(related, read, '/web')).toEqual(['../shared/x.txt']);
    expect(repositoryPath('/web', '../web/base.txt')).toBe('web/base.txt');
  });

  it(`names at most ${MAX_RELATED_PATHS} paths, however many the files point at`, () => {
    const many = files(() => Array.from({ length: 100_000 }, (_, i) => `f${i}.txt`));
    const out = relatedFiles(many, { 'requirements.txt': '' }, '/');
    expect(out).toHaveLength(MAX_RELATED_PATHS);
    expect(out[0]).toBe('f0.txt');
  });

  it('follows nothing from a file that does not parse, and lets other errors through', () => {
    const broken = files(() => {
      throw new ManifestParseError('Cargo.toml', 'expected ]');
    });
    expect(relatedFiles(broken, { 'Cargo.toml': '[package' }, '/')).toEqual([]);
    const bug = files(() => {
      throw new TypeError('a bug');
    });
    expect(() => relatedFiles(bug, { 'Cargo.toml': '' }, '/')).toThrow(TypeError);
  });

  it('filesMatching keeps the order of the paths listed', () => {
    expect(filesMatching(['*.txt', 'requirements/*.in'], ['b.txt', 'x.py', 'requirements/dev.in', 'a.txt'])).toEqual([
      'b.txt',
      'requirements/dev.in',
      'a.txt',
    ]);
  });
});

describe('normaliseRelativePath: files-map keys, leading .. kept', () => {
  it('drops . and empty segments, collapses x/.., keeps the .. that go above', () => {
    expect(normaliseRelativePath('src/App/../../Directory.Packages.props')).toBe('Directory.Packages.props');
    expect(normaliseRelativePath('a/../../b')).toBe('../b');
    expect(normaliseRelativePath('./a//b/')).toBe('a/b');
    expect(normaliseRelativePath('../../x/./y')).toBe('../../x/y');
    expect(normaliseRelativePath('.')).toBe('');
  });
});
