import { createHash } from 'node:crypto';
import { isTable, parseToml, type Table } from '../shared/parse.ts';

/**
 * A value as Python's `json.dumps(value, sort_keys=True)` writes it (separators `, ` and `: `, or `,` and `:` when
 * `compact`, as `separators=(",", ":")` asks; `ensure_ascii`: every non-ASCII character as lowercase `\uXXXX`, keys
 * sorted by code point).
 * @throws TypeError for a value JSON cannot hold the way tomllib reads it into Python (floats, dates)
 */
export function pythonJson(value: unknown, compact = false): string {
  const [item, key] = compact ? [',', ':'] : [', ', ': '];
  if (value === null || value === undefined) return 'null';
  if (typeof value === 'boolean') return value ? 'true' : 'false';
  if (typeof value === 'number' || typeof value === 'bigint') {
    if (typeof value === 'number' && !Number.isInteger(value)) throw new TypeError('a float');
    return String(value);
  }
  if (typeof value === 'string') {
    let out = '"';
    for (let i = 0; i < value.length; i++) {
      const char = value.charAt(i);
      const code = value.charCodeAt(i);
      if (char === '"') out += '\\"';
      else if (char === '\\') out += '\\\\';
      else if (char === '\n') out += '\\n';
      else if (char === '\r') out += '\\r';
      else if (char === '\t') out += '\\t';
      else if (char === '\b') out += '\\b';
      else if (char === '\f') out += '\\f';
      else if (code < 0x20 || code > 0x7e) out += `\\u${code.toString(16).padStart(4, '0')}`;
      else out += char;
    }
    return `${out}"`;
  }
  if (Array.isArray(value)) return `[${value.map((v) => pythonJson(v, compact)).join(item)}]`;
  if (isTable(value)) {
    const keys = Object.keys(value).sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${keys.map((k) => `${pythonJson(k)}${key}${pythonJson(value[k], compact)}`).join(item)}}`;
  }
  throw new TypeError(`cannot encode ${Object.prototype.toString.call(value)}`);
}

const sha256 = (text: string) => createHash('sha256').update(text, 'utf8').digest('hex');

/** `pyproject[key1][key2]...`, undefined when a step is missing or not a table. */
const at = (doc: Table, ...path: string[]): unknown => path.reduce<unknown>((node, key) => (isTable(node) ? node[key] : undefined), doc);

/**
 * The content Poetry 2's `Locker._get_content_hash` hashes
 * (https://github.com/python-poetry/poetry/blob/main/src/poetry/packages/locker.py): `project`'s `requires-python`,
 * `dependencies`, `optional-dependencies` present; `tool.poetry`'s `dependencies`, `source`, `extras`,
 * `dev-dependencies` (each, null when absent, unless there is `project` content) and `group` when present; with
 * `project` content `{"project": …, "tool": {"poetry": …}}` plus `dependency-groups` when present, else the
 * `tool.poetry` content at the top level.
 */
function poetry2Content(doc: Table): Table {
  const project: Table = {};
  for (const key of ['requires-python', 'dependencies', 'optional-dependencies']) {
    const value = at(doc, 'project', key);
    if (value !== undefined) project[key] = value;
  }
  const hasProject = Object.keys(project).length > 0;
  const poetry: Table = {};
  const legacy = ['dependencies', 'source', 'extras', 'dev-dependencies'];
  for (const key of [...legacy, 'group']) {
    const value = at(doc, 'tool', 'poetry', key);
    if (value === undefined && (!legacy.includes(key) || hasProject)) continue;
    poetry[key] = value ?? null;
  }
  if (!hasProject) return poetry;
  const content: Table = { project, tool: { poetry } };
  const groups = at(doc, 'dependency-groups');
  if (isTable(groups) && Object.keys(groups).length > 0) content['dependency-groups'] = groups;
  return content;
}

/**
 * The content Poetry 1.2 – 1.8 hashes: `tool.poetry`'s `dependencies`, `source`, `extras`, `dev-dependencies` (null
 * when absent) and `group` when present.
 */
function poetry1Content(doc: Table): Table {
  const poetry: Table = {};
  for (const key of ['dependencies', 'source', 'extras', 'dev-dependencies']) poetry[key] = at(doc, 'tool', 'poetry', key) ?? null;
  const group = at(doc, 'tool', 'poetry', 'group');
  if (group !== undefined) poetry.group = group;
  return poetry;
}

/** The content Poetry 1.0 – 1.1 hashes: `tool.poetry`'s `dependencies`, `dev-dependencies`, `source`, `extras` (null when absent). */
function poetryLegacyContent(doc: Table): Table {
  const poetry: Table = {};
  for (const key of ['dependencies', 'dev-dependencies', 'source', 'extras']) poetry[key] = at(doc, 'tool', 'poetry', key) ?? null;
  return poetry;
}

/** The ways Poetry releases have computed `content-hash`, newest first. */
const ALGORITHMS = [poetry2Content, poetry1Content, poetryLegacyContent];

/**
 * Recomputes poetry.lock's `[metadata] content-hash` for `updated` (a pyproject.toml text) the way the Poetry release
 * that wrote the lock computed it for `original`: of the algorithms of Poetry 2 (`project` and `tool.poetry`), Poetry
 * 1.2 – 1.8 and Poetry 1.0 – 1.1 (`Locker._get_content_hash`,
 * https://github.com/python-poetry/poetry/blob/main/src/poetry/packages/locker.py: SHA-256 in hex of
 * `json.dumps(content, sort_keys=True)`), the first whose hash of `original` is `lockedHash` is applied to `updated`.
 * @returns the new hash, or null when no algorithm reproduces `lockedHash` (or a value, a float or a date, cannot be
 *   encoded the way Python does)
 * @throws ManifestParseError when a text is not TOML
 */
export function poetryContentHash(original: string, updated: string, lockedHash: string): string | null {
  const before = parseToml('pyproject.toml', original);
  const after = parseToml('pyproject.toml', updated);
  for (const content of ALGORITHMS) {
    try {
      if (sha256(pythonJson(content(before))) === lockedHash) return sha256(pythonJson(content(after)));
    } catch (error) {
      if (!(error instanceof TypeError)) throw error;
    }
  }
  return null;
}
