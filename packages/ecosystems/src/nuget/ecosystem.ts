import type { DependencyUse, Ecosystem, LockfileRequest, LockfileUpdate } from '../ecosystem.ts';
import { requiredFilesOf } from '../required-files.ts';
import { useOfDeclarations } from '../shared/declared-use.ts';
import { groupBy } from '../shared/group.ts';
import { isTable } from '../shared/parse.ts';
import { updateDeclarations } from '../update/declarations.ts';
import {
  BUILD_PROPS,
  BUILD_TARGETS,
  baseName,
  caseVariants,
  directoryOf,
  GLOBAL_JSON,
  LOCKFILE,
  PACKAGES_PROPS,
  PARENT_LEVELS,
  projectDirectoryView,
  projectKeys,
  TOOL_MANIFESTS,
} from './files.ts';
import { moveProjectEntryRanges, type ProjectRequirementMove, updatePackagesLock } from './lockfile.ts';
import {
  lockedVersions,
  lockedVersionsOf,
  lockTargets,
  type NuGetDeclaration,
  projectDirectoryDeclarations,
  readNuGet,
} from './manifests.ts';
import { nugetRelatedFiles } from './solutions.ts';
import { locateNuGet, nugetAllows } from './update.ts';
import { nugetPinnedVersion, nugetVersions, parseNuGetRequirement } from './versions.ts';

/** The requirement a declaration stands for: its version text, null without one or when it cannot be resolved. */
const requirementOf = (d: NuGetDeclaration) => (d.version !== null && 'file' in d.version ? d.version.text.trim() : null);

/**
 * The use of one dependency from its declarations (see {@link useOfDeclarations}), its version the one the
 * `packages.lock.json` of the project directory whose declaration gives the requirement resolves when it locks the
 * package (`locked`: by directory, `''` for the config's own, then by lower-cased id).
 */
function useOf(all: readonly NuGetDeclaration[], locked: ReadonlyMap<string, ReadonlyMap<string, string>>): DependencyUse | undefined {
  const use = useOfDeclarations(all, requirementOf, nugetPinnedVersion);
  if (!use) return undefined;
  const chosen = all.find((d) => requirementOf(d) !== null) ?? all[0];
  const version = locked.get(chosen?.directory ?? '')?.get(use.name.toLowerCase());
  return version !== undefined ? { ...use, version } : use;
}

/**
 * The lock files of the projects read in other directories (`src/App/packages.lock.json`, `../Shared/packages.lock.json`),
 * as `files.lockfiles` patterns one to eight directories deep (the worker updates lock files when one of these matches
 * a file read; they are read through `files.related`).
 */
const PROJECT_LOCKFILE_PATTERNS = Array.from({ length: PARENT_LEVELS }, (_, i) => `${'*/'.repeat(i + 1)}${LOCKFILE}`);

/** Does a `packages.lock.json` text lock `name` (lower-cased) in some target framework, as any type? */
function locks(text: string, name: string): boolean {
  return lockTargets(text).some((target) =>
    Object.entries(target.dependencies).some(([id, entry]) => id.toLowerCase() === name && isTable(entry)),
  );
}

/**
 * Every project directory's `packages.lock.json` of `request.files` updated ({@link updatePackagesLock} on the
 * directory's {@link projectDirectoryView}, with the requirement that directory's projects see: its own central
 * version, `VersionOverride` or version), each under its key; a lock whose projects do not declare the package and
 * that does not lock it is left. Then the `Project` entries of every lock (a referenced project's ranges) move with the
 * referenced project's requirement ({@link moveProjectEntryRanges}). needsResolution (naming the lock file when it is
 * not the directory's own) when one of them cannot be updated faithfully.
 * @throws ManifestParseError when a file read does not parse
 */
async function updateProjectLocks(request: LockfileRequest): Promise<LockfileUpdate> {
  const name = request.use.name.trim().toLowerCase();
  const lockfiles = Object.keys(request.files).filter((path) => baseName(path) === LOCKFILE);
  if (lockfiles.length === 0) return { files: {} };
  const find = (files: Readonly<Record<string, string>>, wanted: string) =>
    useOf(projectDirectoryDeclarations(files, wanted.trim().toLowerCase()).declarations, new Map([['', lockedVersionsOf(files)]]));
  const out: Record<string, string> = {};
  for (const lockfile of lockfiles) {
    const dir = directoryOf(lockfile);
    const before = projectDirectoryView(request.files, dir);
    const after = projectDirectoryView(request.updated, dir);
    const { declared } = projectDirectoryDeclarations(before.files, name);
    if (!declared && !locks(before.files[LOCKFILE] ?? '', name)) continue;
    const use = find(before.files, name) ?? request.use;
    const result = updatePackagesLock({ ...request, files: before.files, updated: after.files, use }, find);
    if ('needsResolution' in result) {
      return { needsResolution: dir === '' ? result.needsResolution : `${lockfile}: ${result.needsResolution}` };
    }
    for (const [path, text] of Object.entries(result.files)) out[before.key(path)] = text;
  }
  // the projects a lock file's project references: their entries give the referenced project's requirement
  const moves = new Map<string, ProjectRequirementMove>();
  for (const project of projectKeys(request.files)) {
    const dir = directoryOf(project);
    const from = find(projectDirectoryView(request.files, dir).files, name)?.requirement ?? null;
    const to = find(projectDirectoryView(request.updated, dir).files, name)?.requirement ?? null;
    const key = baseName(project)
      .replace(/\.[^.]*$/, '')
      .toLowerCase();
    if (from !== null && to !== null && from !== to) moves.set(key, { before: from, after: to });
  }
  if (moves.size === 0) return { files: out };
  for (const lockfile of lockfiles) {
    const text = out[lockfile] ?? request.files[lockfile] ?? '';
    const moved = moveProjectEntryRanges(text, name, moves);
    if ('needsResolution' in moved) return { needsResolution: `${lockfile}: ${moved.needsResolution}` };
    if (moved.text !== text) out[lockfile] = moved.text;
  }
  return { files: out };
}

