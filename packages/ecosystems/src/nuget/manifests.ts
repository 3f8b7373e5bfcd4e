import type { DependencyType } from '../ecosystem.ts';
import { ManifestParseError } from '../errors.ts';
import { filesOf } from '../shared/files.ts';
import { isTable, parseJsonObject } from '../shared/parse.ts';
import { jsonStringAt, jsonStrings } from '../update/json-spans.ts';
import {
  BUILD_PROPS,
  BUILD_TARGETS,
  CENTRAL_FILE,
  directoryOf,
  GLOBAL_JSON,
  LOCKFILE,
  PACKAGES_CONFIG,
  PROJECT_FILES,
  projectDirectoryView,
} from './files.ts';
import { projectsInOrder } from './solutions.ts';
import { attributeOf, childrenOf, contentOf, descendantsOf, readXml, type XmlNode } from './xml.ts';

type Files = Readonly<Record<string, string>>;

/** Where a declaration's version is written: the span of the text to edit, with the property it goes through; or why not. */
export type NuGetVersionSite = { file: string; start: number; end: number; text: string; via?: string } | { unresolved: string };

/** One declaration of a NuGet package. */
export interface NuGetDeclaration {
  /** The package id as written (NuGet ids are case-insensitive). */
  name: string;
  type: DependencyType;
  /** The files-map key of the file it is written in (`App.csproj`, `../../Directory.Packages.props`). */
  file: string;
  /** Human-readable place, e.g. `PackageReference, line 12`. */
  where: string;
  /** Null when the declaration has no version (a central package version or an `Update` item gives it). */
  version: NuGetVersionSite | null;
  /**
   * The directory of the project it was read for, relative to the config's directory (`src/App`), whose
   * `packages.lock.json` locks it; absent for the config's directory itself.
   */
  directory?: string;
}

/** The 1-based line of offset `at`. */
const lineAt = (text: string, at: number) => text.slice(0, at).split('\n').length;

/**
 * One read of a directory's NuGet files: each MSBuild file parsed once, the `Directory.*` files in effect (see
 * {@link chainOf}) and MSBuild's evaluation order of properties.
 */
class MsBuildFiles {
  private readonly parsed = new Map<string, XmlNode>();
  /** The `Directory.Build.props`, `Directory.Packages.props` and `Directory.Build.targets` in effect, nearest first. */
  readonly props: string[];
  readonly central: string[];
  readonly targets: string[];

  readonly files: Files;

  constructor(files: Files) {
    this.files = files;
    this.props = this.chainOf(BUILD_PROPS);
    this.central = this.chainOf(CENTRAL_FILE);
    this.targets = this.chainOf(BUILD_TARGETS);
  }

  /**
   * The root `<Project>` of an MSBuild file of the map.
   * @throws ManifestParseError when it is not well-formed or its root is not `<Project>`
   */
  root(file: string): XmlNode {
    let root = this.parsed.get(file);
    if (!root) {
      root = readXml(file, this.files[file] ?? '');
      if (root.name !== 'Project') throw new ManifestParseError(file, `the root element is <${root.name}>, not <Project>`);
      this.parsed.set(file, root);
    }
    return root;
  }

  /**
   * The files named `name` in effect for the directory, nearest first: the nearest of `name`, `../name`, … (any depth)
   * that the map holds (MSBuild imports only the first one found walking up), then the next one above it while the one before
   * imports it (`<Import Project="$([MSBuild]::GetPathOfFileAbove('Directory.Build.props', '$(MSBuildThisFileDirectory)../'))" />`
   * or a relative `../Directory.Build.props`: an `<Import>` whose path names the same file and goes up).
   */
  private chainOf(name: string): string[] {
    const present = Object.keys(this.files)
      .filter(
        (path) => this.files[path] !== undefined && path.endsWith(name) && /^(?:\.\.\/)*$/.test(path.slice(0, path.length - name.length)),
      )
      .sort((a, b) => a.length - b.length);
    const chain: string[] = [];
    for (const path of present) {
      const previous = chain.at(-1);
      if (previous !== undefined && !this.importsAbove(previous, name)) break;
      chain.push(path);
    }
    return chain;
  }

