import { ManifestParseError } from '../errors.ts';
import { filesOf, matchesFilePattern } from '../shared/files.ts';
import {
  ancestorsOf,
  BUILD_PROPS,
  BUILD_TARGETS,
  baseName,
  CENTRAL_FILE,
  canonicalName,
  caseVariants,
  DIRECTORY_FILES,
  directoryOf,
  GLOBAL_JSON,
  isImportedFile,
  isProjectFile,
  joinPath,
  LOCKFILE,
  levelsAbove,
  PACKAGES_CONFIG,
  PROJECT_FILES,
  projectKeys,
  SOLUTION_FILES,
  SRC_SOLUTIONS,
  TOOL_MANIFESTS,
  upward,
} from './files.ts';
import { importsOf } from './imports.ts';
import { attributeOf, childrenOf, descendantsOf, readXml } from './xml.ts';

/**
 * How a NuGet directory finds its projects beyond its own project files, after Dependabot's nuget file fetcher
 * (https://github.com/dependabot/dependabot-core/blob/main/nuget/lib/dependabot/nuget/file_fetcher.rb and
 * `file_fetcher/sln_project_paths_finder.rb`, `file_fetcher/import_paths_finder.rb`): the projects a solution there
 * lists (`.sln`, `.slnx`), the projects a traversal project there references (`.proj`), and for each project its own
 * directory's `packages.config`, `packages.lock.json` and `Directory.*` files.
 */

type Files = Readonly<Record<string, string>>;

/** The project files a solution lists (Dependabot took `\.[a-z]{2}proj$`; here the three NuGet project kinds). */
const SOLUTION_PROJECT = /\.(?:cs|fs|vb)proj$/;
/** The project files a traversal project references: the same, and other traversal projects. */
const TRAVERSAL_PROJECT = /\.(?:cs|fs|vb)?proj$/;
/** How many directories a `**` segment of a traversal project's item stands for (0 to this many). */
export const GLOBSTAR_DEPTH = 3;

/**
 * The project paths of a `.sln` text, as written (backslashes turned to `/`), in file order: the third string of each
 * `Project("{type}") = "Name", "src\App\App.csproj", "{guid}"` line, when it names a `.csproj`, `.fsproj` or `.vbproj`
 * (solution folders name themselves and are skipped), as Dependabot's `SlnProjectPathsFinder` read them. Never throws:
 * a line of another shape is skipped.
 */
