import { matchesFilePattern, normaliseRelativePath } from '../shared/files.ts';

/**
 * The file names NuGet reads, and the paths of the files map: a project read through a solution lives in a
 * subdirectory of the config's directory (`src/App/App.csproj`) or beside it (`../Shared/Shared.csproj`), and each
 * project directory is read as its own MSBuild directory ({@link projectDirectoryView}).
 */

type Files = Readonly<Record<string, string>>;

/** NuGet 2's package list (https://learn.microsoft.com/nuget/reference/packages-config). */
export const PACKAGES_CONFIG = 'packages.config';
/** Central package management's versions (https://learn.microsoft.com/nuget/consume-packages/central-package-management). */
export const CENTRAL_FILE = 'Directory.Packages.props';
/** MSBuild's per-directory properties, imported before the project (https://learn.microsoft.com/visualstudio/msbuild/customize-by-directory). */
export const BUILD_PROPS = 'Directory.Build.props';
/** MSBuild's per-directory targets, imported after the project (same page). */
export const BUILD_TARGETS = 'Directory.Build.targets';
/**
 * The central versions file of the Microsoft.Build.CentralPackageVersions SDK (https://github.com/microsoft/MSBuildSdks/tree/main/src/CentralPackageVersions),
 * `<PackageReference Update="X" Version="1.0" />` items its targets import after the project; Dependabot's fetcher read
 * the directory's (`packages_props` of https://github.com/dependabot/dependabot-core/blob/main/nuget/lib/dependabot/nuget/file_fetcher.rb).
 */
export const PACKAGES_PROPS = 'Packages.props';
/** MSBuild files imported by every project of the directory (https://learn.microsoft.com/visualstudio/msbuild/customize-by-directory). */
export const DIRECTORY_FILES = [BUILD_PROPS, BUILD_TARGETS];
/** The .NET SDK and MSBuild project SDK versions (https://learn.microsoft.com/dotnet/core/tools/global-json). */
export const GLOBAL_JSON = 'global.json';
/**
 * The local tool manifests of a directory, in the order the dotnet CLI looks for them in each directory it walks up
 * through (`.config/dotnet-tools.json`, then `dotnet-tools.json`: `EnumerateDefaultAllPossibleManifests` of
 * https://github.com/dotnet/sdk/blob/main/src/Cli/dotnet/ToolManifest/ToolManifestFinder.cs;
 * https://learn.microsoft.com/dotnet/core/tools/local-tools-how-to-use).
 */
export const TOOL_MANIFESTS: readonly string[] = ['.config/dotnet-tools.json', 'dotnet-tools.json'];
/** NuGet's lock file of a project (https://learn.microsoft.com/nuget/consume-packages/package-references-in-project-files#locking-dependencies). */
export const LOCKFILE = 'packages.lock.json';
/**
 * The project files NuGet's PackageReference items are read from, as `*` patterns of one directory
 * (https://learn.microsoft.com/nuget/consume-packages/package-references-in-project-files): C#, F# and Visual Basic
 * projects, and MSBuild's `.proj` (a traversal project, https://github.com/microsoft/MSBuildSdks/tree/main/src/Traversal,
 * which Dependabot's file fetcher read as a project file too).
 */
export const PROJECT_FILES: readonly string[] = ['*.csproj', '*.fsproj', '*.vbproj', '*.proj'];
/** Visual Studio solutions: the text `.sln` and the XML `.slnx` (https://learn.microsoft.com/visualstudio/ide/reference/solution-file). */
export const SOLUTION_FILES: readonly string[] = ['*.sln', '*.slnx'];
/**
 * The solutions Dependabot's file fetcher looked for in `src/` when the directory held none (`sln_file_names` of
 * https://github.com/dependabot/dependabot-core/blob/main/nuget/lib/dependabot/nuget/file_fetcher.rb).
 */
export const SRC_SOLUTIONS = 'src/*.sln';

/**
 * How many parent directories the `Directory.*` lookups name: MSBuild walks up to the root of the drive, but the
 * files map is relative to the config's directory and `related` cannot know how deep it is, so eight levels are asked
 * (the worker drops those above the repository's root). A `Directory.*` file nine or more levels up is not read.
 */
export const PARENT_LEVELS = 8;

