import { createRequire } from 'node:module';
import { describe, expect, it } from 'vitest';
import { type DependencyUse, filesMatching, ManifestParseError, npmAndYarn, type RegistryVersionDetails } from '../src/index.ts';
import { npmManifests } from '../src/npm/workspace.ts';
import { fixtureTree } from './fixtures.ts';
import { listChecked } from './invariant.ts';
import { checkedUpdate } from './update-check.ts';

const lockfile = createRequire(import.meta.url)('@yarnpkg/lockfile') as typeof import('@yarnpkg/lockfile');

type Files = Record<string, string>;

/** The files of a fixture as the worker reads them: the first round (the ecosystem's entries), then `related` (`*` patterns). */
function asRead(tree: Files): Files {
  const entries = [...npmAndYarn.files.required.flat(), ...npmAndYarn.files.optional];
  const first: Files = Object.fromEntries(Object.entries(tree).filter(([path]) => entries.includes(path)));
  const patterns = npmAndYarn.files.related?.(first) ?? [];
  const matches = (pattern: string, path: string) =>
    new RegExp(
      `^${pattern
        .split('*')
        .map((p) => p.replace(/[.+?^${}()|[\]\\]/g, '\\$&'))
        .join('[^/]*')}$`,
    ).test(path);
  const second = Object.entries(tree).filter(([path]) => !(path in first) && patterns.some((p) => matches(p, path)));
  return { ...first, ...Object.fromEntries(second) };
}

const related = (files: Files) => npmAndYarn.files.related?.(files);
const root = (value: unknown) => ({ 'package.json': JSON.stringify(value) });
const rows = (list: readonly DependencyUse[]) => list.map((u) => [u.name, u.type, u.requirement, u.version, u.manifest]);

describe('npm_and_yarn files.related: workspace members', () => {
  it('follows an npm `workspaces` array: one `*` per glob segment, plain paths as given, negations name nothing', () => {
    const files = fixtureTree('npm-workspaces');
    expect(related(files)).toEqual(['packages/*/package.json', 'apps/web/package.json']);
  });
  it('follows Yarn’s `{ packages: [...] }` form (nohoist rules are not members); `**` stands for 0 to 3 directories', () => {
    expect(related(fixtureTree('npm-yarn-workspaces'))).toEqual([
      'libs/*/package.json',
      'tools/package.json',
      'tools/*/package.json',
      'tools/*/*/package.json',
      'tools/*/*/*/package.json',
    ]);
  });
  it('follows lerna.json’s `packages`, with each package’s own lockfiles', () => {
    expect(npmAndYarn.files.optional).toContain('lerna.json');
    expect(related(fixtureTree('npm-lerna'))).toEqual([
      'modules/*/package.json',
      'modules/*/npm-shrinkwrap.json',
      'modules/*/package-lock.json',
      'modules/*/yarn.lock',
    ]);
  });
  it('normalises `./` and trailing slashes, turns every glob segment into `*`, drops globs that go up', () => {
    expect(
      related(root({ workspaces: ['./packages/*/', 'plugins/{auth,db}', 'ext/!(legacy)', 'x-?', '../shared', 'sites/docs'] })),
    ).toEqual(['packages/*/package.json', 'plugins/*/package.json', 'ext/*/package.json', '*/package.json', 'sites/docs/package.json']);
  });
  it('names nothing without workspaces, and throws ManifestParseError on a lerna.json that does not parse', () => {
    expect(related(root({ name: 'app', dependencies: { a: '^1.0.0' } }))).toEqual([]);
    expect(related(root({ workspaces: 'packages/*' }))).toEqual([]);
    expect(() => related({ ...root({}), 'lerna.json': '{ "packages": [' })).toThrow(
      expect.objectContaining({ name: 'ManifestParseError', file: 'lerna.json' }),
    );
  });
});

