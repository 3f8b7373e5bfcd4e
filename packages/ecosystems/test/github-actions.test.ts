import { describe, expect, it } from 'vitest';
import { readActionReferences } from '../src/github-actions/workflow.ts';
import {
  ecosystemFor,
  githubActions,
  githubActionsVersions,
  InvalidRequirementError,
  InvalidVersionError,
  ManifestParseError,
  parseActionVersion,
} from '../src/index.ts';
import { fixtureTree, sorted } from './fixtures.ts';
import { listChecked, rows } from './invariant.ts';

const files = fixtureTree('github-actions');
const find = (name: string) => githubActions.findDependency(files, name);

describe('github_actions readActionReferences', () => {
  it('reads steps, reusable workflows and composite steps with their kind, version and comment', () => {
    const ci = readActionReferences('.github/workflows/ci.yml', files['.github/workflows/ci.yml'] ?? '');
    expect(ci.map((r) => [r.where, r.name, r.path, r.ref, r.kind, r.version])).toEqual([
      ['jobs.lint.steps[0]', 'actions/checkout', null, 'v4', 'tag', 'v4'],
      ['jobs.lint.steps[1]', 'actions/setup-node', null, 'v3.8.1', 'tag', 'v3.8.1'],
      ['jobs.test.steps[0]', 'actions/checkout', null, 'b4ffde65f46336ab88eb53be808477a3936bae11', 'commit', 'v4.1.1'],
      ['jobs.test.steps[1]', 'actions/setup-node', null, 'v3.8.1', 'tag', 'v3.8.1'],
      ['jobs.test.steps[4]', 'codecov/codecov-action', null, 'eaaf4bedf32dbdc6b720b63067d99c4d77d6047d', 'commit', 'v3.1.4'],
      ['jobs.analyse.steps[0]', 'actions/checkout', null, 'v4', 'tag', 'v4'],
      ['jobs.analyse.steps[2]', 'github/codeql-action', '/init', 'v2', 'tag', 'v2'],
      ['jobs.analyse.steps[3]', 'github/codeql-action', '/analyze', 'v2', 'tag', 'v2'],
    ]);
    const text = files['.github/workflows/ci.yml'] ?? '';
    for (const reference of ci) {
      expect(text.slice(reference.refSpan?.start, reference.refSpan?.end)).toBe(reference.ref);
      if (reference.comment) expect(text.slice(reference.comment.span.start, reference.comment.span.end)).toBe(reference.version);
    }
    const release = readActionReferences('.github/workflows/release.yaml', files['.github/workflows/release.yaml'] ?? '');
    expect(release.map((r) => [r.where, r.name, r.path, r.kind, r.version])).toEqual([
      ['jobs.publish.uses', 'acme/shared-workflows', '/.github/workflows/publish.yml', 'tag', 'v1.2'],
      ['jobs.notes.steps[0]', 'actions/checkout', null, 'other', null],
      ['jobs.notes.steps[1]', 'softprops/action-gh-release', null, 'commit', 'v0.1.15'],
      ['jobs.notes.steps[2]', 'actions/upload-artifact', null, 'tag', 'v3'],
    ]);
    const action = readActionReferences('action.yml', files['action.yml'] ?? '');
    expect(action.map((r) => [r.where, r.name, r.version])).toEqual([
      ['runs.steps[0]', 'actions/setup-node', 'v3.8.1'],
      ['runs.steps[1]', 'actions/setup-python', 'v5'],
    ]);
  });
  it('reads a CRLF file and follows an aliased step list once', () => {
    const text = files['.github/workflows/deploy.yml'] ?? '';
    expect(text).toContain('\r\n');
    const deploy = readActionReferences('.github/workflows/deploy.yml', text);
    expect(deploy.map((r) => [r.where, r.name, r.version])).toEqual([
      ['jobs.staging.steps[0]', 'actions/checkout', 'v4'],
      ['jobs.staging.steps[1]', 'aws-actions/configure-aws-credentials', 'v4.0.2'],
      ['jobs.staging.steps[2]', 'hashicorp/setup-terraform', 'v2.0.3'],
    ]);
    const comment = deploy[2]?.comment;
    expect(comment && text.slice(comment.span.start, comment.span.end)).toBe('v2.0.3');
  });
  it('reads the version comment forms pinning tools write, and none from other comments', () => {
    const sha = 'a'.repeat(40);
    const versionOf = (comment: string) =>
      readActionReferences('w.yml', `jobs:\n  j:\n    steps:\n      - uses: o/r@${sha}${comment}\n`)[0]?.version ?? null;
    expect(versionOf(' # v4.1.0')).toBe('v4.1.0');
    expect(versionOf('\t#v4')).toBe('v4');
    expect(versionOf(' # tag=v4.1.0')).toBe('v4.1.0');
    expect(versionOf(' # pin @v4.1.0')).toBe('v4.1.0');
    expect(versionOf(' # @v4.1.0')).toBe('v4.1.0');
    expect(versionOf(' # 4.1.0 (latest)')).toBe('4.1.0');
    expect(versionOf(' # ratchet:o/r@v2.3.0')).toBe('v2.3.0');
    expect(versionOf(' # v5.0.0-rc.1')).toBe('v5.0.0-rc.1');
    expect(versionOf('')).toBeNull();
    expect(versionOf(' # 2 jobs use this')).toBeNull();
    expect(versionOf(' # pinned, see docs')).toBeNull();
  });
  it('leaves out local actions, docker images and expressions, and reads refs of every kind', () => {
    const text = [
      'on: push',
      'jobs:',
      '  matrix:',
      '    strategy:',
      '      matrix:',
      '        action: [actions/setup-go@v5, actions/setup-java@v4]',
      '    runs-on: ubuntu-latest',
      '    steps:',
      // biome-ignore lint/suspicious/noTemplateCurlyInString: a workflow expression, as a workflow holds it
      '      - uses: ${{ matrix.action }}',
      '      - uses: ./local',
      '      - uses: docker://alpine:3.19',
      '      - uses: Owner/Repo@release-1',
      '      - uses: owner/repo@a81bbbf',
      '      - uses: owner/repo@1.0.0',
    ].join('\n');
    expect(readActionReferences('w.yml', text).map((r) => [r.name, r.ref, r.kind, r.version])).toEqual([
      ['Owner/Repo', 'release-1', 'other', null],
      ['owner/repo', 'a81bbbf', 'other', null],
      ['owner/repo', '1.0.0', 'tag', '1.0.0'],
    ]);
  });
  it('gives no span for a ref written with escapes', () => {
    const [reference] = readActionReferences('w.yml', 'jobs:\n  j:\n    steps:\n      - uses: "actions/checkout@\\x76\\x34"\n');
    expect(reference).toMatchObject({ ref: 'v4', version: 'v4', refSpan: null });
  });
  it('reads empty files and files without jobs as having no references', () => {
    expect(readActionReferences('w.yml', '')).toEqual([]);
    expect(readActionReferences('w.yml', '# nothing yet\n')).toEqual([]);
    expect(readActionReferences('action.yml', 'name: docker action\nruns:\n  using: docker\n  image: Dockerfile\n')).toEqual([]);
  });
  it.each([
    ['jobs:\n  build: [\n', 'invalid YAML'],
    ['- a\n- b\n', 'top level is not a mapping'],
    ['jobs: [build]\n', "'jobs' is not a mapping"],
    ['jobs:\n  build: 1\n', 'jobs.build is not a mapping'],
    ['jobs:\n  build:\n    steps: {uses: a/b@v1}\n', 'jobs.build.steps is not a sequence'],
    ['jobs:\n  build:\n    steps:\n      - a/b@v1\n', 'jobs.build.steps[0] is not a mapping'],
    ['jobs:\n  build:\n    steps:\n      - uses:\n', 'jobs.build.steps[0] is not a string'],
    ['jobs:\n  a: {}\n  a: {}\n', 'invalid YAML'],
    ['a: 1\n---\nb: 2\n', 'invalid YAML'],
  ])('names the file and the reason when %j does not read', (text, reason) => {
    expect(() => readActionReferences('.github/workflows/bad.yml', text)).toThrow(
      expect.objectContaining({ name: 'ManifestParseError', file: '.github/workflows/bad.yml', reason: expect.stringContaining(reason) }),
    );
  });
});