/** `name` in the directory and each parent directory, nearest first: `name`, `../name`, …, eight `../` deep. */
export function upward(name: string): string[] {
  return Array.from({ length: PARENT_LEVELS + 1 }, (_, i) => `${'../'.repeat(i)}${name}`);
}

/**
 * The spellings of a `Directory.*` file name asked for, the canonical one first: each word before the extension
 * capitalised or in lower case (`Directory.Build.props`, `Directory.build.props`, `directory.Build.props`,
 * `directory.build.props`). Dependabot's file fetcher matched these names case-insensitively in directory listings
 * (`BUILD_FILE_NAMES = /^Directory\.Build\.(props|targets)$/i`, `casecmp?("Directory.Packages.props")` in
 * https://github.com/dependabot/dependabot-core/blob/main/nuget/lib/dependabot/nuget/file_fetcher.rb); the worker reads
 * paths case-sensitively, so the spellings people write are named (the extension's letter case is taken as written).
 */
export function caseVariants(name: string): string[] {
  const words = name.split('.');
  const extension = words.pop() ?? '';
  let out = [''];
  for (const word of words) {
    const spellings = [...new Set([word.charAt(0).toUpperCase() + word.slice(1), word.toLowerCase()])];
    out = out.flatMap((prefix) => spellings.map((spelling) => `${prefix}${spelling}.`));
  }
  return out.map((prefix) => `${prefix}${extension}`);
}

/** The canonical `Directory.*` names ({@link CENTRAL_FILE}, {@link BUILD_PROPS}, {@link BUILD_TARGETS}) by lower-cased name. */
const DIRECTORY_NAMES = new Map([CENTRAL_FILE, BUILD_PROPS, BUILD_TARGETS].map((name) => [name.toLowerCase(), name]));

/**
 * The canonical name of a `Directory.*` file name in any letter case (`directory.build.props` → `Directory.Build.props`),
 * the name itself for other files: whichever spelling exists is the file.
 */
export const canonicalName = (name: string) => DIRECTORY_NAMES.get(name.toLowerCase()) ?? name;

/** Is `path`'s last segment `name` (a `Directory.*` name) in any letter case? */
export const isNamed = (path: string, name: string) => baseName(path).toLowerCase() === name.toLowerCase();

/** A relative path normalised, leading `..` kept (`shared/files.ts`' `normaliseRelativePath`). */
export const normalisePath = normaliseRelativePath;

/** `path` (relative to the directory `dir`, `''` for the config's directory) relative to the config's directory. */
export const joinPath = (dir: string, path: string) => normalisePath(dir === '' ? path : `${dir}/${path}`);

/** The directory of a files-map path: `src/App` for `src/App/App.csproj`, `''` for `App.csproj`. */
export function directoryOf(path: string): string {
  const at = path.lastIndexOf('/');
  return at < 0 ? '' : path.slice(0, at);
}

/** The last segment of a path. */
export const baseName = (path: string) => path.slice(path.lastIndexOf('/') + 1);

/** How many directories `dir` (normalised) is above the config's directory: 2 for `../../x`, 0 for `src`. */
export const levelsAbove = (dir: string) => (dir === '' ? 0 : dir.split('/').filter((part) => part === '..').length);

/** The parent of a normalised directory: `src` of `src/App`, `''` of `src`, `..` of `''`, `../..` of `..`, `..` of `../x`. */
export function parentOf(dir: string): string {
  if (dir === '') return '..';
  const parts = dir.split('/');
  if (parts.at(-1) === '..') return `${dir}/..`;
  return parts.slice(0, -1).join('/');
}

/**
 * The directories above `dir` whose `Directory.*` files MSBuild may import into its projects, nearest first, while they
 * are at most {@link PARENT_LEVELS} above the config's directory: for `src/App`, `src`, ``, `..`, …, `../../../../../../../..`.
 */
export function ancestorsOf(dir: string): string[] {
  const out: string[] = [];
  for (let at = parentOf(dir); levelsAbove(at) <= PARENT_LEVELS; at = parentOf(at)) out.push(at);
  return out;
}

/** Is `path` (a files-map key) a project file ({@link PROJECT_FILES}, matched on its name)? */
export const isProjectFile = (path: string) => PROJECT_FILES.some((entry) => matchesFilePattern(entry, baseName(path)));

