import semver from 'semver';
import type { DependencyUse, Ecosystem } from '../ecosystem.ts';
import { requiredFilesOf } from '../required-files.ts';
import { lazy } from '../shared/lazy.ts';
import { parseJsonObject } from '../shared/parse.ts';
import { updateDeclarations } from '../update/declarations.ts';
import { type PackageJsonEntry, readPackageJson } from './package-json.ts';
import { readPackageLock } from './package-lock.ts';
import { updatePackageLock } from './package-lock-update.ts';
import { locateNpm } from './update.ts';
import { npmVersions } from './versions.ts';
import { readYarnLock } from './yarn-lock.ts';
import { updateYarnLock } from './yarn-lock-update.ts';

const LOCKFILES = ['npm-shrinkwrap.json', 'package-lock.json', 'yarn.lock'] as const;

/** The locked version of a package.json entry: the version, null without a registry version, undefined when not locked. */
type LockedVersion = (entry: PackageJsonEntry) => string | null | undefined;

/** The lookup of the first lockfile present (parsed on first use, once), undefined without a lockfile. */
function lockedVersion(files: Readonly<Record<string, string>>): () => LockedVersion | undefined {
  return lazy(() => {
    for (const lock of LOCKFILES) {
      const text = files[lock];
      if (text === undefined) continue;
      if (lock === 'yarn.lock') {
        const lookup = readYarnLock(lock, text);
        return (entry) => lookup(entry.key, entry.spec);
      }
      const lookup = readPackageLock(lock, text);
      return (entry) => lookup(entry.key);
    }
    return undefined;
  });
}

/**
 * Specs of packages taken from the project itself, never from a registry: `workspace:`, `link:`, `portal:`, `file:`
 * (https://yarnpkg.com/protocols, https://docs.npmjs.com/cli/v10/configuring-npm/package-json#local-paths) and paths.
 */
const LOCAL_SPEC = /^(?:workspace:|link:|portal:|file:|\.\.?(?:\/|$)|~\/|\/)/;

/**
 * The use of one package.json entry, its version from the lockfile else the manifest's exact pin (`4.17.21`, `=4.17.21`);
 * null for a local package (a workspace, `link:`, `portal:`, `file:` or a path), whose lockfile version is a
 * placeholder (Yarn's `0.0.0-use.local`) or the linked package's own version, not a registry release.
 */
function useOf(entry: PackageJsonEntry, locked: LockedVersion | undefined): DependencyUse {
  if (LOCAL_SPEC.test(entry.spec.trim())) {
    return { name: entry.name, type: entry.type, requirement: entry.requirement, version: null, manifest: 'package.json' };
  }
  const version = locked?.(entry) ?? (entry.requirement === null ? null : semver.valid(entry.requirement.trim()));
  return { name: entry.name, type: entry.type, requirement: entry.requirement, version, manifest: 'package.json' };
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
 * (lockfileVersion 1, 2, 3) and yarn.lock (Yarn 1; Yarn 2+ entries' versions are read too).
 * The version in use is the lockfile's top-level entry, else the manifest's exact pin (`4.17.21`, `=4.17.21`).
 * pnpm-lock.yaml is not read. Names compare as written (npm names are case-sensitive, new ones lowercase).
 * `listDependencies` leaves out `file:`, `link:`, `portal:`, git, URL, path and `workspace:` specs; `findDependency` gives
 * local ones (`workspace:`, `link:`, `portal:`, `file:`, paths) the version null.
 * `updateManifest` edits the range of every section declaring the package (see {@link locateNpm}); a library
 * ({@link publishesPackage}) is widened by `auto`.
 * `updateLockfiles` updates each lockfile present: npm-shrinkwrap.json and package-lock.json with npm's own resolver
 * (see {@link updatePackageLock}), yarn.lock (Yarn 1) by rewriting the dependency's entry (see {@link updateYarnLock});
 * the first lockfile that needs resolution makes the whole update need it.
 */
export const npmAndYarn: Ecosystem = {
  packageManager: 'npm_and_yarn',
  files: { required: requiredFilesOf('npm_and_yarn'), optional: [...LOCKFILES], lockfiles: [...LOCKFILES] },
  versions: npmVersions,
  normaliseName: (name) => name.trim(),
  findDependency(files, name) {
    const manifestText = files['package.json'];
    if (manifestText === undefined) return undefined;
    const wanted = name.trim();
    const entry = readPackageJson('package.json', manifestText).find((e) => e.name === wanted);
    return entry && useOf(entry, lockedVersion(files)());
  },
  listDependencies(files) {
    const manifestText = files['package.json'];
    if (manifestText === undefined) return [];
    const locked = lockedVersion(files);
    return readPackageJson('package.json', manifestText)
      .filter((entry) => entry.registry)
      .map((entry) => useOf(entry, locked()));
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
    for (const lock of LOCKFILES) {
      if (request.files[lock] === undefined) continue;
      const result = lock === 'yarn.lock' ? updateYarnLock(request) : await updatePackageLock(lock, request);
      if ('needsResolution' in result) return { needsResolution: `${lock}: ${result.needsResolution}` };
      if ('text' in result) files[lock] = result.text;
    }
    return { files };
  },
};
