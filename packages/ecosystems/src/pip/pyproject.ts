import type { DependencyType } from '../ecosystem.ts';
import { ManifestParseError } from '../errors.ts';
import { isTable, parseToml, type Table, tableAt } from '../shared/parse.ts';
import { parsePep508, pinnedVersion } from './pep508.ts';

/** A dependency found in pyproject.toml. */
export interface PyprojectEntry {
  name: string;
  type: DependencyType;
  /** PEP 440 specifier (PEP 621 sections) or Poetry constraint (Poetry sections) as written; null when none. */
  requirement: string | null;
  /** The exact pin (`==1.2.3`, Poetry `1.2.3`), else null. */
  pinned: string | null;
  /** Installed from an index (false for a PEP 508 `name @ url` and Poetry `git`/`path`/`url` dependencies). */
  registry: boolean;
  /** A PEP 508 string's environment marker (after `;`), else null (none, or a Poetry dependency). */
  marker: string | null;
  /** A PEP 508 string: its key path in the document (`['project', 'dependencies', '0']`) and its text. */
  source?: { path: string[]; text: string };
}

function pep508Entries(file: string, list: unknown, path: readonly string[], type: DependencyType): PyprojectEntry[] {
  const where = path.join('.');
  if (list === undefined) return [];
  if (!Array.isArray(list)) throw new ManifestParseError(file, `'${where}' is not an array`);
  const out: PyprojectEntry[] = [];
  for (const [index, item] of list.entries()) {
    if (isTable(item)) continue; // PEP 735 `{ include-group = "test" }`
    if (typeof item !== 'string') throw new ManifestParseError(file, `'${where}' holds a non-string entry`);
    const parsed = parsePep508(item);
    if (!parsed) throw new ManifestParseError(file, `'${where}': cannot read requirement '${item}'`);
    out.push({
      name: parsed.name,
      type,
      requirement: parsed.specifier,
      pinned: pinnedVersion(parsed.specifier),
      registry: parsed.url === null,
      marker: parsed.marker,
      source: { path: [...path, String(index)], text: item },
    });
  }
  return out;
}

/** A Poetry dependency value: `"^1.2"`, `{ version = "^1.2", extras = [...] }`, `{ git = ... }` or a list of such tables. */
function poetryRequirement(value: unknown): string | null {
  if (typeof value === 'string') return value.trim();
  if (isTable(value)) return typeof value.version === 'string' ? value.version.trim() : null;
  if (Array.isArray(value)) {
    const versions = value.map(poetryRequirement).filter((v): v is string => v !== null);
    return versions.length === 0 ? null : versions.join(' || ');
  }
  return null;
}

/** Is a Poetry dependency value installed from a package index (not a `git`, `path` or `url` table, nor a list of only those)? */
function poetryFromIndex(value: unknown): boolean {
  if (isTable(value)) return !['git', 'path', 'url'].some((key) => key in value);
  if (Array.isArray(value)) return value.some(poetryFromIndex);
  return true;
}

function poetryEntries(table: Table | undefined, type: DependencyType): PyprojectEntry[] {
  if (!table) return [];
  const out: PyprojectEntry[] = [];
  for (const [name, value] of Object.entries(table)) {
    if (name.toLowerCase() === 'python') continue;
    const requirement = poetryRequirement(value);
    const exact = requirement === null ? null : /^(?:==?)?\s*(\d[^\s,*|<>=^~!]*)$/.exec(requirement)?.[1];
    out.push({ name, type, requirement, pinned: exact ?? null, registry: poetryFromIndex(value), marker: null });
  }
  return out;
}

/**
 * All dependencies of a pyproject.toml, in this order:
 * - PEP 621 `[project] dependencies` (runtime) and `[project.optional-dependencies]` (development), PEP 508 strings
 *   (https://packaging.python.org/en/latest/specifications/pyproject-toml/);
 * - PEP 735 `[dependency-groups]` and uv's `[tool.uv] dev-dependencies` (development);
 * - Poetry `[tool.poetry.dependencies]` (runtime, `python` skipped), `[tool.poetry.group.<name>.dependencies]`
 *   (development, except group `main`) and the older `[tool.poetry.dev-dependencies]` (development)
 *   (https://python-poetry.org/docs/pyproject/).
 * @throws ManifestParseError when the TOML does not parse or a section has the wrong shape
 */
export function readPyproject(file: string, text: string): PyprojectEntry[] {
  const doc = parseToml(file, text);
  const out: PyprojectEntry[] = [];
  // A loop, not `out.push(...entries)`: a spread of a list as long as the file's throws RangeError past ~100,000 entries.
  const add = (entries: readonly PyprojectEntry[]) => {
    for (const entry of entries) out.push(entry);
  };
  const project = tableAt(file, doc, 'project');
  if (project) {
    add(pep508Entries(file, project.dependencies, ['project', 'dependencies'], 'runtime'));
    const optional = tableAt(file, project, 'optional-dependencies') ?? {};
    for (const [extra, list] of Object.entries(optional)) {
      add(pep508Entries(file, list, ['project', 'optional-dependencies', extra], 'development'));
    }
  }
  for (const [group, list] of Object.entries(tableAt(file, doc, 'dependency-groups') ?? {})) {
    add(pep508Entries(file, list, ['dependency-groups', group], 'development'));
  }
  const tool = tableAt(file, doc, 'tool') ?? {};
  const uv = tableAt(file, tool, 'uv');
  if (uv) add(pep508Entries(file, uv['dev-dependencies'], ['tool', 'uv', 'dev-dependencies'], 'development'));
  const poetry = tableAt(file, tool, 'poetry');
  if (poetry) {
    add(poetryEntries(tableAt(file, poetry, 'dependencies'), 'runtime'));
    for (const [group, body] of Object.entries(tableAt(file, poetry, 'group') ?? {})) {
      if (!isTable(body)) throw new ManifestParseError(file, `'tool.poetry.group.${group}' is not a table`);
      add(poetryEntries(tableAt(file, body, 'dependencies'), group === 'main' ? 'runtime' : 'development'));
    }
    add(poetryEntries(tableAt(file, poetry, 'dev-dependencies'), 'development'));
  }
  return out;
}
