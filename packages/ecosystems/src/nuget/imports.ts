import { directoryOf, joinPath } from './files.ts';
import { attributeOf, childrenOf, type XmlNode } from './xml.ts';

/**
 * MSBuild's `<Import Project="…">` of in-repository files (https://learn.microsoft.com/visualstudio/msbuild/import-element-msbuild),
 * as far as a path can be told without evaluating MSBuild: Dependabot's file fetcher fetched the `Project` of each
 * `/Project/Import` of the projects and `Directory.Build.*` files, relative to the importing file, and the files those
 * import in turn, skipping paths with `$(` (`imported_property_files` and `ImportPathsFinder#import_paths` of
 * https://github.com/dependabot/dependabot-core/blob/main/nuget/lib/dependabot/nuget/file_fetcher.rb), and its parser
 * resolved properties from them (`PropertyValueFinder`).
 */

/** The `$(MSBuildThisFileDirectory)` prefix (the importing file's directory, with a trailing slash), any letter case. */
const THIS_FILE_DIRECTORY = /^\$\(\s*MSBuildThisFileDirectory\s*\)\/?/i;

/**
 * The path an `<Import Project>` value names, relative to the importing file's directory, `/`-separated, or undefined
 * when it cannot be followed: empty, holding another MSBuild property, property function, item or metadata (`$(`, `@(`,
 * `%(`), a wildcard or a `;` list, or absolute. A leading `$(MSBuildThisFileDirectory)` is the file's own directory
 * (`$(MSBuildThisFileDirectory)eng/Versions.props` → `eng/Versions.props`); backslashes are read as `/`.
 */
export function importedPath(value: string): string | undefined {
  let path = value.trim().replace(/\\/g, '/');
  const prefix = THIS_FILE_DIRECTORY.exec(path);
  if (prefix) path = path.slice(prefix[0].length);
  if (path === '' || /[$@%]\(|[*?;]/.test(path) || path.startsWith('/') || /^[A-Za-z]:/.test(path)) return undefined;
  return path;
}

/**
 * The files-map key of the file an `<Import>` element of `file` (a files-map key) names: its followed path
 * ({@link importedPath}) joined to the importing file's directory and normalised (`src/App/../../eng/Versions.props` →
 * `eng/Versions.props`); undefined for an import of an SDK's file (`<Import Project="Sdk.props" Sdk="…">`, not a file of
 * the repository) and for paths that cannot be followed. Conditions are not evaluated.
 */
export function importTargetOf(file: string, node: XmlNode): string | undefined {
  if (attributeOf(node, 'Sdk') !== undefined) return undefined;
  const path = importedPath(attributeOf(node, 'Project')?.value ?? '');
  return path === undefined ? undefined : joinPath(directoryOf(file), path);
}

/** The `<Import>` elements of an MSBuild file's root `<Project>`: its own children and those of its `<ImportGroup>`s, in document order. */
export function importNodes(root: XmlNode): XmlNode[] {
  return root.children.flatMap((child) => {
    const name = child.name.toLowerCase();
    if (name === 'import') return [child];
    return name === 'importgroup' ? childrenOf(child, 'Import') : [];
  });
}

/** The files-map keys of the in-repository files an MSBuild file imports ({@link importNodes}, {@link importTargetOf}), in document order. */
export const importsOf = (file: string, root: XmlNode): string[] => importNodes(root).flatMap((node) => importTargetOf(file, node) ?? []);