  /** Does `file` import the `name` of a directory above it (conditions not evaluated)? */
  private importsAbove(file: string, name: string): boolean {
    return descendantsOf(this.root(file), 'Import').some((node) => {
      const project = (attributeOf(node, 'Project')?.value ?? '').toLowerCase();
      return project.includes(name.toLowerCase()) && (project.includes('fileabove') || project.includes('..'));
    });
  }

  /**
   * MSBuild's evaluation order of the files a project imports (properties are evaluated first, in this order, the last
   * definition winning; items after): the `Directory.Build.props` in effect (the outermost first: an import of the file
   * above comes first in the nearer one), the `Directory.Packages.props` likewise, the projects given, then
   * the `Directory.Build.targets`.
   */
  evaluationOrder(projects: readonly string[] = []): string[] {
    const outermostFirst = (chain: readonly string[]) => [...chain].reverse();
    return [...outermostFirst(this.props), ...outermostFirst(this.central), ...projects, ...outermostFirst(this.targets)];
  }

  /** The definition of property `name` in effect after evaluating `order` (the last `<PropertyGroup><name>`), with its file. */
  property(order: readonly string[], name: string): { file: string; node: XmlNode } | undefined {
    let found: { file: string; node: XmlNode } | undefined;
    for (const file of order) {
      for (const group of childrenOf(this.root(file), 'PropertyGroup')) {
        for (const node of childrenOf(group, name)) found = { file, node };
      }
    }
    return found;
  }

  /** The text of property `name` in effect after `order`, or undefined when none of the files defines it. */
  propertyText(order: readonly string[], name: string): string | undefined {
    const found = this.property(order, name);
    return found && contentOf(this.files[found.file] ?? '', found.node).text;
  }

  /**
   * The site of a version value written in `file` at `[start, end)`: the value itself, or for a whole `$(Name)` the
   * definition of the property in effect after evaluating `order` (see {@link evaluationOrder}).
   */
  siteOf(order: readonly string[], file: string, text: string, start: number, end: number): NuGetVersionSite {
    if (!text.includes('$(')) {
      if (/[&<]/.test(text)) return { unresolved: `version '${text}' holds an entity reference` };
      return { file, start, end, text };
    }
    const name = /^\s*\$\(\s*([A-Za-z_][\w.-]*)\s*\)\s*$/.exec(text)?.[1];
    if (name === undefined) return { unresolved: `version '${text}' mixes text and MSBuild properties` };
    const found = this.property(order, name);
    if (!found) return { unresolved: `property ${name} is not defined in ${order.join(', ') || file}` };
    const source = this.files[found.file] ?? '';
    const content = contentOf(source, found.node);
    if (found.node.markup || /[<&$]/.test(content.text)) {
      return { unresolved: `property ${name} in ${found.file} is not plain text (markup, an entity or another property)` };
    }
    return { file: found.file, ...content, via: `property ${name}` };
  }
}

/** The version of a `PackageReference`/`PackageVersion` item: its `Version` (or `VersionOverride`) attribute, else a `<Version>` child. */
function itemVersion(msbuild: MsBuildFiles, order: readonly string[], file: string, text: string, item: XmlNode): NuGetVersionSite | null {
  const attribute = attributeOf(item, 'Version') ?? attributeOf(item, 'VersionOverride');
  if (attribute) return msbuild.siteOf(order, file, attribute.value, attribute.start, attribute.end);
  const child = childrenOf(item, 'Version')[0] ?? childrenOf(item, 'VersionOverride')[0];
  if (!child) return null;
  if (child.markup) return { unresolved: `<Version> of ${file} holds markup` };
  const content = contentOf(text, child);
  return msbuild.siteOf(order, file, content.text, content.start, content.end);
}

