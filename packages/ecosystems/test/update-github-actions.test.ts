import { describe, expect, it } from 'vitest';
import type { RegistryVersionDetails } from '../src/index.ts';
import { type DependencyUse, githubActions, InvalidVersionError, type ManifestUpdate } from '../src/index.ts';
import { fixtureTree } from './fixtures.ts';

const files = fixtureTree('github-actions');
const CI = '.github/workflows/ci.yml';
const DEPLOY = '.github/workflows/deploy.yml';
const RELEASE = '.github/workflows/release.yaml';
const ci = files[CI] ?? '';
const deploy = files[DEPLOY] ?? '';
const release = files[RELEASE] ?? '';
const action = files['action.yml'] ?? '';

/** What the GitHub registry adapter's `describeVersion` gives for a tag. */
const described = (name: string, version: string, commit?: string): RegistryVersionDetails => ({
  name,
  version,
  dependencies: null,
  artifacts: [
    {
      filename: `${name.split('/')[1]}-${version}.tar.gz`,
      url: `https://codeload.github.com/${name}/tar.gz/refs/tags/${version}`,
      digests: [],
      ...(commit ? { attributes: { commit } } : {}),
    },
  ],
});

const useOf = (f: Record<string, string>, name: string) => githubActions.findDependency(f, name) as DependencyUse;

/** Updates `name` and checks the result reads back: the changed files parse, and every edited file keeps its line endings. */
function update(f: Record<string, string>, name: string, target: string, details?: RegistryVersionDetails): ManifestUpdate {
  const result = githubActions.updateManifest(f, useOf(f, name), target, details);
  if ('files' in result) {
    const merged = { ...f, ...result.files };
    expect(githubActions.findDependency(merged, name)).toBeDefined();
    for (const [file, text] of Object.entries(result.files)) {
      expect(text.split('\n').length).toBe((f[file] ?? '').split('\n').length);
      expect(text.includes('\r\n')).toBe((f[file] ?? '').includes('\r\n'));
    }
  }
  return result;
}

const SHA = '11bd71901bbe5b1630ceea73d27597364c9af683';

