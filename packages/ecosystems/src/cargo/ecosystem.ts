import type { DependencyUse, Ecosystem } from '../ecosystem.ts';
import { requiredFilesOf } from '../required-files.ts';
import { groupBy } from '../shared/group.ts';
import { lazy } from '../shared/lazy.ts';
import { isTable, parseToml } from '../shared/parse.ts';
import { pickLocked } from '../shared/pick-locked.ts';
import { updateDeclarations } from '../update/declarations.ts';
import { readCargoLock } from './cargo-lock.ts';
import { updateCargoLock } from './cargo-lock-update.ts';
import { normaliseCrateName } from './cargo-toml.ts';
import { locateCargo } from './update.ts';
import { cargoVersions } from './versions.ts';
import { cargoRelated, type ManifestDeclaration, readCargoManifests } from './workspace.ts';

type Files = Readonly<Record<string, string>>;

/** The declaration that gives a crate's requirement: the first with a requirement, else the first. */
const chosen = (declarations: readonly ManifestDeclaration[]) => declarations.find((d) => d.requirement !== null) ?? declarations[0];

/**
 * The use of a crate from its declarations (in {@link readCargoManifests}' order: the root, then the members); any
 * runtime declaration makes it runtime; `manifest` is the file of the declaration that gives the requirement.
 */
function useOf(declarations: readonly ManifestDeclaration[], locked: () => Map<string, string[]> | undefined): DependencyUse | undefined {
  const first = chosen(declarations);
  if (!first) return undefined;
  const lock = locked();
  let version = lock ? pickLocked(lock.get(normaliseCrateName(first.name)) ?? [], first.requirement, cargoVersions) : null;
  if (version === null && first.requirement !== null) {
    const exact = /^=\s*(\d+\.\d+\.\d+\S*)$/.exec(first.requirement)?.[1];
    if (exact && cargoVersions.isValid(exact)) version = exact;
  }
  return {
    name: first.name,
    type: declarations.some((d) => d.type === 'runtime') ? 'runtime' : 'development',
    requirement: first.requirement,
    version,
    manifest: first.file,
  };
}

/** Cargo.lock's versions by normalised crate name (parsed on first use, once); undefined without a Cargo.lock. */
function lockedVersions(files: Files): () => Map<string, string[]> | undefined {
  return lazy(() => {
    const lock = files['Cargo.lock'];
    return lock === undefined ? undefined : readCargoLock('Cargo.lock', lock);
  });
}

/**
 * Whether Cargo.toml is a crate to publish: a `[package]` whose `publish` is not `false` nor `[]`
 * (https://doc.rust-lang.org/cargo/reference/manifest.html#the-publish-field), without a Cargo.lock beside it:
 * dependabot-core's Cargo update checker calls a manifest without Cargo.lock a library (`library?`), after Cargo's
 * long-standing advice to commit the lockfile of binaries only. A workspace root without `[package]` is not one.
 * @throws ManifestParseError when Cargo.toml does not parse
 */
function publishesCrate(files: Files): boolean {
  const text = files['Cargo.toml'];
  if (text === undefined || files['Cargo.lock'] !== undefined) return false;
  const pkg = parseToml('Cargo.toml', text).package;
  if (!isTable(pkg)) return false;
  return pkg.publish !== false && !(Array.isArray(pkg.publish) && pkg.publish.length === 0);
}

/**
 * Cargo: Cargo.toml plus Cargo.lock, and the manifests of a workspace's members (`files.related`: {@link cargoRelated};
 * read root first, then the members by path, a member's `workspace = true` inheriting from the root's
 * `[workspace.dependencies]`), which share the root's Cargo.lock. A crate is found by its registry name (so a renamed dependency
 * `web = { package = "actix-web", ... }` is found as `actix-web`); the first declaration gives the
 * requirement, any runtime declaration makes it runtime. The version in use is Cargo.lock's (of several
 * locked versions, the highest matching the requirement), else an exact `=1.2.3` requirement's version.
 * `listDependencies` leaves out crates whose requirement-giving declaration is a `path` or `git` dependency.
 * `updateManifest` edits every dependency table's requirement in the root and the members, and `[workspace.dependencies]`
 * for inherited ones (see {@link locateCargo}); `updateLockfiles` rewrites the crate's `[[package]]` of the one Cargo.lock
 * (see {@link updateCargoLock}).
 */
export const cargo: Ecosystem = {
  packageManager: 'cargo',
  files: { required: requiredFilesOf('cargo'), optional: ['Cargo.lock'], lockfiles: ['Cargo.lock'], related: cargoRelated },
  versions: cargoVersions,
  normaliseName: normaliseCrateName,
  findDependency(files, name) {
    const wanted = normaliseCrateName(name);
    return useOf(
      readCargoManifests(files).filter((d) => normaliseCrateName(d.name) === wanted),
      lockedVersions(files),
    );
  },
  listDependencies(files) {
    const locked = lockedVersions(files);
    return [...groupBy(readCargoManifests(files), (d) => normaliseCrateName(d.name)).values()]
      .filter((declarations) => chosen(declarations)?.source === 'registry')
      .flatMap((declarations) => useOf(declarations, locked) ?? []);
  },
  isLibrary: publishesCrate,
  updateManifest(files, use, targetVersion, _target, strategy) {
    return updateDeclarations(
      {
        schemeName: 'Cargo',
        scheme: cargoVersions,
        find: (f, name) => cargo.findDependency(f, name),
        locate: locateCargo,
        isLibrary: publishesCrate,
      },
      files,
      use,
      targetVersion,
      strategy,
    );
  },
  updateLockfiles: async (request) => updateCargoLock(request),
};
