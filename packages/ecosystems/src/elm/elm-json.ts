import type { DependencyType } from '../ecosystem.ts';
import { ManifestParseError } from '../errors.ts';
import { isTable, parseJsonObject, type Table } from '../shared/parse.ts';

/** A dependency an elm.json declares. */
export interface ElmDeclaration {
  /** `author/project`. */
  name: string;
  type: DependencyType;
  /** The exact version (applications) or range (packages) as written. */
  requirement: string;
  /** The key path of the requirement string, e.g. `['dependencies', 'direct', 'elm/http']`. */
  path: string[];
  /** `direct` or `indirect` for applications, null for packages. */
  scope: 'direct' | 'indirect' | null;
}

/** A parsed elm.json: its type and every dependency (indirect ones included, marked). */
export interface ElmJson {
  type: 'application' | 'package';
  declarations: ElmDeclaration[];
}

/** The string entries of an object, or a parse error naming `where`. */
function stringEntries(file: string, value: unknown, where: string): [string, string][] {
  if (value === undefined) return [];
  if (!isTable(value)) throw new ManifestParseError(file, `'${where}' is not an object`);
  return Object.entries(value).map(([name, requirement]) => {
    if (typeof requirement !== 'string') throw new ManifestParseError(file, `'${where}.${name}' is not a string`);
    return [name, requirement.trim()];
  });
}

/**
 * Reads an elm.json (https://github.com/elm/compiler/blob/master/docs/elm.json/application.md and package.md): an
 * application's `dependencies` and `test-dependencies`, each with `direct` and `indirect` maps of exact versions, or a
 * package's `dependencies` and `test-dependencies` maps of ranges. `test-dependencies` are development ones.
 * @throws ManifestParseError when the file is not JSON, has no `type` of `application` or `package`, or a section is not
 *   an object of strings
 */
export function readElmJson(file: string, text: string): ElmJson {
  const doc = parseJsonObject(file, text);
  const type = doc.type;
  if (type !== 'application' && type !== 'package') throw new ManifestParseError(file, `"type" is neither "application" nor "package"`);
  const declarations: ElmDeclaration[] = [];
  for (const [section, kind] of [
    ['dependencies', 'runtime'],
    ['test-dependencies', 'development'],
  ] as const) {
    const value: unknown = doc[section];
    if (type === 'package') {
      for (const [name, requirement] of stringEntries(file, value, section)) {
        declarations.push({ name, type: kind, requirement, path: [section, name], scope: null });
      }
      continue;
    }
    if (value === undefined) continue;
    if (!isTable(value)) throw new ManifestParseError(file, `'${section}' is not an object`);
    for (const scope of ['direct', 'indirect'] as const) {
      for (const [name, requirement] of stringEntries(file, (value as Table)[scope], `${section}.${scope}`)) {
        declarations.push({ name, type: kind, requirement, path: [section, scope, name], scope });
      }
    }
  }
  return { type, declarations };
}