/** The item kinds read: `PackageReference` (Include or Update), `PackageVersion`, `GlobalPackageReference`. */
type ItemKind = 'PackageReference' | 'PackageVersion' | 'GlobalPackageReference';

/** The items of `kinds` of an MSBuild file, in document order, their properties evaluated in `order`. */
function msbuildDeclarations(
  msbuild: MsBuildFiles,
  file: string,
  order: readonly string[],
  kinds: readonly ItemKind[],
): NuGetDeclaration[] {
  const text = msbuild.files[file] ?? '';
  const root = msbuild.root(file);
  const items = kinds.flatMap((kind) => descendantsOf(root, kind).map((node) => ({ kind, node })));
  items.sort((a, b) => a.node.at - b.node.at);
  return items.flatMap(({ kind, node }): NuGetDeclaration[] => {
    const id = attributeOf(node, 'Include') ?? attributeOf(node, 'Update');
    if (!id || id.value.trim() === '' || id.value.includes('$(') || id.value.includes(';')) return [];
    const assetsElement = childrenOf(node, 'PrivateAssets')[0];
    const privateAssets = attributeOf(node, 'PrivateAssets')?.value ?? (assetsElement ? contentOf(text, assetsElement).text : '');
    const development = privateAssets.trim().toLowerCase() === 'all';
    return [
      {
        name: id.value.trim(),
        type: development || kind === 'GlobalPackageReference' ? 'development' : 'runtime',
        file,
        where: `${kind}, line ${lineAt(text, id.start)}`,
        version: itemVersion(msbuild, order, file, text, node),
      },
    ];
  });
}

/** `packages.config`'s `<package id version>` entries; `developmentDependency="true"` ones are development. */
function packagesConfigDeclarations(text: string): NuGetDeclaration[] {
  const root = readXml(PACKAGES_CONFIG, text);
  if (root.name !== 'packages') throw new ManifestParseError(PACKAGES_CONFIG, `the root element is <${root.name}>, not <packages>`);
  return childrenOf(root, 'package').flatMap((node): NuGetDeclaration[] => {
    const id = attributeOf(node, 'id');
    if (!id || id.value.trim() === '') return [];
    const version = attributeOf(node, 'version');
    return [
      {
        name: id.value.trim(),
        type: attributeOf(node, 'developmentDependency')?.value.trim().toLowerCase() === 'true' ? 'development' : 'runtime',
        file: PACKAGES_CONFIG,
        where: `package, line ${lineAt(text, id.start)}`,
        version: version ? { file: PACKAGES_CONFIG, start: version.start, end: version.end, text: version.value } : null,
      },
    ];
  });
}

/**
 * `global.json`'s `msbuild-sdks` entries (MSBuild project SDKs, NuGet packages: `"Microsoft.Build.Traversal": "3.4.0"`).
 * Its `sdk.version` is the .NET SDK, which is not a NuGet package: it is checked to be a string, not listed.
 * @throws ManifestParseError when the file is not JSON (comments included) or `sdk`/`msbuild-sdks` are not objects
 */
function globalJsonDeclarations(text: string): NuGetDeclaration[] {
  const doc = parseJsonObject(GLOBAL_JSON, text);
  if (doc.sdk !== undefined && !(isTable(doc.sdk) && (doc.sdk.version === undefined || typeof doc.sdk.version === 'string'))) {
    throw new ManifestParseError(GLOBAL_JSON, "'sdk' is not an object with a string 'version'");
  }
  const sdks = doc['msbuild-sdks'];
  if (sdks === undefined) return [];
  if (!isTable(sdks)) throw new ManifestParseError(GLOBAL_JSON, "'msbuild-sdks' is not an object");
  const strings = jsonStrings(text);
  return Object.entries(sdks).flatMap(([name, value]): NuGetDeclaration[] => {
    if (typeof value !== 'string') return [];
    const span = jsonStringAt(strings, ['msbuild-sdks', name]);
    return [
      {
        name,
        type: 'development',
        file: GLOBAL_JSON,
        where: 'msbuild-sdks',
        version:
          span && !span.escaped
            ? { file: GLOBAL_JSON, start: span.start, end: span.end, text: value }
            : { unresolved: 'an escaped string' },
      },
    ];
  });
}