/**
 * NuGet (after Dependabot's nuget ecosystem, https://github.com/dependabot/dependabot-core/tree/main/nuget): project files
 * (`*.csproj`, `*.fsproj`, `*.vbproj`, `*.proj`: `<PackageReference Include="X" Version="1.2.3" />`, a `<Version>`
 * child, `VersionOverride`, `Update` items), `packages.config`, `Directory.Packages.props` or a solution (`*.sln`,
 * `*.slnx`; one of them is required; a directory holding only `Directory.Packages.props` lists its `<PackageVersion>`
 * entries), `Directory.Build.props`/`.targets` (and the `Directory.*` files in other letter cases: `directory.build.props`),
 * the `msbuild-sdks` of the nearest `global.json`, MSBuild project SDKs pinned in projects (`Sdk="Name/1.0"`, `<Sdk>`,
 * `<Import Sdk Version>`), local tools (`.config/dotnet-tools.json`, `dotnet-tools.json`, merged walking up), the
 * directory's `Packages.props` and `packages.lock.json`. `files.related` ({@link nugetRelatedFiles}) names the parent
 * directories' `Directory.Packages.props`, `Directory.Build.props` and `Directory.Build.targets` (`../X` up to eight
 * levels, each in four spellings), `global.json` and tool manifests, the projects the directory's solutions and
 * traversal projects list (`src/App/App.csproj`, `../Shared/Shared.csproj`), for each of those its own directory's
 * `packages.config`, `packages.lock.json` and `Directory.*` files, and the files MSBuild files import
 * (`eng/Versions.props`), whose properties are evaluated where they are imported. Each project directory is read as
 * MSBuild reads it: the nearest of each `Directory.*` file walking up from it is in effect (see {@link readNuGet}), so a
 * versionless `PackageReference` takes its version from the `Directory.Packages.props` nearest to its project. A
 * version `$(Name)` is the property in effect in MSBuild's evaluation order. Names are compared case-insensitively, as
 * NuGet ids are, and given as first written. Versions and ranges are NuGet's ({@link nugetVersions}); the version in use
 * is the one the `packages.lock.json` of the project whose declaration gives the requirement resolves, else a bare
 * version (NuGet resolves a minimum to itself when it exists) or `[x]`, else null. `PrivateAssets="all"` references,
 * `GlobalPackageReference`s, `developmentDependency` packages, MSBuild SDKs and local tools are `development`.
 * `updateManifest` edits only the attribute value, element text or JSON string of each version (or of the property it
 * names), in whichever file of the map holds it (`src/App/App.csproj`, `../../Directory.Packages.props`,
 * `../../eng/Versions.props`, `../global.json`, `.config/dotnet-tools.json` included); `updateLockfiles` rewrites the package's
 * entries in each project directory's `packages.lock.json` ({@link updateProjectLocks}). `installs`: NuGet's lowest
 * applicable version (https://learn.microsoft.com/nuget/concepts/dependency-resolution#lowest-applicable-version), the
 * highest matching for a floating version (https://learn.microsoft.com/nuget/concepts/dependency-resolution#floating-versions).
 */
export const nuget: Ecosystem = {
  packageManager: 'nuget',
  files: {
    required: requiredFilesOf('nuget'),
    optional: [...[BUILD_PROPS, BUILD_TARGETS].flatMap(caseVariants), GLOBAL_JSON, LOCKFILE, ...TOOL_MANIFESTS, PACKAGES_PROPS],
    lockfiles: [LOCKFILE, ...PROJECT_LOCKFILE_PATTERNS],
    related: nugetRelatedFiles,
  },
  versions: nugetVersions,
  normaliseName: (name) => name.trim().toLowerCase(),
  findDependency(files, name) {
    const wanted = name.trim().toLowerCase();
    return useOf(
      readNuGet(files).filter((d) => d.name.toLowerCase() === wanted),
      lockedVersions(files),
    );
  },
  listDependencies(files) {
    const locked = lockedVersions(files);
    return [...groupBy(readNuGet(files), (d) => d.name.toLowerCase()).values()].flatMap((all) => useOf(all, locked) ?? []);
  },
  installs(requirement, versions) {
    const floating = parseNuGetRequirement(requirement).kind === 'floating';
    const ordered = versions.filter((v) => nugetVersions.isValid(v) && nugetVersions.satisfies(v, requirement));
    ordered.sort((a, b) => nugetVersions.compare(a, b));
    return (floating ? ordered.at(-1) : ordered[0]) ?? null;
  },
  updateManifest(files, use, targetVersion) {
    return updateDeclarations(
      {
        schemeName: 'NuGet',
        scheme: nugetVersions,
        find: (f, name) => nuget.findDependency(f, name),
        locate: locateNuGet,
        allows: nugetAllows,
      },
      files,
      use,
      targetVersion,
    );
  },
  updateLockfiles: updateProjectLocks,
};
