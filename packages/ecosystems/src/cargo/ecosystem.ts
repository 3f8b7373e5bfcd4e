import type { DependencyUse, Ecosystem, SkippedDeclaration } from '../ecosystem.ts';
import { requiredFilesOf } from '../required-files.ts';
import { groupBy } from '../shared/group.ts';
import { lazy } from '../shared/lazy.ts';
import { isTable, parseToml } from '../shared/parse.ts';
import { pickLocked } from '../shared/pick-locked.ts';
import { updateDeclarations } from '../update/declarations.ts';
import { tomlStrings } from '../update/toml-spans.ts';
import { readCargoLock } from './cargo-lock.ts';
import { updateCargoLock } from './cargo-lock-update.ts';
import { normaliseCrateName } from './cargo-toml.ts';
import { patchOf } from './patch.ts';
import { locateCargo } from './update.ts';
import { cargoVersions } from './versions.ts';
import { cargoLayout, cargoRelated, LOCKFILE, type ManifestDeclaration, PARENT_LOCKFILES, readCargoManifests } from './workspace.ts';

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

/**
 * The workspace's Cargo.lock versions by normalised crate name (parsed on first use, once): `Cargo.lock`, or the one
 * beside the workspace root above a member directory ({@link cargoLayout}); undefined without it.
 */
function lockedVersions(files: Files): () => Map<string, string[]> | undefined {
  return lazy(() => {
    const file = cargoLayout(files).lockfile;
    const lock = files[file];
    return lock === undefined ? undefined : readCargoLock(file, lock);
  });
}

/** Is a crate's requirement-giving declaration one the root's `[patch]`/`[replace]` takes from elsewhere (see {@link cratePatches})? */
function patched(files: Files, declarations: readonly ManifestDeclaration[]): boolean {
  const patches = cargoLayout(files).patches;
  return patches.length > 0 && declarations.some((d) => d.source === 'registry' && patchOf(patches, d.name, d.registry) !== undefined);
}

/**
 * Whether Cargo.toml is a crate to publish: a `[package]` whose `publish` is not `false` nor `[]`
 * (https://doc.rust-lang.org/cargo/reference/manifest.html#the-publish-field), without the workspace's Cargo.lock
 * (beside it, or beside the workspace root above it): dependabot-core's Cargo update checker calls a manifest without
 * Cargo.lock a library (`library?`), after Cargo's long-standing advice to commit the lockfile of binaries only. A
 * workspace root without `[package]` is not one.
 * @throws ManifestParseError when a manifest read does not parse
 */
function publishesCrate(files: Files): boolean {
  const text = files['Cargo.toml'];
  if (text === undefined || files[cargoLayout(files).lockfile] !== undefined) return false;
  const pkg = parseToml('Cargo.toml', text).package;
  if (!isTable(pkg)) return false;
  return pkg.publish !== false && !(Array.isArray(pkg.publish) && pkg.publish.length === 0);
}

/**
 * The root's `[patch]`/`[replace]` entries that take a crate the directory declares from its registry (see
 * {@link cratePatches}): `listDependencies` leaves those crates out, and this says why, at the entry's line.
 * @throws ManifestParseError when a manifest read does not parse
 */
function patchedDeclarations(files: Files): SkippedDeclaration[] {
  const layout = cargoLayout(files);
  if (layout.patches.length === 0) return [];
  const declarations = readCargoManifests(files).filter((d) => d.source === 'registry');
  const out: SkippedDeclaration[] = [];
  for (const patch of layout.patches) {
    if (!declarations.some((d) => patchOf([patch], d.name, d.registry))) continue;
    const text = files[patch.file] ?? '';
    const at = tomlStrings(text).find((s) => patch.path.every((key, i) => s.path[i] === key))?.start ?? 0;
    const line = text.slice(0, at).split('\n').length;
    out.push({
      file: patch.file,
      line,
      text: (text.split('\n')[line - 1] ?? '').trim(),
      reason: `'${patch.name}' is ${patch.reason} in [${patch.table}]: Cargo builds that, not the registry's versions`,
    });
  }
  return out;
}

/**
 * Cargo: Cargo.toml plus Cargo.lock, and what they point at (`files.related`: {@link cargoRelated}): a workspace's
 * members (read root first, then the members by path, a member's `workspace = true` inheriting from the root's
 * `[workspace.dependencies]`), which share the root's Cargo.lock; for a member directory configured on its own, its
 * workspace root above (`../Cargo.toml` …) and that root's Cargo.lock; and path dependencies' manifests, which are not
 * the directory's dependencies but bind the lockfile (see {@link cargoLayout}). A crate is found by its registry name (so
 * a renamed dependency `web = { package = "actix-web", ... }` is found as `actix-web`); the first declaration gives the
 * requirement, any runtime declaration makes it runtime. The version in use is Cargo.lock's (of several
 * locked versions, the highest matching the requirement), else an exact `=1.2.3` requirement's version.
 * `listDependencies` leaves out crates whose requirement-giving declaration is a `path` or `git` dependency, and crates
 * the root's `[patch]`/`[replace]` takes from a path, a git repository or another registry (as dependabot-core's Cargo
 * file parser left out `patched_dependencies`; `skippedDeclarations` reports those patch entries).
 * `updateManifest` edits every dependency table's requirement in the root and the members, and `[workspace.dependencies]`
 * for inherited ones, also in a root above (see {@link locateCargo}); `updateLockfiles` rewrites the crate's
 * `[[package]]` of the workspace's Cargo.lock (see {@link updateCargoLock}).
 */
export const cargo: Ecosystem = {
  packageManager: 'cargo',
  files: {
    required: requiredFilesOf('cargo'),
    optional: [LOCKFILE],
    lockfiles: [LOCKFILE, ...PARENT_LOCKFILES],
    related: cargoRelated,
  },
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
      .filter((declarations) => chosen(declarations)?.source === 'registry' && !patched(files, declarations))
      .flatMap((declarations) => useOf(declarations, locked) ?? []);
  },
  skippedDeclarations: patchedDeclarations,
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
