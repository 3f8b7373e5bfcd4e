import semver from 'semver';
import type { DependencyUse, Ecosystem, LockfileRequest } from '../ecosystem.ts';
import { requiredFilesOf } from '../required-files.ts';
import { lazy } from '../shared/lazy.ts';
import { parseJsonObject } from '../shared/parse.ts';
import { updateDeclarations } from '../update/declarations.ts';
import { type PackageJsonEntry, readPackageJson } from './package-json.ts';
import { readPackageLock } from './package-lock.ts';
import { updatePackageLock } from './package-lock-update.ts';
import { locateNpm } from './update.ts';
import { npmVersions } from './versions.ts';
import {
  LERNA_JSON,
  LOCKFILES,
  MEMBER_LOCKFILE_PATTERNS,
  memberNames,
  type NpmManifest,
  npmManifests,
  npmRelated,
  ownLockfile,
  ROOT_MANIFEST,
  rootScope,
} from './workspace.ts';
import { readYarnLock } from './yarn-lock.ts';
import { updateYarnLock } from './yarn-lock-update.ts';

/** The locked version of a package.json entry: the version, null without a registry version, undefined when not locked. */
type LockedVersion = (entry: PackageJsonEntry, manifest: NpmManifest) => string | null | undefined;

/** The lookup of one lockfile text, by its name (parsed once). */
function lockLookup(name: string, path: string, text: string): (entry: PackageJsonEntry, directory: string) => string | null | undefined {
  if (name === 'yarn.lock') {
    const lookup = readYarnLock(path, text);
    return (entry) => lookup(entry.key, entry.spec);
  }
  const lookup = readPackageLock(path, text);
  return (entry, directory) => lookup(entry.key, directory);
}

/**
 * The lookup of the version locked for an entry of a manifest, as dependabot-core's npm `LockfileParser` finds it
 * (`potential_lockfiles_for_manifest`): the first lockfile present in the member's own directory (a Lerna package's),
 * then the root's first lockfile present, where a workspace member's entry is looked up under the member first
 * (`packages/a/node_modules/<key>`), then hoisted (`node_modules/<key>`). Each lockfile is parsed on first use, once;
 * the lookup gives undefined when no lockfile locks the entry.
 */
function lockedVersion(files: Readonly<Record<string, string>>): LockedVersion {
  const parsed = new Map<string, ReturnType<typeof lockLookup>>();
  const lookupOf = (name: string, path: string) => {
    const text = files[path];
    if (text === undefined) return undefined;
    let lookup = parsed.get(path);
    if (!lookup) {
      lookup = lockLookup(name, path, text);
      parsed.set(path, lookup);
    }
    return lookup;
  };
  const root = lazy(() => LOCKFILES.find((lock) => files[lock] !== undefined));
  return (entry, manifest) => {
    const own = ownLockfile(files, manifest.directory);
    if (own) {
      const version = lookupOf(own.name, own.path)?.(entry, '');
      if (version !== undefined) return version;
    }
    const lock = root();
    return lock === undefined ? undefined : lookupOf(lock, lock)?.(entry, manifest.directory);
  };
}

/**
 * Specs of packages taken from the project itself, never from a registry: `workspace:`, `link:`, `portal:`, `file:`
 * (https://yarnpkg.com/protocols, https://docs.npmjs.com/cli/v10/configuring-npm/package-json#local-paths) and paths.
 */
const LOCAL_SPEC = /^(?:workspace:|link:|portal:|file:|\.\.?(?:\/|$)|~\/|\/)/;

/** A dependency as the manifests declare it: the first declaration (its manifest too), with the type of all of them. */
interface Declared {
  entry: PackageJsonEntry;
  manifest: NpmManifest;
}

/**
 * The dependencies the root package.json and its members declare (see {@link npmManifests}), one per registry name, in
 * reading order: the root's entries first (as {@link readPackageJson} orders them), then each member's new names in
 * path order. The first declaration supplies the key, spec and requirement, and names the manifest; the type is
 * `runtime` when any declaration is. Dependencies on a member (by its package name) are left out, as
 * dependabot-core's npm file parser left them (`workspace_package_names`).
 * @throws ManifestParseError when a manifest (or lerna.json) does not parse
 */
function declared(files: Readonly<Record<string, string>>): Declared[] {
  const manifests = npmManifests(files);
  const members = memberNames(manifests);
  const out = new Map<string, Declared>();
  for (const manifest of manifests) {
    for (const entry of readPackageJson(manifest.path, manifest.text)) {
      if (members.has(entry.name)) continue;
      const known = out.get(entry.name);
      if (known) {
        if (entry.type === 'runtime' && known.entry.type !== 'runtime') known.entry = { ...known.entry, type: 'runtime' };
        continue;
      }
      out.set(entry.name, { entry, manifest });
    }
  }
  return [...out.values()];
}

/**
 * The use of one declaration, its version from the lockfile else the manifest's exact pin (`4.17.21`, `=4.17.21`);
 * null for a local package (a workspace, `link:`, `portal:`, `file:` or a path), whose lockfile version is a
 * placeholder (Yarn's `0.0.0-use.local`) or the linked package's own version, not a registry release.
 */
function useOf({ entry, manifest }: Declared, locked: LockedVersion): DependencyUse {
  const base = { name: entry.name, type: entry.type, requirement: entry.requirement, manifest: manifest.path };
  if (LOCAL_SPEC.test(entry.spec.trim())) return { ...base, version: null };
  const version = locked(entry, manifest) ?? (entry.requirement === null ? null : semver.valid(entry.requirement.trim()));
  return { ...base, version };
}