describe('github_actions findDependency', () => {
  it('gives one dependency per repository with the lowest version in use, without a requirement', () => {
    expect(find('actions/checkout')).toEqual({
      name: 'actions/checkout',
      type: 'runtime',
      requirement: null,
      version: 'v4',
      manifest: '.github/workflows/ci.yml',
    });
    expect(find('actions/setup-node')).toMatchObject({ version: 'v3.8.1', manifest: '.github/workflows/ci.yml' });
    expect(find('hashicorp/setup-terraform')).toMatchObject({ version: 'v2.0.3', manifest: '.github/workflows/deploy.yml' });
    expect(find('acme/shared-workflows')).toMatchObject({ version: 'v1.2', manifest: '.github/workflows/release.yaml' });
    expect(find('actions/setup-python')).toMatchObject({ version: 'v5', manifest: 'action.yml' });
  });
  it('finds a repository by any case, and an action in a subdirectory by its repository', () => {
    expect(find('Actions/Checkout')).toMatchObject({ name: 'actions/checkout' });
    expect(find('github/codeql-action')).toMatchObject({ version: 'v2' });
    expect(find('github/codeql-action/init')).toBeUndefined();
  });
  it('takes the lowest version of several references, and null when none has one', () => {
    const workflow = (...refs: string[]) => ({
      '.github/workflows/a.yml': `jobs:\n  j:\n    steps:\n${refs.map((ref) => `      - uses: o/r@${ref}\n`).join('')}`,
    });
    expect(githubActions.findDependency(workflow('v4.1.0', 'v3', `${'c'.repeat(40)} # v3.5.0`, 'main'), 'o/r')).toMatchObject({
      version: 'v3',
    });
    expect(githubActions.findDependency(workflow('main', 'c'.repeat(40)), 'o/r')).toMatchObject({ version: null, requirement: null });
  });
  it('is undefined when absent or only used locally, and names the file that does not parse', () => {
    expect(find('actions/cache')).toBeUndefined();
    expect(find('hadolint/hadolint')).toBeUndefined();
    expect(githubActions.findDependency({}, 'actions/checkout')).toBeUndefined();
    expect(() => githubActions.findDependency({ ...files, '.github/workflows/z.yml': 'jobs: [' }, 'actions/checkout')).toThrow(
      ManifestParseError,
    );
  });
  it('reads only the files of its entries', () => {
    const only = { 'docker-compose.yml': 'jobs:\n  j:\n    steps:\n      - uses: o/r@v1\n', '.github/dependabot.yml': 'version: 2\n' };
    expect(githubActions.listDependencies(only)).toEqual([]);
    expect(githubActions.findDependency({ '.github/workflows/nested/x.yml': only['docker-compose.yml'] }, 'o/r')).toBeUndefined();
  });
});

