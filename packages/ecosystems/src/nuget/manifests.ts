import type { DependencyType } from '../ecosystem.ts';
import { ManifestParseError } from '../errors.ts';
import { REQUIRED_FILES } from '../required-files.ts';
import { filesOf } from '../shared/files.ts';
import { isTable, parseJsonObject } from '../shared/parse.ts';
import { jsonStringAt, jsonStrings } from '../update/json-spans.ts';
import { attributeOf, childrenOf, contentOf, descendantsOf, readXml, type XmlNode } from './xml.ts';

type Files = Readonly<Record<string, string>>;

/** NuGet 2's package list (https://learn.microsoft.com/nuget/reference/packages-config). */
export const PACKAGES_CONFIG = 'packages.config';
/**
 * The project files NuGet's PackageReference items are read from
 * (https://learn.microsoft.com/nuget/consume-packages/package-references-in-project-files): the required files of
 * `required-files.ts` but `packages.config`.
 */
export const PROJECT_FILES: readonly string[] = REQUIRED_FILES.nuget.flat().filter((file) => file !== PACKAGES_CONFIG);
/** MSBuild files imported by every project of the directory (https://learn.microsoft.com/visualstudio/msbuild/customize-by-directory). */
export const DIRECTORY_FILES = ['Directory.Build.props', 'Directory.Build.targets'];
/** Central package management's versions (https://learn.microsoft.com/nuget/consume-packages/central-package-management). */
export const CENTRAL_FILE = 'Directory.Packages.props';
/** The .NET SDK and MSBuild project SDK versions (https://learn.microsoft.com/dotnet/core/tools/global-json). */
export const GLOBAL_JSON = 'global.json';

/** Where a declaration's version is written: the span of the text to edit, with the property it goes through; or why not. */
export type NuGetVersionSite = { file: string; start: number; end: number; text: string; via?: string } | { unresolved: string };

/** One declaration of a NuGet package. */
export interface NuGetDeclaration {
  /** The package id as written (NuGet ids are case-insensitive). */
  name: string;
  type: DependencyType;
  file: string;
  /** Human-readable place, e.g. `PackageReference, line 12`. */
  where: string;
  /** Null when the declaration has no version (a central package version or an `Update` item gives it). */
  version: NuGetVersionSite | null;
}

/** The 1-based line of offset `at`. */
const lineAt = (text: string, at: number) => text.slice(0, at).split('\n').length;

/** The `<PropertyGroup>` definitions of MSBuild property `name` in `file` (the last one, as MSBuild's evaluation keeps it). */
function propertyIn(files: Files, file: string, name: string): NuGetVersionSite | undefined {
  const text = files[file];
  if (text === undefined) return undefined;
  const root = readXml(file, text);
  const defined = childrenOf(root, 'PropertyGroup').flatMap((group) => childrenOf(group, name));
  const last = defined.at(-1);
  if (!last) return undefined;
  const content = contentOf(text, last);
  if (last.markup || /[<&$]/.test(content.text)) {
    return { unresolved: `property ${name} in ${file} is not plain text (markup, an entity or another property)` };
  }
  return { file, ...content, via: `property ${name}` };
}

/**
 * The site of a version value written in `file` at `[start, end)`: the value itself, or for a whole `$(Name)` the
 * property's definition in a `<PropertyGroup>` of `file`, `Directory.Packages.props` or `Directory.Build.props` (the
 * first of them that defines it).
 */
function siteOf(files: Files, file: string, text: string, start: number, end: number): NuGetVersionSite {
  if (!text.includes('$(')) {
    if (/[&<]/.test(text)) return { unresolved: `version '${text}' holds an entity reference` };
    return { file, start, end, text };
  }
  const name = /^\s*\$\(\s*([A-Za-z_][\w.-]*)\s*\)\s*$/.exec(text)?.[1];
  if (name === undefined) return { unresolved: `version '${text}' mixes text and MSBuild properties` };
  for (const source of [file, CENTRAL_FILE, 'Directory.Build.props']) {
    const found = propertyIn(files, source, name);
    if (found) return found;
  }
  return { unresolved: `property ${name} is not defined in ${file}, ${CENTRAL_FILE} or Directory.Build.props` };
}

/** The version of a `PackageReference`/`PackageVersion` item: its `Version` (or `VersionOverride`) attribute, else a `<Version>` child. */
function itemVersion(files: Files, file: string, text: string, item: XmlNode): NuGetVersionSite | null {
  const attribute = attributeOf(item, 'Version') ?? attributeOf(item, 'VersionOverride');
  if (attribute) return siteOf(files, file, attribute.value, attribute.start, attribute.end);
  const child = childrenOf(item, 'Version')[0] ?? childrenOf(item, 'VersionOverride')[0];
  if (!child) return null;
  if (child.markup) return { unresolved: `<Version> of ${file} holds markup` };
  const content = contentOf(text, child);
  return siteOf(files, file, content.text, content.start, content.end);
}

/** Items of an MSBuild file: `PackageReference` (Include or Update), `PackageVersion`, `GlobalPackageReference`. */
function msbuildDeclarations(files: Files, file: string, text: string): NuGetDeclaration[] {
  const root = readXml(file, text);
  if (root.name !== 'Project') throw new ManifestParseError(file, `the root element is <${root.name}>, not <Project>`);
  const items = ['PackageReference', 'PackageVersion', 'GlobalPackageReference'].flatMap((kind) =>
    descendantsOf(root, kind).map((node) => ({ kind, node })),
  );
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
        version: itemVersion(files, file, text, node),
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

/** The files read, in reading order: project files, packages.config, Directory.Build.props/.targets, Directory.Packages.props, global.json. */
export const NUGET_FILES = [...PROJECT_FILES, PACKAGES_CONFIG, ...DIRECTORY_FILES, CENTRAL_FILE, GLOBAL_JSON];

/**
 * Every NuGet declaration of the files read, in {@link NUGET_FILES} order (each file in document order).
 * @throws ManifestParseError when a file present is not well-formed XML (JSON for global.json) or has the wrong root
 */
export function readNuGet(files: Files): NuGetDeclaration[] {
  return NUGET_FILES.flatMap((entry) => filesOf(files, entry)).flatMap(([file, text]) => {
    if (file === PACKAGES_CONFIG) return packagesConfigDeclarations(text);
    if (file === GLOBAL_JSON) return globalJsonDeclarations(text);
    return msbuildDeclarations(files, file, text);
  });
}