/**
 * Whether package.json declares a package to publish, as dependabot-core's npm `LibraryDetector`
 * (`package_json_may_be_for_library?`) reads it: a `name` that is not a template (`{{name}}`), a `version`, and no truthy
 * `private` (npm refuses to publish a private package, https://docs.npmjs.com/cli/v10/configuring-npm/package-json#private).
 * Dependabot also asked the registry whether that name is published with the same description; this reads the file only.
 * @throws ManifestParseError when package.json does not parse
 */
function publishesPackage(files: Readonly<Record<string, string>>): boolean {
  const text = files['package.json'];
  if (text === undefined) return false;
  const manifest = parseJsonObject('package.json', text);
  const { name, version } = manifest;
  return (
    typeof name === 'string' &&
    name.trim() !== '' &&
    !/\{\{.*\}\}/.test(name) &&
    typeof version === 'string' &&
    version.trim() !== '' &&
    !manifest.private
  );
}

/**
 * npm and Yarn: package.json plus the first lockfile present of npm-shrinkwrap.json, package-lock.json
 * (lockfileVersion 1, 2, 3) and yarn.lock (Yarn 1; Yarn 2+ entries' versions are read too), and the workspace members
 * the root's `workspaces` and lerna.json's `packages` name (`files.related`, see {@link npmRelated}; members are read
 * in path order after the root, and share its lockfile unless a Lerna package holds its own).
 * The version in use is the lockfile's entry for the declaring manifest (a member's own `packages/a/node_modules/<name>`,
 * else the hoisted one), else the manifest's exact pin (`4.17.21`, `=4.17.21`). pnpm-lock.yaml is not read. Names
 * compare as written (npm names are case-sensitive, new ones lowercase). Dependencies on a member's package name are not
 * registry dependencies: they are not found, as dependabot-core's npm file parser left them out.
 * `listDependencies` leaves out `file:`, `link:`, `portal:`, git, URL, path and `workspace:` specs; `findDependency` gives
 * local ones (`workspace:`, `link:`, `portal:`, `file:`, paths) the version null.
 * `updateManifest` edits the range of every section declaring the package in the root and in each member, and the
 * root's `resolutions`/`overrides` that follow it (see {@link locateNpm}); a library ({@link publishesPackage}) is
 * widened by `auto`.
 * `updateLockfiles` updates each lockfile present: npm-shrinkwrap.json and package-lock.json with npm's own resolver
 * (see {@link updatePackageLock}), yarn.lock (Yarn 1) by rewriting the dependency's entries (see {@link updateYarnLock}),
 * for the root with its workspace members, and for each member holding its own lockfile; the first lockfile that needs
 * resolution makes the whole update need it.
 */
export const npmAndYarn: Ecosystem = {
  packageManager: 'npm_and_yarn',
  files: {
    required: requiredFilesOf('npm_and_yarn'),
    optional: [...LOCKFILES, LERNA_JSON],
    lockfiles: [...LOCKFILES, ...MEMBER_LOCKFILE_PATTERNS],
    related: npmRelated,
  },
  versions: npmVersions,
  normaliseName: (name) => name.trim(),
  findDependency(files, name) {
    const wanted = name.trim();
    const found = declared(files).find((d) => d.entry.name === wanted);
    return found && useOf(found, lockedVersion(files));
  },
  listDependencies(files) {
    const locked = lockedVersion(files);
    return declared(files)
      .filter((d) => d.entry.registry)
      .map((d) => useOf(d, locked));
  },
  isLibrary: publishesPackage,
  updateManifest(files, use, targetVersion, _target, strategy) {
    return updateDeclarations(
      {
        schemeName: 'npm',
        scheme: npmVersions,
        find: (f, name) => npmAndYarn.findDependency(f, name),
        locate: (f, name) => locateNpm(f, name.trim()),
        written: (target) => semver.valid(target) ?? target,
        isLibrary: publishesPackage,
      },
      files,
      use,
      targetVersion,
      strategy,
    );
  },
  async updateLockfiles(request) {
    const files: Record<string, string> = {};
    const declares = (m: NpmManifest) => readPackageJson(m.path, m.text).some((e) => e.name === request.use.name);
    // the root's lockfiles lock the root and its workspace members (unless no manifest of theirs declares the dependency)
    const rootDeclares = rootScope(request.updated).some(declares);
    const scopes: { prefix: string; request: LockfileRequest }[] = rootDeclares ? [{ prefix: '', request }] : [];
    // a member holding its own lockfile (a Lerna package) is updated on its own, as if its directory were the config's
    for (const m of npmManifests(request.updated)) {
      const own = ownLockfile(request.files, m.directory);
      if (own === undefined || !declares(m)) continue;
      const local = (map: Readonly<Record<string, string>>) => {
        const out: Record<string, string> = {};
        for (const name of [ROOT_MANIFEST, ...LOCKFILES]) {
          const text = map[`${m.directory}/${name}`];
          if (text !== undefined) out[name] = text;
        }
        return out;
      };
      scopes.push({ prefix: `${m.directory}/`, request: { ...request, files: local(request.files), updated: local(request.updated) } });
    }
    for (const { prefix, request: scoped } of scopes) {
      for (const lock of LOCKFILES) {
        if (scoped.files[lock] === undefined) continue;
        const result = lock === 'yarn.lock' ? updateYarnLock(scoped) : await updatePackageLock(lock, scoped);
        if ('needsResolution' in result) return { needsResolution: `${prefix}${lock}: ${result.needsResolution}` };
        if ('text' in result) files[`${prefix}${lock}`] = result.text;
      }
    }
    return { files };
  },
};