describe('github_actions listDependencies', () => {
  it('lists every repository once, workflows (.yml, then .yaml) before the action metadata', () => {
    expect(rows(listChecked(githubActions, files))).toEqual([
      ['actions/checkout', 'runtime', null, 'v4'],
      ['actions/setup-node', 'runtime', null, 'v3.8.1'],
      ['codecov/codecov-action', 'runtime', null, 'v3.1.4'],
      ['github/codeql-action', 'runtime', null, 'v2'],
      ['aws-actions/configure-aws-credentials', 'runtime', null, 'v4.0.2'],
      ['hashicorp/setup-terraform', 'runtime', null, 'v2.0.3'],
      ['acme/shared-workflows', 'runtime', null, 'v1.2'],
      ['softprops/action-gh-release', 'runtime', null, 'v0.1.15'],
      ['actions/upload-artifact', 'runtime', null, 'v3'],
      ['actions/setup-python', 'runtime', null, 'v5'],
    ]);
  });
  it('is registered with its files', () => {
    expect(ecosystemFor('github_actions')).toBe(githubActions);
    expect(githubActions.files).toEqual({
      required: [['.github/workflows/*.yml', '.github/workflows/*.yaml', 'action.yml', 'action.yaml']],
      optional: [],
      lockfiles: [],
    });
    expect(githubActions.normaliseName('Actions/Checkout')).toBe('actions/checkout');
  });
});