describe('github_actions updateManifest', () => {
  it('moves every tag ref at the version in use to the target tag itself, across files', () => {
    expect(update(files, 'actions/checkout', 'v5.0.0', described('actions/checkout', 'v5.0.0', SHA))).toEqual({
      files: {
        [CI]: ci
          .replace('actions/checkout@v4\n', 'actions/checkout@v5.0.0\n')
          .replace("'actions/checkout@v4'", "'actions/checkout@v5.0.0'"),
        [DEPLOY]: deploy.replace('actions/checkout@v4\r\n', 'actions/checkout@v5.0.0\r\n'),
      },
      requirement: null,
    });
  });
  it('then moves the commit pin, its comment taking the target', () => {
    const first = update(files, 'actions/checkout', 'v5.0.0', described('actions/checkout', 'v5.0.0', SHA));
    const after = { ...files, ...('files' in first ? first.files : {}) };
    expect(useOf(after, 'actions/checkout').version).toBe('v4.1.1');
    expect(update(after, 'actions/checkout', 'v5.0.0', described('actions/checkout', 'v5.0.0', SHA))).toEqual({
      files: { [CI]: (after[CI] ?? '').replace('b4ffde65f46336ab88eb53be808477a3936bae11 # v4.1.1', `${SHA} # v5.0.0`) },
      requirement: null,
    });
  });
  it('keeps quotes and edits the composite action too', () => {
    expect(update(files, 'actions/setup-node', 'v4.0.2')).toEqual({
      files: {
        [CI]: ci
          .replace('actions/setup-node@v3.8.1\n', 'actions/setup-node@v4.0.2\n')
          .replace('"actions/setup-node@v3.8.1"', '"actions/setup-node@v4.0.2"'),
        'action.yml': action.replace('actions/setup-node@v3.8.1', 'actions/setup-node@v4.0.2'),
      },
      requirement: null,
    });
  });
  it('rewrites a commit pin with a tag= comment, keeping the spacing', () => {
    const commit = 'b9fd7d16f6d7d1b5d2bec1a2887e65ceed900238';
    expect(update(files, 'codecov/codecov-action', 'v4.5.0', described('codecov/codecov-action', 'v4.5.0', commit))).toEqual({
      files: { [CI]: ci.replace('eaaf4bedf32dbdc6b720b63067d99c4d77d6047d  # tag=v3.1.4', `${commit}  # tag=v4.5.0`) },
      requirement: null,
    });
  });
  it('rewrites a commit pin of a CRLF file shared through an alias once, keeping CRLF', () => {
    const commit = 'b9cd54a3c349d3f38e8881555d616ced269862dd';
    const result = update(files, 'hashicorp/setup-terraform', 'v3.1.2', described('hashicorp/setup-terraform', 'v3.1.2', commit));
    expect(result).toEqual({
      files: { [DEPLOY]: deploy.replace('633666f66e0061ca3b725c73b2ec20cd13a8fdd1 # v2.0.3\r\n', `${commit} # v3.1.2\r\n`) },
      requirement: null,
    });
  });
  it('rewrites a reusable workflow ref to the target tag and a pin @ comment', () => {
    expect(update(files, 'acme/shared-workflows', 'v2.0.1')).toEqual({
      files: { [RELEASE]: release.replace('publish.yml@v1.2\n', 'publish.yml@v2.0.1\n') },
      requirement: null,
    });
    const commit = 'c95fe1489396fe8a9eb87c0abf8aa5b2ef267fda';
    expect(update(files, 'softprops/action-gh-release', 'v2.0.8', described('softprops/action-gh-release', 'v2.0.8', commit))).toEqual({
      files: { [RELEASE]: release.replace('de2c0eb89ae2a093876385947365aca7b0e5f844 # pin @v0.1.15', `${commit} # pin @v2.0.8`) },
      requirement: null,
    });
  });
  it('rewrites a flow-mapping step and an action in a subdirectory (every path of the repository)', () => {
    expect(update(files, 'actions/upload-artifact', 'v4.3.1')).toEqual({
      files: { [RELEASE]: release.replace('actions/upload-artifact@v3,', 'actions/upload-artifact@v4.3.1,') },
      requirement: null,
    });
    expect(update(files, 'github/codeql-action', 'v3.25.0')).toEqual({
      files: {
        [CI]: ci
          .replace('codeql-action/init@v2', 'codeql-action/init@v3.25.0')
          .replace('codeql-action/analyze@v2', 'codeql-action/analyze@v3.25.0'),
      },
      requirement: null,
    });
  });
  it('is unchanged when the refs already are the target tag', () => {
    expect(update(files, 'actions/checkout', 'v4', described('actions/checkout', 'v4', SHA))).toEqual({
      unchanged: expect.stringContaining('already pins v4'),
    });
    expect(update(files, 'actions/setup-python', 'v5')).toEqual({ unchanged: expect.any(String) });
  });
  it('writes a pre-release target whole, keeping the comment in step', () => {
    const text = `jobs:\n  j:\n    steps:\n      - uses: o/r@v2\n      - uses: o/r@${'a'.repeat(40)} # v2\n`;
    const f = { '.github/workflows/w.yml': text };
    expect(update(f, 'o/r', 'v3.0.0-beta.1', described('o/r', 'v3.0.0-beta.1', 'b'.repeat(40)))).toEqual({
      files: {
        '.github/workflows/w.yml': text
          .replace('o/r@v2', 'o/r@v3.0.0-beta.1')
          .replace(`${'a'.repeat(40)} # v2`, `${'b'.repeat(40)} # v3.0.0-beta.1`),
      },
      requirement: null,
    });
  });
  it('leaves references at other versions and branch refs alone', () => {
    const text = 'jobs:\n  j:\n    steps:\n      - uses: o/r@v1\n      - uses: o/r@v3.1\n      - uses: o/r@main\n      - uses: O/R@1.0.0\n';
    const f = { '.github/workflows/w.yml': text };
    expect(useOf(f, 'o/r').version).toBe('v1');
    expect(update(f, 'o/r', 'v4.0.0')).toEqual({
      files: { '.github/workflows/w.yml': text.replace('o/r@v1\n', 'o/r@v4.0.0\n').replace('O/R@1.0.0', 'O/R@v4.0.0') },
      requirement: null,
    });
  });
  it('cannot move a commit pin without the target commit', () => {
    const use = useOf(files, 'hashicorp/setup-terraform');
    expect(githubActions.updateManifest(files, use, 'v3.1.2')).toEqual({
      cannot: expect.stringContaining('commit of v3.1.2 is not known'),
    });
    expect(githubActions.updateManifest(files, use, 'v3.1.2', described('hashicorp/setup-terraform', 'v3.1.2'))).toEqual({
      cannot: expect.stringContaining('no commit SHA'),
    });
    expect(githubActions.updateManifest(files, use, 'v3.1.2', described('hashicorp/setup-terraform', 'v3.1.1', SHA))).toEqual({
      cannot: expect.stringContaining('described v3.1.1'),
    });
  });
  it('cannot update without a version in use or a reference at it, nor a ref written with escapes', () => {
    const branch = { '.github/workflows/w.yml': 'jobs:\n  j:\n    steps:\n      - uses: o/r@main\n' };
    expect(githubActions.updateManifest(branch, useOf(branch, 'o/r'), 'v2.0.0')).toEqual({ cannot: expect.stringContaining('unknown') });
    expect(githubActions.updateManifest(files, { ...useOf(files, 'actions/checkout'), version: 'v1' }, 'v2.0.0')).toEqual({
      cannot: expect.stringContaining('at v1'),
    });
    expect(githubActions.updateManifest(files, { ...useOf(files, 'actions/checkout'), name: 'actions/cache' }, 'v2.0.0')).toEqual({
      cannot: expect.stringContaining('not used'),
    });
    const escaped = { '.github/workflows/w.yml': 'jobs:\n  j:\n    steps:\n      - uses: "o/r@\\x76\\x31"\n' };
    expect(githubActions.updateManifest(escaped, useOf(escaped, 'o/r'), 'v2.0.0')).toEqual({ cannot: expect.stringContaining('escapes') });
  });
  it('throws on a target that is not a version tag', () => {
    expect(() => githubActions.updateManifest(files, useOf(files, 'actions/checkout'), 'main')).toThrow(InvalidVersionError);
  });
});