describe('npm_and_yarn members: which package.json files are members', () => {
  const paths = (files: Files) => npmManifests(files).map((m) => m.path);
  const tree = (workspaces: unknown, dirs: string[]) => ({
    ...root({ workspaces }),
    ...Object.fromEntries(dirs.map((d) => [`${d}/package.json`, '{}'])),
  });

  it('matches globs exactly (braces, extglobs, classes), leaves out negated ones and node_modules, sorts by path', () => {
    const dirs = [
      'plugins/auth',
      'plugins/db',
      'plugins/ui',
      'ext/legacy',
      'ext/new',
      'packages/a',
      'packages/private',
      'packages/a/node_modules/x',
    ];
    expect(
      paths(tree(['plugins/{auth,db}', 'ext/!(legacy)', 'packages/[a-z]*', '!packages/private', 'packages/*/node_modules/*'], dirs)),
    ).toEqual(['package.json', 'ext/new/package.json', 'packages/a/package.json', 'plugins/auth/package.json', 'plugins/db/package.json']);
  });
  it('reads a `**` member at any depth it was read at, and the root only without workspaces', () => {
    expect(paths(tree(['tools/**'], ['tools/a', 'tools/a/b', 'other/c']))).toEqual([
      'package.json',
      'tools/a/package.json',
      'tools/a/b/package.json',
    ]);
    expect(paths({ ...root({}), 'packages/a/package.json': '{}' })).toEqual(['package.json']);
  });
});

describe('npm_and_yarn workspaces: dependencies of the root and its members', () => {
  it('npm workspaces with package-lock v3: members in path order, member-local lock entries first, members themselves left out', () => {
    const files = asRead(fixtureTree('npm-workspaces'));
    expect(Object.keys(files).sort()).toEqual([
      'apps/web/package.json',
      'package-lock.json',
      'package.json',
      'packages/core/package.json',
      'packages/private/package.json',
      'packages/utils/package.json',
    ]);
    expect(rows(listChecked(npmAndYarn, files))).toEqual([
      ['prettier', 'development', '^3.1.0', '3.1.0', 'package.json'],
      // a peer dependency of packages/utils makes it runtime; the root's declaration gives the requirement
      ['typescript', 'runtime', '^5.3.2', '5.3.2', 'package.json'],
      ['react', 'runtime', '^18.2.0', '18.2.0', 'apps/web/package.json'],
      ['vite', 'development', '^5.0.4', '5.0.4', 'apps/web/package.json'],
      ['date-fns', 'runtime', '^2.30.0', '2.30.0', 'packages/core/package.json'],
      ['zod', 'runtime', '~3.22.4', '3.22.4', 'packages/core/package.json'],
      // packages/utils/node_modules/semver (6.3.1), not the hoisted 7.5.4
      ['semver', 'runtime', '^6.3.0', '6.3.1', 'packages/utils/package.json'],
    ]);
    expect(npmAndYarn.findDependency(files, '@orbit/core')).toBeUndefined();
    expect(npmAndYarn.findDependency(files, 'left-pad')).toBeUndefined();
  });
  it('without the members (a first read only) only the root’s dependencies are there', () => {
    const files = fixtureTree('npm-workspaces');
    expect(rows(npmAndYarn.listDependencies({ 'package.json': files['package.json'] ?? '' }))).toEqual([
      ['prettier', 'development', '^3.1.0', null, 'package.json'],
      ['typescript', 'development', '^5.3.2', null, 'package.json'],
    ]);
  });
  it('Yarn 1 workspaces: one yarn.lock for all; `workspace:` and member names are not registry dependencies', () => {
    const files = asRead(fixtureTree('npm-yarn-workspaces'));
    expect(rows(listChecked(npmAndYarn, files))).toEqual([
      ['jest', 'development', '^29.7.0', '29.7.0', 'package.json'],
      ['commander', 'runtime', '^11.1.0', '11.1.0', 'libs/cli/package.json'],
      ['debug', 'runtime', '~4.3.4', '4.3.4', 'libs/cli/package.json'],
      ['chalk', 'runtime', '^4.1.0', '4.1.2', 'libs/parser/package.json'],
      ['benchmark', 'development', '^2.1.4', '2.1.4', 'tools/bench/package.json'],
    ]);
    expect(npmAndYarn.findDependency(files, 'quill-parser')).toBeUndefined();
  });
  it('Lerna: a package’s own lockfile first, then the root’s', () => {
    const files = asRead(fixtureTree('npm-lerna'));
    expect(files['modules/api/package-lock.json']).toBeDefined();
    // a caller that updates lockfiles when one is read (release-svc matches `files.lockfiles`) finds the package's own
    expect(filesMatching(npmAndYarn.files.lockfiles, Object.keys(files)).sort()).toEqual([
      'modules/api/package-lock.json',
      'package-lock.json',
    ]);
    expect(rows(listChecked(npmAndYarn, files))).toEqual([
      ['lerna', 'development', '^8.0.0', '8.0.1', 'package.json'],
      ['express', 'runtime', '^4.18.2', '4.18.2', 'modules/api/package.json'],
      ['classnames', 'runtime', '^2.3.2', '2.3.2', 'modules/ui/package.json'],
    ]);
  });
  it('names the member file when it does not parse', () => {
    const files = { ...asRead(fixtureTree('npm-workspaces')), 'packages/core/package.json': '{ "dependencies": ' };
    const call = () => npmAndYarn.listDependencies(files);
    expect(call).toThrow(ManifestParseError);
    expect(call).toThrow(expect.objectContaining({ file: 'packages/core/package.json' }));
  });
});