/**
 * Is central package management on? The `ManagePackageVersionsCentrally` property in effect after the directory's
 * MSBuild files (`Directory.Build.props`, `Directory.Packages.props`, the projects, `Directory.Build.targets`), when one
 * of them defines it: on unless it is `false`. When none does, on when a `Directory.Packages.props` is in effect (it
 * may be set in an import that is not read; a `Directory.Packages.props` is only written for central management).
 */
function centrallyManaged(msbuild: MsBuildFiles, projects: readonly string[]): boolean {
  if (msbuild.central.length === 0) return false;
  const value = msbuild.propertyText(msbuild.evaluationOrder(projects), 'ManagePackageVersionsCentrally');
  return value === undefined || value.trim().toLowerCase() !== 'false';
}

/** The declarations of one project directory (see {@link readProjectDirectory}). */
interface ProjectDirectoryRead {
  /** In reading order: the references, then the central entries in effect that apply. */
  declarations: NuGetDeclaration[];
  /** The `PackageVersion` entries of the central files in effect left out (not referenced, not listed whole). */
  unlisted: NuGetDeclaration[];
  /** The lower-cased ids the directory's projects, `packages.config` and `Directory.*` items reference. */
  referenced: Set<string>;
}

/**
 * The declarations of one project directory, its files keyed as if it were the config's directory (a
 * {@link projectDirectoryView}), in reading order: the project files (`*.csproj`, `*.fsproj`, `*.vbproj`, `*.proj`,
 * each by path), `packages.config`, the `Directory.Build.props` and `Directory.Build.targets` in effect (nearest first;
 * their `PackageReference` items are imported into every project), then the `Directory.Packages.props` in effect when
 * central package management is on (see {@link centrallyManaged}): their `GlobalPackageReference`s, the `PackageVersion`s
 * of the packages the files above reference (typed development: a version entry is no use, the references decide), and
 * the other entries `listWhole` takes (by file and lower-cased id), in file order. A `$(Name)` version is the property in effect in MSBuild's
 * evaluation order (see `MsBuildFiles.evaluationOrder`): a project's declarations see the `Directory.Build.props`,
 * `Directory.Packages.props`, the project itself and `Directory.Build.targets`; the `Directory.*` files' declarations
 * the same without a project.
 * @throws ManifestParseError when a file read is not well-formed XML or has the wrong root
 */
function readProjectDirectory(files: Files, listWhole: (file: string, name: string) => boolean): ProjectDirectoryRead {
  const msbuild = new MsBuildFiles(files);
  const projects = PROJECT_FILES.flatMap((entry) => filesOf(files, entry)).map(([file]) => file);
  const kinds: ItemKind[] = ['PackageReference', 'PackageVersion', 'GlobalPackageReference'];
  const directoryOrder = msbuild.evaluationOrder();
  const referencing = [
    ...projects.flatMap((file) => msbuildDeclarations(msbuild, file, msbuild.evaluationOrder([file]), kinds)),
    ...filesOf(files, PACKAGES_CONFIG).flatMap(([, text]) => packagesConfigDeclarations(text)),
    ...[...msbuild.props, ...msbuild.targets].flatMap((file) => msbuildDeclarations(msbuild, file, directoryOrder, kinds)),
  ];
  const referenced = new Set(referencing.map((d) => d.name.toLowerCase()));
  const central: NuGetDeclaration[] = [];
  const unlisted: NuGetDeclaration[] = [];
  if (centrallyManaged(msbuild, projects)) {
    for (const file of msbuild.central) {
      for (const d of msbuildDeclarations(msbuild, file, directoryOrder, kinds)) {
        if (d.where.startsWith('GlobalPackageReference')) central.push(d);
        // a version entry is no use of the package: the references read decide its type (any runtime one: runtime)
        else if (referenced.has(d.name.toLowerCase())) central.push({ ...d, type: 'development' });
        else if (listWhole(file, d.name.toLowerCase())) central.push(d);
        else unlisted.push(d);
      }
    }
  }
  return { declarations: [...referencing, ...central], unlisted, referenced };
}