export function slnProjectPaths(text: string): string[] {
  const out: string[] = [];
  for (const line of text.replace(/^\uFEFF/, '').split(/\r?\n/)) {
    if (!/^\s*Project\(/.test(line)) continue;
    const path = line.split('"')[5]?.trim().replace(/\\/g, '/');
    if (path && SOLUTION_PROJECT.test(path)) out.push(path);
  }
  return out;
}

/**
 * The project paths of a `.slnx` text (the XML solution format: `<Solution>` with `<Project Path="..."/>` elements, at
 * the top or in `<Folder>`s; https://github.com/microsoft/vs-solutionpersistence), in document order, backslashes
 * turned to `/`, only `.csproj`, `.fsproj` and `.vbproj` ones (Dependabot's NuGet discovery reads `.slnx` since
 * https://github.com/dependabot/dependabot-core/pull/11865).
 * @throws ManifestParseError (naming `file`) when it is not well-formed XML or its root is not `<Solution>`
 */
export function slnxProjectPaths(file: string, text: string): string[] {
  const root = readXml(file, text);
  if (root.name !== 'Solution') throw new ManifestParseError(file, `the root element is <${root.name}>, not <Solution>`);
  return descendantsOf(root, 'Project').flatMap((node) => {
    const path = attributeOf(node, 'Path')?.value.trim().replace(/\\/g, '/');
    return path && SOLUTION_PROJECT.test(path) ? [path] : [];
  });
}

/**
 * The projects a traversal project references: the `Include` of each `<ProjectReference>` and `<ProjectFile>` item of
 * its top-level `<ItemGroup>`s (Dependabot's `ImportPathsFinder#project_reference_paths`/`project_file_paths`:
 * `/Project/ItemGroup/ProjectReference`), `;`-separated lists split, backslashes turned to `/`, those naming a
 * `.csproj`, `.fsproj`, `.vbproj` or `.proj`; as written (relative to the file's directory).
 * @throws ManifestParseError (naming `file`) when it is not well-formed XML or its root is not `<Project>`
 */
export function traversalProjectPaths(file: string, text: string): string[] {
  const root = readXml(file, text);
  if (root.name !== 'Project') throw new ManifestParseError(file, `the root element is <${root.name}>, not <Project>`);
  return childrenOf(root, 'ItemGroup').flatMap((group) =>
    group.children
      .filter((item) => ['projectreference', 'projectfile'].includes(item.name.toLowerCase()))
      .flatMap((item) => (attributeOf(item, 'Include')?.value ?? '').split(';'))
      .map((path) => path.trim().replace(/\\/g, '/'))
      .filter((path) => TRAVERSAL_PROJECT.test(path)),
  );
}

/**
 * A path a solution or traversal project in `dir` lists, relative to the config's directory, or the `*` patterns it
 * stands for: undefined for MSBuild properties and item transforms (`$(`, `@(`, `%(`), `?` wildcards, and wildcards
 * above the config's directory (`files.related` patterns reach below it only). A `**` segment stands for 0 to
 * {@link GLOBSTAR_DEPTH} directories (`src/**\/*.csproj` → `src/*.csproj`, `src/*\/*.csproj`, …).
 */
function listedPaths(dir: string, path: string): string[] {
  if (/[$@%]\(|\?/.test(path)) return [];
  const joined = joinPath(dir, path);
  if (joined === '' || joined.endsWith('..')) return [];
  if (!joined.includes('*')) return [joined];
  if (levelsAbove(joined) > 0) return [];
  let expanded = [''];
  for (const segment of joined.split('/')) {
    const next = segment === '**' ? Array.from({ length: GLOBSTAR_DEPTH + 1 }, (_, n) => Array(n).fill('*').join('/')) : [segment];
    expanded = expanded.flatMap((prefix) => next.map((part) => [prefix, part].filter((p) => p !== '').join('/')));
  }
  return expanded.filter((pattern) => !pattern.includes('**'));
}

/**
 * The solutions a directory's projects are found through: its own `*.sln` and `*.slnx` (sorted by path), else the
 * `src/*.sln` ones the files map holds (Dependabot's fallback when the directory holds no solution).
 */
export function solutionKeys(files: Files): string[] {
  const own = SOLUTION_FILES.flatMap((entry) => filesOf(files, entry)).map(([path]) => path);
  const keys = own.length > 0 ? own : filesOf(files, SRC_SOLUTIONS).map(([path]) => path);
  return keys.sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
}

/**
 * The projects the directory's solutions and traversal projects list, relative to the config's directory, in listing
 * order, each once: the entries of each solution ({@link solutionKeys}; `.sln` {@link slnProjectPaths}, `.slnx`
 * {@link slnxProjectPaths}), then those of the traversal projects (`*.proj` of the directory, then each traversal
 * project listed that the files map holds, in turn: {@link traversalProjectPaths}); paths relative to the listing file's
 * directory, `*` patterns below the config's directory (see {@link listedPaths}).
 * @param strict whether a `.slnx` or `.proj` that does not parse throws (reading) or is skipped (`files.related`)
 * @throws ManifestParseError (strict) when a `.slnx` or a traversal project read is not well-formed
 */
export function listedProjects(files: Files, strict: boolean): string[] {
  const out: string[] = [];
  const add = (paths: readonly string[]) => {
    for (const path of paths) if (!out.includes(path)) out.push(path);
  };
  const read = (file: string, list: (file: string, text: string) => string[]): string[] => {
    try {
      return list(file, files[file] ?? '');
    } catch (error) {
      if (strict) throw error;
      return [];
    }
  };
  for (const solution of solutionKeys(files)) {
    const paths = solution.endsWith('.slnx') ? read(solution, slnxProjectPaths) : slnProjectPaths(files[solution] ?? '');
    add(paths.flatMap((path) => listedPaths(directoryOf(solution), path)));
  }
  const traversal = filesOf(files, '*.proj').map(([path]) => path);
  for (let i = 0; i < traversal.length; i++) {
    const file = traversal[i] as string;
    const listed = read(file, traversalProjectPaths).flatMap((path) => listedPaths(directoryOf(file), path));
    add(listed);
    for (const entry of listed) {
      const found = entry.includes('*')
        ? Object.keys(files)
            .filter((key) => matchesFilePattern(entry, key))
            .sort()
        : [entry];
      for (const key of found) if (key.endsWith('.proj') && files[key] !== undefined && !traversal.includes(key)) traversal.push(key);
    }
  }
  return out;
}

/**
 * The project files of the files map in reading order: the config directory's own (`*.csproj`, `*.fsproj`,
 * `*.vbproj`, `*.proj`, each pattern sorted by path), then those {@link listedProjects} names (patterns expanded to
 * the matching files, sorted), then any other project file of the map, by path.
 * @throws ManifestParseError when a `.slnx` or a traversal project is not well-formed
 */
export function projectsInOrder(files: Files): string[] {
  const out = PROJECT_FILES.flatMap((entry) => filesOf(files, entry)).map(([path]) => path);
  const add = (path: string) => {
    if (!out.includes(path)) out.push(path);
  };
  const all = projectKeys(files);
  for (const entry of listedProjects(files, true)) {
    if (entry.includes('*')) for (const path of all.filter((key) => matchesFilePattern(entry, key))) add(path);
    else if (files[entry] !== undefined) add(entry);
  }
  for (const path of all) add(path);
  return out;
}

/** The `Directory.*` names MSBuild looks for in a directory, each in the letter cases asked for ({@link caseVariants}). */
const DIRECTORY_FILE_SPELLINGS = [CENTRAL_FILE, BUILD_PROPS, BUILD_TARGETS].flatMap(caseVariants);

/** Is `path` a `Directory.*` file ({@link CENTRAL_FILE}, {@link DIRECTORY_FILES}) in any letter case? */
const isDirectoryFile = (path: string) => [CENTRAL_FILE, ...DIRECTORY_FILES].includes(canonicalName(baseName(path)));

/**
 * The parent directories' `Directory.Packages.props`, `Directory.Build.props` and `Directory.Build.targets` (`../X` to
 * eight levels up, each in the letter cases {@link caseVariants} names: Dependabot matched them case-insensitively),
 * which MSBuild imports into a project when the directory has none of its own (the nearest one walking up is imported:
 * https://learn.microsoft.com/visualstudio/msbuild/customize-by-directory,
 * https://learn.microsoft.com/nuget/consume-packages/central-package-management), for a directory holding a project
 * file or a `Directory.*` file; none for `packages.config` alone (MSBuild files do not version its packages). They are
 * asked even when the directory has its own file, which may import the one above. The directory's own
 * `Directory.Packages.props` in the other spellings is asked too (`files.required` names the canonical one only; the
 * `Directory.Build.*` spellings are `files.optional` entries).
 */
export function parentDirectoryFiles(files: Files): string[] {
  const paths = Object.keys(files);
  const msbuild = paths.some(
    (path) => !path.includes('/') && (PROJECT_FILES.some((e) => matchesFilePattern(e, path)) || isDirectoryFile(path)),
  );
  if (!msbuild) return [];
  // the directory's own spellings are files.optional entries, but Directory.Packages.props' other ones
  const ownToo = (name: string) => canonicalName(name) === CENTRAL_FILE && name !== CENTRAL_FILE;
  return DIRECTORY_FILE_SPELLINGS.flatMap((name) => upward(name).slice(ownToo(name) ? 0 : 1));
}

/**
 * The `global.json` of each parent directory (`../global.json` to eight levels up: the nearest is in effect, as the .NET
 * SDK looks for it, https://learn.microsoft.com/dotnet/core/tools/global-json#globaljson-search) and the local tool
 * manifests of each (`../.config/dotnet-tools.json`, `../dotnet-tools.json`, …: the dotnet CLI merges them nearest
 * first until one says `"isRoot": true`), for a directory holding a project, solution or `Directory.*` file (not for
 * `packages.config` alone, as {@link parentDirectoryFiles}).
 */
export function parentDirectoryJsonFiles(files: Files): string[] {
  const own = Object.keys(files).filter((path) => !path.includes('/'));
  const dotnet = own.some(
    (path) => [...PROJECT_FILES, ...SOLUTION_FILES].some((e) => matchesFilePattern(e, path)) || isDirectoryFile(path),
  );
  return dotnet ? [GLOBAL_JSON, ...TOOL_MANIFESTS].flatMap((name) => upward(name).slice(1)) : [];
}

/**
 * The files the MSBuild files of the map import (`<Import Project="eng/Versions.props" />`, also through a leading
 * `$(MSBuildThisFileDirectory)`: {@link importsOf}), relative to the config's directory, for the projects, the
 * `Directory.*` files (any letter case) and the imported files already read (so an import's own imports follow in the
 * next round). Lenient: a file that does not parse imports nothing here.
 */
export function importedFiles(files: Files): string[] {
  return Object.keys(files).flatMap((path) => {
    if (!isProjectFile(path) && !isDirectoryFile(path) && !isImportedFile(path)) return [];
    try {
      const root = readXml(path, files[path] ?? '');
      return root.name === 'Project' ? importsOf(path, root) : [];
    } catch (error) {
      if (error instanceof ManifestParseError) return [];
      throw error;
    }
  });
}

/**
 * NuGet's `files.related`: the files the ones read point at, relative to the config's directory.
 * - {@link parentDirectoryFiles} of the directory itself, and {@link parentDirectoryJsonFiles};
 * - the projects its solutions and traversal projects list ({@link listedProjects}: `src/App/App.csproj`,
 *   `../Shared/Shared.csproj`, `tools/*\/*.csproj`);
 * - `src/*.sln` when the directory holds no solution, project or `packages.config` but a `Directory.Packages.props`
 *   (Dependabot's fetcher looked in `src/` for solutions when the directory had none);
 * - for each project read in another directory: its `packages.config` and `packages.lock.json`, and the
 *   `Directory.Packages.props`, `Directory.Build.props` and `Directory.Build.targets` (each in the letter cases
 *   {@link caseVariants} names) of its directory and of each one above it (to eight levels above the config's
 *   directory), as MSBuild looks them up from the project;
 * - the files the MSBuild files read import ({@link importedFiles}).
 * Lenient: a solution, traversal project or imported file that does not parse names nothing (reading it throws).
 */
export function nugetRelatedFiles(files: Files): string[] {
  const out = new Set([...parentDirectoryFiles(files), ...parentDirectoryJsonFiles(files)]);
  const own = Object.keys(files).filter((path) => !path.includes('/'));
  const projectsOrSolutions = [...PROJECT_FILES, ...SOLUTION_FILES, PACKAGES_CONFIG];
  if (
    own.some((path) => canonicalName(path) === CENTRAL_FILE) &&
    !own.some((path) => projectsOrSolutions.some((entry) => matchesFilePattern(entry, path)))
  ) {
    out.add(SRC_SOLUTIONS);
  }
  for (const path of listedProjects(files, false)) out.add(path);
  for (const project of projectKeys(files)) {
    const dir = directoryOf(project);
    if (dir === '') continue;
    out.add(joinPath(dir, PACKAGES_CONFIG));
    out.add(joinPath(dir, LOCKFILE));
    for (const at of [dir, ...ancestorsOf(dir)]) {
      if (at === '') continue;
      for (const name of DIRECTORY_FILE_SPELLINGS) out.add(joinPath(at, name));
    }
  }
  for (const path of importedFiles(files)) out.add(path);
  return [...out];
}
