import type { DependencyUse, Ecosystem } from '../ecosystem.ts';
import { requiredFilesOf } from '../required-files.ts';
import { groupBy } from '../shared/group.ts';
import { lazy } from '../shared/lazy.ts';
import { updateDeclarations } from '../update/declarations.ts';
import { declaresHexPackage, type MixDependency, readMixExs } from './mix-exs.ts';
import { MIX_LOCK, readMixLock, updateMixLock } from './mix-lock.ts';
import { locateHex } from './update.ts';
import { hexVersions } from './versions.ts';

type Files = Readonly<Record<string, string>>;

/** Hex package names are lowercase and compared exactly; surrounding spaces and a leading `:` are dropped. */
export const normaliseHexName = (name: string): string => name.trim().replace(/^:/, '');

/** The declaration that gives the requirement: the first with one, else the first. */
const chosen = (declarations: readonly MixDependency[]) => declarations.find((d) => d.requirement !== null) ?? declarations[0];

/** mix.lock's Hex versions by package name (read on first use, once); undefined without a mix.lock. */
function lockedVersions(files: Files): () => Map<string, string> | undefined {
  return lazy(() => {
    const text = files[MIX_LOCK];
    return text === undefined ? undefined : new Map(readMixLock(MIX_LOCK, text).map((entry) => [entry.name, entry.version]));
  });
}

function useOf(declarations: readonly MixDependency[], locked: () => Map<string, string> | undefined): DependencyUse | undefined {
  const first = chosen(declarations);
  if (!first) return undefined;
  let version = first.source === 'hex' ? (locked()?.get(first.name) ?? null) : null;
  if (version === null && first.requirement !== null) {
    const exact = /^(?:==\s*)?(\d+\.\d+\.\d+\S*)$/.exec(first.requirement)?.[1];
    if (exact && hexVersions.isValid(exact)) version = exact;
  }
  return {
    name: first.name,
    type: declarations.some((d) => d.type === 'runtime') ? 'runtime' : 'development',
    requirement: first.requirement,
    version,
    manifest: 'mix.exs',
  };
}

/** Whether mix.exs gives Hex package metadata (`package:`, see {@link declaresHexPackage}). @throws ManifestParseError */
const isHexPackage = (files: Files): boolean => files['mix.exs'] !== undefined && declaresHexPackage('mix.exs', files['mix.exs']);

/**
 * Hex (Mix): `mix.exs` and `mix.lock`. A dependency is found by its Hex package name (`hex: :name`, else the app
 * atom); `only:` without `:prod` makes it development. The version in use is mix.lock's, else an exact requirement's.
 * `listDependencies` leaves out git, GitHub, path and umbrella dependencies. `updateManifest` rewrites the requirement
 * string or the module attribute it names (see {@link locateHex}); `updateLockfiles` the package's mix.lock entry (see
 * {@link updateMixLock}).
 */
export const hex: Ecosystem = {
  packageManager: 'hex',
  files: { required: requiredFilesOf('hex'), optional: [MIX_LOCK], lockfiles: [MIX_LOCK] },
  versions: hexVersions,
  normaliseName: normaliseHexName,
  findDependency(files, name) {
    const manifest = files['mix.exs'];
    if (manifest === undefined) return undefined;
    const wanted = normaliseHexName(name);
    return useOf(
      readMixExs('mix.exs', manifest).filter((d) => d.name === wanted),
      lockedVersions(files),
    );
  },
  listDependencies(files) {
    const manifest = files['mix.exs'];
    if (manifest === undefined) return [];
    const locked = lockedVersions(files);
    return [...groupBy(readMixExs('mix.exs', manifest), (d) => d.name).values()]
      .filter((declarations) => chosen(declarations)?.source === 'hex')
      .flatMap((declarations) => useOf(declarations, locked) ?? []);
  },
  isLibrary: isHexPackage,
  updateManifest(files, use, targetVersion, _target, strategy) {
    return updateDeclarations(
      {
        schemeName: 'Hex',
        scheme: hexVersions,
        find: (f, name) => hex.findDependency(f, name),
        locate: locateHex,
        isLibrary: isHexPackage,
      },
      files,
      use,
      targetVersion,
      strategy,
    );
  },
  updateLockfiles: async (request) => updateMixLock(request),
};