/** A declaration read in a project directory's view, its files keyed as the files map keys them (`key`). */
function rekeyed(d: NuGetDeclaration, dir: string, key: (path: string) => string): NuGetDeclaration {
  const version = d.version !== null && 'file' in d.version ? { ...d.version, file: key(d.version.file) } : d.version;
  return { ...d, file: key(d.file), version, directory: dir };
}

/** The directories of the projects read, `''` (the config's directory) first, then in {@link projectsInOrder}'s order. */
function projectDirectories(files: Files): string[] {
  const dirs = [''];
  for (const project of projectsInOrder(files)) {
    const dir = directoryOf(project);
    if (!dirs.includes(dir)) dirs.push(dir);
  }
  return dirs;
}

/**
 * Every NuGet declaration of the files read, in reading order. The projects are the directory's own project files and
 * those its solutions and traversal projects list ({@link projectsInOrder}); each project directory is read as MSBuild
 * reads it ({@link readProjectDirectory} of its {@link projectDirectoryView}: the `Directory.*` files nearest to that
 * directory, its `packages.config`), its declarations keyed as the files map keys them (`src/App/App.csproj`): the
 * config's directory first, where its own `Directory.Packages.props` lists every entry in file order (a central package
 * management root), but those the other directories' projects reference; then the other project directories in
 * listing order; a declaration two directories share (an item of the same `Directory.Build.props`, the same
 * `PackageVersion` entry) is given once, where first read. Then the own `Directory.Packages.props` entries held back
 * and not given yet (typed development: the references decide), and `global.json`.
 * @throws ManifestParseError when a file read is not well-formed XML (JSON for global.json) or has the wrong root, or a
 *   `.slnx` solution or traversal project is not well-formed
 */
export function readNuGet(files: Files): NuGetDeclaration[] {
  const out: NuGetDeclaration[] = [];
  const given = new Set<string>();
  const give = (d: NuGetDeclaration) => {
    const id = `${d.file}\u0000${d.where}\u0000${d.name.toLowerCase()}`;
    if (given.has(id)) return;
    given.add(id);
    out.push(d);
  };
  const [, ...others] = projectDirectories(files);
  const reads = others.map((dir) => {
    const view = projectDirectoryView(files, dir);
    return { dir, view, read: readProjectDirectory(view.files, () => false) };
  });
  const elsewhere = new Set(reads.flatMap(({ read }) => [...read.referenced]));
  // the directory's own central file lists every entry in place, but those the other directories' projects reference,
  // which come with them (from the central file nearest to them) or after them
  const own = projectDirectoryView(files, '');
  const root = readProjectDirectory(own.files, (file, name) => file === CENTRAL_FILE && !elsewhere.has(name));
  for (const d of root.declarations) give(d);
  for (const { dir, view, read } of reads) for (const d of read.declarations) give(rekeyed(d, dir, view.key));
  for (const d of root.unlisted) if (d.file === CENTRAL_FILE) give({ ...d, type: 'development' });
  for (const [, text] of filesOf(files, GLOBAL_JSON)) for (const d of globalJsonDeclarations(text)) give(d);
  return out;
}

/**
 * The declarations of `name` (lower-cased) that the projects of one project directory see, its files keyed as if it
 * were the config's directory (a {@link projectDirectoryView}): every entry of the central files in effect counts (a
 * lock file locks a centrally managed package a project only uses transitively as `CentralTransitive`), and `declared`
 * says whether the directory's own files reference it.
 * @throws ManifestParseError when a file read is not well-formed
 */