describe('npm_and_yarn workspaces: updateManifest rewrites every declaration, root and members', () => {
  it('a member’s requirement moves; another member’s that allows the target stays', () => {
    const files = asRead(fixtureTree('npm-workspaces'));
    const result = checkedUpdate(npmAndYarn, files, 'zod', '3.23.0');
    expect(result).toEqual({
      files: { 'packages/core/package.json': files['packages/core/package.json']?.replace('"~3.22.4"', '"~3.23.0"') },
      requirement: '~3.23.0',
    });
  });
  it('the root and every member that excludes the target move, each in its own file', () => {
    const files = asRead(fixtureTree('npm-workspaces'));
    const result = checkedUpdate(npmAndYarn, files, 'typescript', '6.0.1');
    if (!('files' in result)) throw new Error(JSON.stringify(result));
    expect(Object.keys(result.files).sort()).toEqual(['package.json', 'packages/core/package.json']);
    expect(result.files['packages/core/package.json']).toContain('"typescript": "~6.0.1"');
    expect(result.requirement).toBe('^6.0.1');
    // the peer range `>=4.9` allows 6.0.1 and stays
    expect(result.files['packages/utils/package.json']).toBeUndefined();
  });
  it('a dependency on a member cannot be updated: it is not a registry dependency', () => {
    const files = asRead(fixtureTree('npm-workspaces'));
    const use: DependencyUse = { name: '@orbit/utils', type: 'runtime', requirement: '^1.0.0', version: null, manifest: 'package.json' };
    expect(npmAndYarn.updateManifest(files, use, '2.0.0')).toHaveProperty('cannot');
  });
  it('Yarn resolutions: one pinning the version in use follows it, even when the requirement already allows the target', () => {
    const files = asRead(fixtureTree('npm-yarn-workspaces'));
    const result = checkedUpdate(npmAndYarn, files, 'chalk', '4.1.3');
    expect(result).toEqual({
      files: { 'package.json': files['package.json']?.replace('"chalk": "4.1.2"', '"chalk": "4.1.3"') },
      requirement: '^4.1.0',
    });
  });
  it('npm overrides written as the dependency’s spec follow it; other overrides and resolutions stay', () => {
    const text = `${JSON.stringify(
      {
        dependencies: { lodash: '^4.17.20', rimraf: '^3.0.2' },
        overrides: { lodash: '^4.17.20', 'rimraf@^3': '3.0.2', glob: '7.2.3' },
        resolutions: { 'build/**/rimraf': '2.7.1' },
      },
      null,
      2,
    )}\n`;
    const lodash = checkedUpdate(npmAndYarn, { 'package.json': text }, 'lodash', '5.0.0');
    expect(lodash).toEqual({ files: { 'package.json': text.replaceAll('"^4.17.20"', '"^5.0.0"') }, requirement: '^5.0.0' });
    const rimraf = checkedUpdate(npmAndYarn, { 'package.json': text }, 'rimraf', '4.1.0');
    expect(rimraf).toEqual({
      files: { 'package.json': text.replace('"^3.0.2"', '"^4.1.0"').replace('"3.0.2"', '"4.1.0"') },
      requirement: '^4.1.0',
    });
  });
});

/** A version as the registry would describe it, offline: a tarball on the public registry, made-up digests. */
function synthetic(name: string, version: string, dependencies: RegistryVersionDetails['dependencies'] = []): RegistryVersionDetails {
  const basename = name.split('/').pop();
  return {
    name,
    version,
    dependencies,
    artifacts: [
      {
        filename: `${basename}-${version}.tgz`,
        url: `https://registry.npmjs.org/${name}/-/${basename}-${version}.tgz`,
        digests: [
          { algorithm: 'sha512', value: `sha512-${'Z'.repeat(86)}==`, encoding: 'sri' },
          { algorithm: 'sha1', value: 'f'.repeat(40), encoding: 'hex' },
        ],
      },
    ],
  };
}

