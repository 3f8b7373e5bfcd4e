import type { RepoTree } from '@switchyard/code-host';
import { parseConfigFile } from '@switchyard/repo-config';
import { describe, expect, it } from 'vitest';
import { fileUpdateConfigs } from '../src/config-files/config-file.mapper.ts';
import { expandDirectoryGlobs, MAX_EXPANDED_DIRECTORIES } from '../src/config-files/config-file-directories.policy.ts';

const FILE = `version: 2
updates:
  - package-ecosystem: npm
    directories:
      - "/"
      - "/packages/*"
      - "/packages/web"
    schedule:
      interval: daily
  - package-ecosystem: pip
    directories: ["/tools/**"]
    schedule:
      interval: weekly
`;

const tree = (paths: string[], truncated = false): RepoTree => {
  const directories = new Set<string>();
  for (const path of paths) {
    const parts = path.split('/');
    for (let i = 1; i < parts.length; i++) directories.add(parts.slice(0, i).join('/'));
  }
  return {
    truncated,
    entries: [
      ...[...directories].sort().map((path) => ({ path, type: 'tree' as const, sha: 'd'.repeat(40) })),
      ...paths.map((path) => ({ path, type: 'blob' as const, sha: 'f'.repeat(40), size: 10 })),
    ],
  };
};

// v2 `directories` globs, expanded over the repository's tree as Dependabot expands them.
describe('expandDirectoryGlobs', () => {
  const parsed = parseConfigFile('.github/dependabot.yml', FILE);
  const configs = parsed.configs;

  it('makes a config per matched directory that holds the package manager’s files, each once', () => {
    const repo = tree([
      'package.json',
      'packages/web/package.json',
      'packages/api/package.json',
      'packages/api/package-lock.json',
      'packages/docs/README.md',
      'tools/lint/requirements.txt',
      'tools/lint/deep/pyproject.toml',
      'tools/empty/.keep',
    ]);
    const { configs: expanded, skipped } = expandDirectoryGlobs(configs, repo);
    expect(expanded.map((c) => [c.packageManager, c.directory, c.directoryGlob])).toEqual([
      ['npm_and_yarn', '/', false],
      ['npm_and_yarn', '/packages/api', false],
      ['npm_and_yarn', '/packages/web', false],
      ['pip', '/tools/lint', false],
      ['pip', '/tools/lint/deep', false],
    ]);
    expect(skipped).toEqual([]);
    // Served as configs of their own, nothing skipped for want of expansion.
    expect(fileUpdateConfigs(expanded).skipped).toEqual([]);
  });

  it('says when a glob matches no directory with the files, when the tree was cut short, and when there are too many', () => {
    const none = expandDirectoryGlobs(configs, tree(['package.json']));
    expect(none.skipped.map((s) => s.reason)).toEqual([
      'the directory pattern /packages/* matches no directory holding package.json',
      expect.stringMatching(/^the directory pattern \/tools\/\*\* matches no directory holding requirements\.txt or pyproject\.toml or /),
    ]);
    const many = Array.from({ length: MAX_EXPANDED_DIRECTORIES + 5 }, (_, i) => `packages/p${String(i).padStart(3, '0')}/package.json`);
    const cut = expandDirectoryGlobs(configs, tree(many, true));
    expect(cut.configs.filter((c) => c.directory.startsWith('/packages/p'))).toHaveLength(MAX_EXPANDED_DIRECTORIES);
    expect(cut.skipped.map((s) => s.reason)).toEqual([
      "the repository's tree is too large for the code host to list whole: directory patterns were expanded over part of it",
      `the directory pattern /packages/* matches ${MAX_EXPANDED_DIRECTORIES + 5} directories: the first ${MAX_EXPANDED_DIRECTORIES} are served`,
      expect.stringContaining('the directory pattern /tools/** matches no directory'),
    ]);
  });

  it('leaves the globs to the mapper, which skips them, without a tree', () => {
    const { configs: left } = expandDirectoryGlobs(configs, undefined);
    expect(fileUpdateConfigs(left).skipped.map((s) => s.reason)).toEqual([
      expect.stringContaining('the directory pattern /packages/* is not expanded'),
      expect.stringContaining('the directory pattern /tools/** is not expanded'),
    ]);
  });
});