describe('github_actions updateManifest pins the chosen tag itself (the demo repo acme/polyglot)', () => {
  // The demo repository's workflow (packages/github-emulator/src/demo-seeds/code-host-ecosystems.json), in short.
  const PIN = 'a57eefa7eaf77c4ddb38fa2c8fe7727c187fa556';
  const workflow = [
    'jobs:',
    '  test:',
    '    runs-on: ubuntu-latest',
    '    steps:',
    '      - uses: acme-oss/checkout@v3',
    '      - name: Set up the acme tool',
    `        uses: acme-oss/setup-tool@${PIN} # v1.2.0`,
    '',
  ].join('\n');
  const demo = { '.github/workflows/ci.yml': workflow };
  /** The commits of setup-tool's tags: the moving major tag v2 is not where v2.0.0 is. */
  const V2_0_0 = 'c0ffee0000000000000000000000000000002000';

  it('moves acme-oss/checkout@v3 to @v4.1.0, the version the pull request names, not the moving tag @v4', () => {
    expect(update(demo, 'acme-oss/checkout', 'v4.1.0')).toEqual({
      files: { '.github/workflows/ci.yml': workflow.replace('acme-oss/checkout@v3\n', 'acme-oss/checkout@v4.1.0\n') },
      requirement: null,
    });
  });
  it("pins setup-tool to the commit of tag v2.0.0 commented '# v2.0.0'", () => {
    expect(update(demo, 'acme-oss/setup-tool', 'v2.0.0', described('acme-oss/setup-tool', 'v2.0.0', V2_0_0))).toEqual({
      files: { '.github/workflows/ci.yml': workflow.replace(`${PIN} # v1.2.0`, `${V2_0_0} # v2.0.0`) },
      requirement: null,
    });
  });
  it('writes the whole target tag into a shorter version comment, so that it names the tag whose commit is pinned', () => {
    const short = { '.github/workflows/ci.yml': workflow.replace(`${PIN} # v1.2.0`, `${PIN} # v1`) };
    expect(update(short, 'acme-oss/setup-tool', 'v2.0.0', described('acme-oss/setup-tool', 'v2.0.0', V2_0_0))).toEqual({
      files: { '.github/workflows/ci.yml': workflow.replace(`${PIN} # v1.2.0`, `${V2_0_0} # v2.0.0`) },
      requirement: null,
    });
  });
});