/** The manifest and lockfile update of `name` to `target` (a {@link synthetic} version with `dependencies`). */
async function updated(files: Files, name: string, target: RegistryVersionDetails) {
  const use = npmAndYarn.findDependency(files, name);
  if (!use) throw new Error(`${name} is not used`);
  const manifest = npmAndYarn.updateManifest(files, use, target.version);
  if ('cannot' in manifest) throw new Error(manifest.cannot);
  const after = 'files' in manifest ? { ...files, ...manifest.files } : files;
  const registries = [{ url: 'https://registry.npmjs.org/' }];
  const lock = await npmAndYarn.updateLockfiles?.({ files, updated: after, use, target, registries });
  return { manifest, after, lock };
}

describe('npm_and_yarn workspaces: yarn.lock update (Yarn 1, one lockfile for the root and its members)', () => {
  it('every member’s pattern of the dependency locks the target; the old pattern of a moved requirement goes', async () => {
    const files = asRead(fixtureTree('npm-yarn-workspaces'));
    const { after, lock } = await updated(
      files,
      'debug',
      synthetic('debug', '4.4.0', [{ name: 'ms', requirement: '2.1.2', kind: 'runtime' }]),
    );
    expect(after['libs/cli/package.json']).toContain('"debug": "~4.4.0"');
    if (!lock || !('files' in lock)) throw new Error(JSON.stringify(lock));
    const text = lock.files['yarn.lock'] ?? '';
    const parsed = lockfile.parse(text).object;
    expect(Object.keys(parsed).filter((p) => p.startsWith('debug@'))).toEqual(['debug@^4.3.1', 'debug@~4.4.0']);
    expect(parsed['debug@^4.3.1']?.version).toBe('4.4.0');
    expect(text).toContain('debug@^4.3.1, debug@~4.4.0:\n  version "4.4.0"');
    expect(npmAndYarn.findDependency({ ...after, 'yarn.lock': text }, 'debug')).toMatchObject({ requirement: '~4.4.0', version: '4.4.0' });
  });
  it('a resolution pinning a transitive package decides which locked entry a dependency of the target joins', async () => {
    const files = asRead(fixtureTree('npm-yarn-workspaces'));
    const target = synthetic('commander', '12.0.0', [{ name: 'ansi-regex', requirement: '^6.0.0', kind: 'runtime' }]);
    const { lock } = await updated(files, 'commander', target);
    if (!lock || !('files' in lock)) throw new Error(JSON.stringify(lock));
    const text = lock.files['yarn.lock'] ?? '';
    // `**/ansi-regex: 5.0.1`: Yarn resolves ansi-regex@^6.0.0 to 5.0.1
    expect(text).toContain('ansi-regex@^5.0.1, ansi-regex@^6.0.0:\n  version "5.0.1"');
    // without the resolution nothing locked satisfies ^6.0.0
    const unpinned = { ...files, 'package.json': (files['package.json'] ?? '').replace('"**/ansi-regex": "5.0.1",', '') };
    expect((await updated(unpinned, 'commander', target)).lock).toHaveProperty('needsResolution');
  });
  it('a resolution of the dependency that excludes the target needs resolution rather than breaking it', async () => {
    const files = asRead(fixtureTree('npm-yarn-workspaces'));
    const pinned = { ...files, 'package.json': (files['package.json'] ?? '').replace('"chalk": "4.1.2"', '"chalk": "<4.1.3"') };
    const { manifest, lock } = await updated(pinned, 'chalk', synthetic('chalk', '4.1.3'));
    expect(manifest).toHaveProperty('unchanged');
    expect(lock).toEqual({ needsResolution: expect.stringContaining("resolutions 'chalk'") });
  });
  it('a resolution that followed the dependency lets its pattern move to the target', async () => {
    const files = asRead(fixtureTree('npm-yarn-workspaces'));
    const { lock } = await updated(files, 'chalk', synthetic('chalk', '4.1.3'));
    if (!lock || !('files' in lock)) throw new Error(JSON.stringify(lock));
    expect(lockfile.parse(lock.files['yarn.lock'] ?? '').object['chalk@^4.1.0']?.version).toBe('4.1.3');
  });
});