/** The project files of the files map (any directory), sorted by path. */
export const projectKeys = (files: Files) =>
  Object.keys(files)
    .filter(isProjectFile)
    .sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));

/** The files of a directory's own that the view of a project directory holds (its projects, packages.config, lock, `Directory.*`). */
const OWN_FILES = new Set([PACKAGES_CONFIG, LOCKFILE, CENTRAL_FILE, BUILD_PROPS, BUILD_TARGETS]);
/** The files of a parent directory that MSBuild imports into a project below it. */
const PARENT_FILES = new Set([CENTRAL_FILE, BUILD_PROPS, BUILD_TARGETS]);

/**
 * `path` (relative to the config's directory, normalised) relative to the directory `dir` (the same), or undefined when
 * it cannot be written so without the names of the directories above the config's (from `../ext` to `src/x.props`):
 * `relativeTo('src/App', 'eng/Versions.props')` is `../../eng/Versions.props`, `relativeTo('..', '../../x')` is `../x`.
 */
export function relativeTo(dir: string, path: string): string | undefined {
  const from = dir === '' ? [] : dir.split('/');
  const to = path.split('/');
  let common = 0;
  while (common < from.length && common < to.length - 1 && from[common] === to[common]) common++;
  const rest = from.slice(common);
  if (rest.includes('..')) return undefined;
  return [...rest.map(() => '..'), ...to.slice(common)].join('/');
}

/**
 * Is `path` a file that only an `<Import>` brings into the files map (`eng/Versions.props`): not a project, solution,
 * `packages.config`, lock file, `Directory.*` file or JSON file (`global.json`, tool manifests)?
 */
export function isImportedFile(path: string): boolean {
  const name = baseName(path);
  if (isProjectFile(name) || OWN_FILES.has(canonicalName(name)) || /\.(?:slnx?|json)$/i.test(name)) return false;
  return name.toLowerCase() !== PACKAGES_CONFIG;
}

/**
 * The files of project directory `dir` (relative to the config's directory, normalised; `''` is the config's directory
 * itself) keyed as if `dir` were the config's directory, as MSBuild sees them from a project there: its project files,
 * `packages.config`, `packages.lock.json` and `Directory.*` files by name, the `Directory.Packages.props`,
 * `Directory.Build.props` and `Directory.Build.targets` of the directories above it as `../X`, `../../X`, …
 * (`Directory.Packages.props` of the config's directory is `../../Directory.Packages.props` from `src/App`), and the
 * files imports brought in ({@link isImportedFile}) relative to it ({@link relativeTo}). A `Directory.*` file in another
 * letter case (`directory.build.props`) is keyed by the canonical name ({@link canonicalName}; of two spellings in one
 * directory, the first of {@link caseVariants}). Other projects' files, solutions and `global.json` are left out. `key`
 * turns a path of the view back into the files map's.
 */
export function projectDirectoryView(files: Files, dir: string): { files: Record<string, string>; key: (path: string) => string } {
  const above = new Map(ancestorsOf(dir).map((ancestor, i) => [ancestor, i + 1]));
  const view: Record<string, string> = {};
  const rank = new Map<string, number>();
  const keys = new Map<string, string>();
  const put = (at: string, path: string, text: string, spelling: number) => {
    const had = rank.get(at);
    if (had !== undefined && had <= spelling) return;
    view[at] = text;
    rank.set(at, spelling);
    keys.set(at, path);
  };
  for (const [path, text] of Object.entries(files)) {
    const at = directoryOf(path);
    const name = baseName(path);
    const canonical = canonicalName(name);
    const spelling = name === canonical ? 0 : caseVariants(canonical).indexOf(name) + 1 || Number.MAX_SAFE_INTEGER;
    if (at === dir && (OWN_FILES.has(canonical) || isProjectFile(name))) put(canonical, path, text, spelling);
    const levels = above.get(at);
    if (levels !== undefined && PARENT_FILES.has(canonical)) put(`${'../'.repeat(levels)}${canonical}`, path, text, spelling);
    if (isImportedFile(path)) {
      const relative = relativeTo(dir, path);
      if (relative !== undefined) put(relative, path, text, 0);
    }
  }
  return { files: view, key: (path) => keys.get(path) ?? joinPath(dir, path) };
}