export function projectDirectoryDeclarations(view: Files, name: string): { declarations: NuGetDeclaration[]; declared: boolean } {
  const read = readProjectDirectory(view, () => true);
  const declarations = read.declarations.filter((d) => d.name.toLowerCase() === name);
  return { declarations, declared: read.referenced.has(name) || declarations.some((d) => d.where.startsWith('GlobalPackageReference')) };
}

/**
 * The versions each project directory's `packages.lock.json` resolves for its projects' direct dependencies, by the
 * directory (relative to the config's directory, `''` for its own) and lower-cased id ({@link lockedVersionsOf}).
 * @throws ManifestParseError when a lock file is not JSON or its frameworks are not objects
 */
export function lockedVersions(files: Files): Map<string, Map<string, string>> {
  return new Map(projectDirectories(files).map((dir) => [dir, lockedVersionsOf(projectDirectoryView(files, dir).files)]));
}

/**
 * The versions the `packages.lock.json` of a directory (the files map's key `packages.lock.json`) resolves for the
 * project's direct dependencies (`type: Direct`), by lower-cased id:
 * the first target framework's that locks the package. Version 1 and 2 files hold the frameworks under `dependencies`,
 * version 3 ones at the top level (each `{ framework, dependencies }`), as NuGet's `PackagesLockFileFormat` reads them
 * (https://github.com/NuGet/NuGet.Client/blob/dev/src/NuGet.Core/NuGet.ProjectModel/ProjectLockFile/PackagesLockFileFormat.cs).
 * @throws ManifestParseError when the file is not JSON or its frameworks are not objects
 */
export function lockedVersionsOf(files: Files): Map<string, string> {
  const locked = new Map<string, string>();
  const text = files[LOCKFILE];
  if (text === undefined) return locked;
  for (const target of lockTargets(text)) {
    for (const [name, entry] of Object.entries(target.dependencies)) {
      if (!isTable(entry) || typeof entry.resolved !== 'string' || String(entry.type).toLowerCase() !== 'direct') continue;
      if (!locked.has(name.toLowerCase())) locked.set(name.toLowerCase(), entry.resolved);
    }
  }
  return locked;
}

/** One target of `packages.lock.json`: its key path, its framework and its packages by id. */
export interface LockTarget {
  /** The JSON path of the target's package object (`['dependencies', 'net8.0']`, `['net8.0', 'dependencies']`). */
  path: string[];
  /** The framework: the key without a `/rid` suffix (version 1, 2), or the `framework` value (version 3). */
  framework: string;
  dependencies: Record<string, unknown>;
}

/**
 * The targets of a `packages.lock.json` text (see {@link lockedVersionsOf}).
 * @throws ManifestParseError when it is not a JSON object, or a target or its packages are not objects
 */
export function lockTargets(text: string): LockTarget[] {
  const doc = parseJsonObject(LOCKFILE, text);
  const version = typeof doc.version === 'number' ? doc.version : 1;
  const targets: LockTarget[] = [];
  if (version >= 3) {
    for (const [key, value] of Object.entries(doc)) {
      if (key === 'version') continue;
      if (!isTable(value) || !isTable(value.dependencies ?? {}))
        throw new ManifestParseError(LOCKFILE, `target '${key}' is not an object with 'dependencies'`);
      const framework = typeof value.framework === 'string' ? value.framework : (key.split('/')[0] ?? key);
      targets.push({ path: [key, 'dependencies'], framework, dependencies: (value.dependencies ?? {}) as Record<string, unknown> });
    }
    return targets;
  }
  const all = doc.dependencies ?? {};
  if (!isTable(all)) throw new ManifestParseError(LOCKFILE, "'dependencies' is not an object");
  for (const [key, value] of Object.entries(all)) {
    if (!isTable(value)) throw new ManifestParseError(LOCKFILE, `target '${key}' is not an object`);
    targets.push({ path: ['dependencies', key], framework: key.split('/')[0] ?? key, dependencies: value });
  }
  return targets;
}
