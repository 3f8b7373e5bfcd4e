import type { DependencyUse, Ecosystem } from '../ecosystem.ts';
import { requiredFilesOf } from '../required-files.ts';
import { useOfDeclarations } from '../shared/declared-use.ts';
import { groupBy } from '../shared/group.ts';
import { updateDeclarations } from '../update/declarations.ts';
import { CENTRAL_FILE, DIRECTORY_FILES, GLOBAL_JSON, type NuGetDeclaration, readNuGet } from './manifests.ts';
import { locateNuGet, nugetAllows } from './update.ts';
import { nugetPinnedVersion, nugetVersions, parseNuGetRequirement } from './versions.ts';

/** The requirement a declaration stands for: its version text, null without one or when it cannot be resolved. */
const requirementOf = (d: NuGetDeclaration) => (d.version !== null && 'file' in d.version ? d.version.text.trim() : null);

/** The use of one dependency from its declarations (see {@link useOfDeclarations}). */
const useOf = (all: readonly NuGetDeclaration[]): DependencyUse | undefined => useOfDeclarations(all, requirementOf, nugetPinnedVersion);

/**
 * NuGet (after Dependabot's nuget ecosystem, https://github.com/dependabot/dependabot-core/tree/main/nuget): project files
 * (`*.csproj`, `*.fsproj`, `*.vbproj`: `<PackageReference Include="X" Version="1.2.3" />`, a `<Version>` child,
 * `VersionOverride`, `Update` items) or `packages.config` (one of them is required), `Directory.Build.props`/`.targets`,
 * `Directory.Packages.props` (central package management's `<PackageVersion>`), and `global.json`'s `msbuild-sdks`.
 * A version `$(Name)` is read from the property's `<PropertyGroup>` definition (see {@link locateNuGet}). Names are
 * compared case-insensitively, as NuGet ids are, and given as first written. Versions and ranges are NuGet's
 * ({@link nugetVersions}); the version in use is a bare version (NuGet resolves a minimum to itself when it exists) or
 * `[x]`, else null. `PrivateAssets="all"` references, `GlobalPackageReference`s, `developmentDependency` packages and
 * MSBuild SDKs are `development`. `updateManifest` edits only the attribute value or element text of the version (or of
 * the property it names). `packages.lock.json` is not read or updated. `installs`: NuGet's lowest applicable version
 * (https://learn.microsoft.com/nuget/concepts/dependency-resolution#lowest-applicable-version), the highest matching
 * for a floating version (https://learn.microsoft.com/nuget/concepts/dependency-resolution#floating-versions).
 */
export const nuget: Ecosystem = {
  packageManager: 'nuget',
  files: {
    required: requiredFilesOf('nuget'),
    optional: [...DIRECTORY_FILES, CENTRAL_FILE, GLOBAL_JSON],
    lockfiles: [],
  },
  versions: nugetVersions,
  normaliseName: (name) => name.trim().toLowerCase(),
  findDependency(files, name) {
    const wanted = name.trim().toLowerCase();
    return useOf(readNuGet(files).filter((d) => d.name.toLowerCase() === wanted));
  },
  listDependencies(files) {
    return [...groupBy(readNuGet(files), (d) => d.name.toLowerCase()).values()].flatMap((all) => useOf(all) ?? []);
  },
  installs(requirement, versions) {
    const floating = parseNuGetRequirement(requirement).kind === 'floating';
    const ordered = [...versions].sort((a, b) => nugetVersions.compare(a, b));
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
};
