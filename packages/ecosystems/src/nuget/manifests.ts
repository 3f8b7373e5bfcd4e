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
  PACKAGES_PROPS,
  PARENT_LEVELS,
  PROJECT_FILES,
  projectDirectoryView,
  TOOL_MANIFESTS,
  upward,
} from './files.ts';
import { importNodes, importTargetOf } from './imports.ts';
import { projectsInOrder } from './solutions.ts';
import { nugetVersions } from './versions.ts';
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
  /** The directory's own `Packages.props` (the CentralPackageVersions SDK imports it after the project), when present. */
  readonly packagesProps: string[];

  readonly files: Files;
  /** The `Directory.*` files in effect: the chains order them, an `<Import>` of one of them is not followed again. */
  private readonly chained: Set<string>;
  /** The properties in effect after each evaluation order evaluated ({@link evaluated}), by lower-cased name. */
  private readonly evaluations = new Map<string, Map<string, { file: string; node: XmlNode }>>();

  constructor(files: Files) {
    this.files = files;
    this.props = this.chainOf(BUILD_PROPS);
    this.central = this.chainOf(CENTRAL_FILE);
    this.targets = this.chainOf(BUILD_TARGETS);
    this.packagesProps = files[PACKAGES_PROPS] === undefined ? [] : [PACKAGES_PROPS];
    this.chained = new Set([...this.props, ...this.central, ...this.targets, ...this.packagesProps]);
  }

  /**
   * The file of the map an `<Import>` of `file` brings in ({@link importTargetOf}), when the map holds it and it is
   * neither a `Directory.*` file in effect nor one of `stack` (the files being evaluated: an import cycle stops).
   */
  private followed(file: string, node: XmlNode, stack: readonly string[]): string | undefined {
    const target = importTargetOf(file, node);
    if (target === undefined || this.files[target] === undefined || this.chained.has(target) || stack.includes(target)) return undefined;
    return target;
  }

  /**
   * Evaluates the properties of `file` as MSBuild's first pass does, in document order: each `<PropertyGroup>` child of
   * `<Project>` defines its children (`define`), each `<Import>` (of `<Project>` or an `<ImportGroup>`) of a file the map
   * holds evaluates that file there, in turn. Conditions are not evaluated.
   */
  private evaluate(file: string, define: (name: string, at: { file: string; node: XmlNode }) => void, stack: readonly string[]): void {
    for (const child of this.root(file).children) {
      const kind = child.name.toLowerCase();
      if (kind === 'propertygroup') {
        for (const node of child.children) define(node.name.toLowerCase(), { file, node });
      } else if (kind === 'import' || kind === 'importgroup') {
        for (const node of kind === 'import' ? [child] : childrenOf(child, 'Import')) {
          const target = this.followed(file, node, stack);
          if (target !== undefined) this.evaluate(target, define, [...stack, target]);
        }
      }
    }
  }

  /**
   * The files `file` imports that the map holds, transitively, in evaluation order (each import's own imports right
   * after it), without the `Directory.*` files in effect and each once: their items are the importing project's.
   */
  importsOf(file: string): string[] {
    const out: string[] = [];
    const visit = (at: string, stack: readonly string[]) => {
      for (const node of importNodes(this.root(at))) {
        const target = this.followed(at, node, stack);
        if (target === undefined || out.includes(target)) continue;
        out.push(target);
        visit(target, [...stack, target]);
      }
    };
    visit(file, [file]);
    return out;
  }

  /** The definitions in effect after evaluating the files of `order` in turn, imports included (the last definition wins). */
  private evaluated(order: readonly string[]): Map<string, { file: string; node: XmlNode }> {
    const key = order.join('\u0000');
    let properties = this.evaluations.get(key);
    if (!properties) {
      const found = new Map<string, { file: string; node: XmlNode }>();
      for (const file of order) this.evaluate(file, (name, at) => found.set(name, at), [file]);
      properties = found;
      this.evaluations.set(key, properties);
    }
    return properties;
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
   * the `Directory.Build.targets`, then the directory's `Packages.props` (the CentralPackageVersions SDK's targets come
   * after the .NET SDK's). Each file's own imports are evaluated where it imports them ({@link property}).
   */
  evaluationOrder(projects: readonly string[] = []): string[] {
    const outermostFirst = (chain: readonly string[]) => [...chain].reverse();
    return [
      ...outermostFirst(this.props),
      ...outermostFirst(this.central),
      ...projects,
      ...outermostFirst(this.targets),
      ...this.packagesProps,
    ];
  }

  /**
   * The definition of property `name` (case-insensitive, as MSBuild) in effect after evaluating `order` (the last
   * `<PropertyGroup><name>`, the files each imports evaluated where they are imported), with its file.
   */
  property(order: readonly string[], name: string): { file: string; node: XmlNode } | undefined {
    return this.evaluated(order).get(name.toLowerCase());
  }

  /** The text of property `name` in effect after `order`, or undefined when none of the files defines it. */
  propertyText(order: readonly string[], name: string): string | undefined {
    const found = this.property(order, name);
    return found && contentOf(this.files[found.file] ?? '', found.node).text;
  }

  /**
   * The site of a version value written in `file` at `[start, end)`: the value itself, or for a whole `$(Name)` the
   * definition of the property in effect after evaluating `order` (see {@link evaluationOrder}), followed while that
   * definition is itself a whole `$(Other)` (`<XVersion>$(SharedVersion)</XVersion>`: the site is `SharedVersion`'s, as
   * Dependabot's `PropertyValueFinder` followed a property to its root property); a cycle is unresolved.
   */
  siteOf(order: readonly string[], file: string, text: string, start: number, end: number, seen: readonly string[] = []): NuGetVersionSite {
    if (!text.includes('$(')) {
      if (/[&<]/.test(text)) return { unresolved: `version '${text}' holds an entity reference` };
      return { file, start, end, text };
    }
    const name = /^\s*\$\(\s*([A-Za-z_][\w.-]*)\s*\)\s*$/.exec(text)?.[1];
    if (name === undefined) return { unresolved: `version '${text}' mixes text and MSBuild properties` };
    if (seen.includes(name.toLowerCase())) return { unresolved: `property ${name} refers to itself (${[...seen, name].join(' → ')})` };
    const found = this.property(order, name);
    if (!found) return { unresolved: `property ${name} is not defined in ${order.join(', ') || file}` };
    const source = this.files[found.file] ?? '';
    const content = contentOf(source, found.node);
    if (!found.node.markup && /^\$\(\s*[A-Za-z_][\w.-]*\s*\)$/.test(content.text)) {
      return this.siteOf(order, found.file, content.text, content.start, content.end, [...seen, name.toLowerCase()]);
    }
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

/** A JSON text without a byte order mark (Visual Studio writes one; JSON.parse refuses it, the span scanner skips it). */
const withoutBom = (text: string) => (text.startsWith('\uFEFF') ? text.slice(1) : text);

/**
 * `global.json`'s `msbuild-sdks` entries (MSBuild project SDKs, NuGet packages: `"Microsoft.Build.Traversal": "3.4.0"`),
 * of the file `file` (a files-map key: `global.json`, `../../global.json`). Values that are not strings or not NuGet
 * versions are left out, as Dependabot's discovery left out unparseable versions (`GlobalJsonDiscovery.cs` of
 * https://github.com/dependabot/dependabot-core/tree/main/nuget/helpers/lib/NuGetUpdater/NuGetUpdater.Core/Discover).
 * Its `sdk.version` is the .NET SDK, which is not a NuGet package: it is checked to be a string, not listed.
 * @throws ManifestParseError when the file is not JSON (comments included) or `sdk`/`msbuild-sdks` are not objects
 */
function globalJsonDeclarations(file: string, text: string): NuGetDeclaration[] {
  const doc = parseJsonObject(file, withoutBom(text));
  if (doc.sdk !== undefined && !(isTable(doc.sdk) && (doc.sdk.version === undefined || typeof doc.sdk.version === 'string'))) {
    throw new ManifestParseError(file, "'sdk' is not an object with a string 'version'");
  }
  const sdks = doc['msbuild-sdks'];
  if (sdks === undefined) return [];
  if (!isTable(sdks)) throw new ManifestParseError(file, "'msbuild-sdks' is not an object");
  const strings = jsonStrings(text);
  return Object.entries(sdks).flatMap(([name, value]): NuGetDeclaration[] => {
    if (typeof value !== 'string' || !nugetVersions.isValid(value.trim())) return [];
    const span = jsonStringAt(strings, ['msbuild-sdks', name]);
    return [
      {
        name,
        type: 'development',
        file,
        where: 'msbuild-sdks',
        version: span && !span.escaped ? { file, start: span.start, end: span.end, text: value } : { unresolved: 'an escaped string' },
      },
    ];
  });
}

/**
 * The `global.json` in effect: the nearest of `global.json`, `../global.json`, … the map holds, as the .NET SDK and
 * MSBuild's SDK resolvers look for it walking up from the project (https://learn.microsoft.com/dotnet/core/tools/global-json#globaljson-search),
 * and as Dependabot's discovery did (`MSBuildHelper.TryGetGlobalJsonPath`: the directory or a parent).
 */
const globalJsonInEffect = (files: Files) => upward(GLOBAL_JSON).find((path) => files[path] !== undefined);

/**
 * The local tool manifests the map holds, nearest first, as the dotnet CLI looks for them walking up from the directory:
 * in each directory `.config/dotnet-tools.json`, then `dotnet-tools.json` (`../.config/dotnet-tools.json`, … to eight
 * levels up).
 */
export const toolManifestPaths = (): string[] =>
  Array.from({ length: PARENT_LEVELS + 1 }, (_, i) => TOOL_MANIFESTS.map((name) => `${'../'.repeat(i)}${name}`)).flat();

/**
 * The tools of the local tool manifests in effect (`dotnet-tools.json`: `{ "version": 1, "isRoot": true, "tools": {
 * "dotnet-ef": { "version": "8.0.1", "commands": ["dotnet-ef"] } } }`), each a NuGet package pinned to its `version`,
 * as the dotnet CLI reads them (`ToolManifestFinder` of https://github.com/dotnet/sdk): the manifests nearest first
 * ({@link toolManifestPaths}), a tool taken from the first manifest that lists it, and none read past a manifest with
 * `"isRoot": true`. Dependabot read `.config/dotnet-tools.json` the same way (`DotNetToolsJsonParser` of
 * https://github.com/dependabot/dependabot-core/blob/main/nuget/lib/dependabot/nuget/file_parser/dotnet_tools_json_parser.rb)
 * and updated `tools.<name>.version` (`DotNetToolsJsonUpdater.cs`). Typed `development`: a local tool runs in the build
 * or at the developer's prompt, never with the program (Dependabot's group `dependencies` made them production).
 * A tool without a string `version`, or one that is not a NuGet version, is left out.
 * @throws ManifestParseError when a manifest is not a JSON object, or `tools` or a tool is not an object (as Dependabot)
 */
function toolManifestDeclarations(files: Files): NuGetDeclaration[] {
  const out: NuGetDeclaration[] = [];
  const seen = new Set<string>();
  for (const file of toolManifestPaths()) {
    const text = files[file];
    if (text === undefined) continue;
    const doc = parseJsonObject(file, withoutBom(text));
    const tools = doc.tools ?? {};
    if (!isTable(tools)) throw new ManifestParseError(file, "'tools' is not an object");
    const strings = jsonStrings(text);
    for (const [name, tool] of Object.entries(tools)) {
      if (!isTable(tool)) throw new ManifestParseError(file, `tool '${name}' is not an object`);
      if (seen.has(name.toLowerCase())) continue;
      seen.add(name.toLowerCase());
      const version = tool.version;
      if (typeof version !== 'string' || !nugetVersions.isValid(version.trim())) continue;
      const span = jsonStringAt(strings, ['tools', name, 'version']);
      out.push({
        name,
        type: 'development',
        file,
        where: `tools, line ${span ? lineAt(text, span.start) : '?'}`,
        version: span && !span.escaped ? { file, start: span.start, end: span.end, text: version } : { unresolved: 'an escaped string' },
      });
    }
    if (doc.isRoot === true) break;
  }
  return out;
}

/**
 * The MSBuild project SDKs a project file pins (https://learn.microsoft.com/visualstudio/msbuild/how-to-use-project-sdk),
 * in the three forms Dependabot read and updated (`add_sdk_references` of
 * https://github.com/dependabot/dependabot-core/blob/main/nuget/lib/dependabot/nuget/file_parser/project_file_parser.rb,
 * `ProjectFileDeclarationFinder`): each `Name/Version` of the root's `Sdk="A/1.0;B"` attribute (`;`-separated, as
 * Dependabot's `PROJECT_SDK_REGEX`; a bare name or `Name/min=1.0` names no version), and the `Version` of each
 * `<Sdk Name Version>` and `<Import Project Sdk Version>` child of `<Project>`. MSBuild reads them literally (no
 * properties), so a value with `$(`, an entity or a version that is not NuGet's is left out. The span is the version's
 * characters; typed development, as `global.json`'s `msbuild-sdks`.
 */
function sdkDeclarations(file: string, text: string, root: XmlNode): NuGetDeclaration[] {
  const out: NuGetDeclaration[] = [];
  const add = (name: string, where: string, start: number, version: string) => {
    if (name === '' || !nugetVersions.isValid(version)) return;
    out.push({
      name,
      type: 'development',
      file,
      where: `${where}, line ${lineAt(text, start)}`,
      version: { file, start, end: start + version.length, text: version },
    });
  };
  const literal = (value: string) => !/[&$]/.test(value);
  const project = attributeOf(root, 'Sdk');
  // an entity would shift the offsets of what follows it: such an attribute is left whole
  if (project && !project.value.includes('&')) {
    let offset = project.start;
    for (const part of project.value.split(';')) {
      const slash = part.indexOf('/');
      if (slash >= 0 && literal(part)) {
        const rest = part.slice(slash + 1);
        add(part.slice(0, slash).trim(), 'Project Sdk', offset + slash + 1 + (rest.length - rest.trimStart().length), rest.trim());
      }
      offset += part.length + 1;
    }
  }
  for (const [element, nameAttribute] of [
    ['Sdk', 'Name'],
    ['Import', 'Sdk'],
  ] as const) {
    for (const node of childrenOf(root, element)) {
      const name = attributeOf(node, nameAttribute);
      const version = attributeOf(node, 'Version');
      if (!name || !version || !literal(name.value) || !literal(version.value)) continue;
      const leading = version.value.length - version.value.trimStart().length;
      add(name.value.trim(), element === 'Sdk' ? 'Sdk' : 'Import Sdk', version.start + leading, version.value.trim());
    }
  }
  return out;
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
  /**
   * The `PackageVersion` entries of the central files in effect left out (not referenced, not listed whole), each with
   * the central file it was read through (the file itself, or the one that imports it).
   */
  unlisted: { declaration: NuGetDeclaration; central: string }[];
  /** The lower-cased ids the directory's projects, `packages.config`, `Directory.*` items and their imports reference. */
  referenced: Set<string>;
}

/**
 * The declarations of one project directory, its files keyed as if it were the config's directory (a
 * {@link projectDirectoryView}), in reading order: the project files (`*.csproj`, `*.fsproj`, `*.vbproj`, `*.proj`,
 * each by path: the SDKs it pins ({@link sdkDeclarations}), its items, then the items of the files it imports),
 * `packages.config`, the `Directory.Build.props` and `Directory.Build.targets` in effect (nearest first; their
 * `PackageReference` items are imported into every project), the directory's `Packages.props` (its
 * `<PackageReference Update>` items give the versions) and the files they import, then the `Directory.Packages.props`
 * in effect (and the files each imports) when central package management is on (see {@link centrallyManaged}): their
 * `GlobalPackageReference`s, the `PackageVersion`s of the packages the files above reference (typed development: a
 * version entry is no use, the references decide), and the other entries `listWhole` takes (by central file and
 * lower-cased id), in file order. A `$(Name)` version is the property in effect in MSBuild's evaluation order (see
 * `MsBuildFiles.evaluationOrder`, imports evaluated where they are): a project's declarations (and those of its
 * imports) see the `Directory.Build.props`, `Directory.Packages.props`, the project itself and `Directory.Build.targets`;
 * the `Directory.*` files' declarations the same without a project. Items of an imported file count, as MSBuild imports
 * them into the project (Dependabot's parser read the `PackageReference`s of every fetched import: `project_import_files`).
 * @throws ManifestParseError when a file read is not well-formed XML or has the wrong root
 */
function readProjectDirectory(files: Files, listWhole: (file: string, name: string) => boolean): ProjectDirectoryRead {
  const msbuild = new MsBuildFiles(files);
  const projects = PROJECT_FILES.flatMap((entry) => filesOf(files, entry)).map(([file]) => file);
  const kinds: ItemKind[] = ['PackageReference', 'PackageVersion', 'GlobalPackageReference'];
  const directoryOrder = msbuild.evaluationOrder();
  const withImports = (file: string) => [file, ...msbuild.importsOf(file)];
  const sdks = projects.flatMap((file) => sdkDeclarations(file, files[file] ?? '', msbuild.root(file)));
  const referencing = [
    ...projects.flatMap((file) => {
      const order = msbuild.evaluationOrder([file]);
      return [...sdks.filter((d) => d.file === file), ...withImports(file).flatMap((at) => msbuildDeclarations(msbuild, at, order, kinds))];
    }),
    ...filesOf(files, PACKAGES_CONFIG).flatMap(([, text]) => packagesConfigDeclarations(text)),
    ...[...msbuild.props, ...msbuild.targets, ...msbuild.packagesProps]
      .flatMap(withImports)
      .flatMap((file) => msbuildDeclarations(msbuild, file, directoryOrder, kinds)),
  ];
  // project SDKs are no package references: central versions and lock files do not concern them
  const referenced = new Set(referencing.filter((d) => !sdks.includes(d)).map((d) => d.name.toLowerCase()));
  const central: NuGetDeclaration[] = [];
  const unlisted: ProjectDirectoryRead['unlisted'] = [];
  if (centrallyManaged(msbuild, projects)) {
    for (const file of msbuild.central) {
      for (const d of withImports(file).flatMap((at) => msbuildDeclarations(msbuild, at, directoryOrder, kinds))) {
        if (d.where.startsWith('GlobalPackageReference')) central.push(d);
        // a version entry is no use of the package: the references read decide its type (any runtime one: runtime)
        else if (referenced.has(d.name.toLowerCase())) central.push({ ...d, type: 'development' });
        else if (listWhole(file, d.name.toLowerCase())) central.push(d);
        else unlisted.push({ declaration: d, central: file });
      }
    }
  }
  return { declarations: [...referencing, ...central], unlisted, referenced };
}

/**
 * A declaration read in a project directory's view, its files keyed as the files map keys them (`key`), with the
 * project directory (`dir`; none for the config's own).
 */
function rekeyed(d: NuGetDeclaration, dir: string, key: (path: string) => string): NuGetDeclaration {
  const version = d.version !== null && 'file' in d.version ? { ...d.version, file: key(d.version.file) } : d.version;
  return { ...d, file: key(d.file), version, ...(dir === '' ? {} : { directory: dir }) };
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
 * directory, its `packages.config`, the files its MSBuild files import), its declarations keyed as the files map keys
 * them (`src/App/App.csproj`, `directory.build.props` for a file in that letter case): the config's directory first,
 * where its own `Directory.Packages.props` lists every entry in file order (a central package management root), but
 * those the other directories' projects reference; then the other project directories in listing order; a declaration
 * two directories share (an item of the same `Directory.Build.props`, the same `PackageVersion` entry) is given once,
 * where first read. Then the own `Directory.Packages.props` entries held back and not given yet (typed development: the
 * references decide), the `global.json` in effect ({@link globalJsonInEffect}) and the local tools
 * ({@link toolManifestDeclarations}).
 * @throws ManifestParseError when a file read is not well-formed XML (JSON for global.json and tool manifests) or has
 *   the wrong root, or a `.slnx` solution or traversal project is not well-formed
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
  for (const d of root.declarations) give(rekeyed(d, '', own.key));
  for (const { dir, view, read } of reads) for (const d of read.declarations) give(rekeyed(d, dir, view.key));
  for (const { declaration, central } of root.unlisted) {
    if (central === CENTRAL_FILE) give(rekeyed({ ...declaration, type: 'development' }, '', own.key));
  }
  const globalJson = globalJsonInEffect(files);
  if (globalJson !== undefined) for (const d of globalJsonDeclarations(globalJson, files[globalJson] ?? '')) give(d);
  for (const d of toolManifestDeclarations(files)) give(d);
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