describe('github_actions versions', () => {
  const v = githubActionsVersions;
  it('orders tags by their numbers, missing positions 0, a pre-release below its release', () => {
    const ordered = [
      'v1.0.0-alpha',
      'v1.0.0-alpha.1',
      'v1.0.0-beta',
      '1.0.0-rc.1',
      'v1',
      'v1.0.1',
      'v1.2',
      'v1.10.0',
      'v2',
      'v2.0.1',
      'v10',
    ];
    expect(sorted(ordered, v.compare)).toEqual(ordered);
    expect(v.compare('v4', 'v4.0.0')).toBe(0);
    expect(v.compare('v4', '4')).toBe(0);
    expect(v.compare('v1.0.0+build.1', 'v1.0.0+build.2')).toBe(0);
    expect(v.compare('v99999999999999999999', 'v99999999999999999998')).toBe(1);
    expect(v.compare('v1.02', 'v1.2')).toBe(0);
  });
  it('accepts tags of numbers with an optional v, and nothing else', () => {
    for (const valid of ['v4', 'V4', 'v4.1', 'v4.1.0', '1.0.0', 'v1.2.3.4', 'v2.0.0-beta.1', 'v1.0.0+sha.abc'])
      expect(v.isValid(valid)).toBe(true);
    for (const invalid of [
      'main',
      'release-1',
      'releases/v1',
      'v',
      'vv1',
      'v1.',
      'v1..2',
      'latest',
      'a'.repeat(40),
      `v${'1'.repeat(300)}`,
    ]) {
      expect(v.isValid(invalid)).toBe(false);
    }
    expect(() => v.compare('main', 'v1')).toThrow(InvalidVersionError);
  });
  it('parses a tag into its parts, kept as written', () => {
    expect(parseActionVersion('v2.0.0-beta.1+exp.sha.5114f85')).toEqual({
      prefix: 'v',
      release: ['2', '0', '0'],
      prerelease: ['beta', '1'],
      build: 'exp.sha.5114f85',
    });
    expect(parseActionVersion('release-1')).toBeNull();
  });
  it('knows pre-releases, update kinds by position and release triples', () => {
    expect(v.isPrerelease('v2.0.0-rc.1')).toBe(true);
    expect(v.isPrerelease('v2.0.0+build')).toBe(false);
    expect(v.isPrerelease('main')).toBe(false);
    expect(v.updateKind('v2', 'v4')).toBe('major');
    expect(v.updateKind('v4.0', 'v4.1.0')).toBe('minor');
    expect(v.updateKind('v4.1.0', 'v4.1.2')).toBe('patch');
    expect(v.updateKind('v4', 'v4.0.1')).toBe('patch');
    expect(v.release?.('v4.1')).toEqual([4, 1, 0]);
  });
  it('reads a requirement as one tag (actions have no ranges)', () => {
    expect(v.satisfies('v4.0.0', 'v4')).toBe(true);
    expect(v.satisfies('v4.1.0', 'v4')).toBe(false);
    expect(v.lowestAllowed?.('v4.1')).toBe('v4.1');
    expect(v.allowsPrereleases?.('v5.0.0-beta.1')).toBe(true);
    expect(v.allowsPrereleases?.('main')).toBe(false);
    expect(() => v.satisfies('v4', '^4.0.0')).toThrow(InvalidRequirementError);
    expect(() => v.lowestAllowed?.('>= 4')).toThrow(InvalidRequirementError);
  });
});
