import { createHash } from 'node:crypto';
import type { DependencyType } from '../ecosystem.ts';
import { ManifestParseError } from '../errors.ts';
import { isTable, parseJsonObject, parseToml, type Table } from '../shared/parse.ts';
import { pythonJson } from './content-hash.ts';
import { normalisePythonName } from './names.ts';
import { pinnedVersion } from './pep508.ts';

/**
 * Pipenv's files (https://pipenv.pypa.io/en/latest/pipfile.html): the Pipfile (TOML: `[[source]]`, `[packages]`,
 * `[dev-packages]`, custom package categories, `[requires]`, `[scripts]`, `[pipenv]`) and Pipfile.lock (JSON: `_meta`,
 * then one object per category, `default` for `[packages]`, `develop` for `[dev-packages]`, each package with `version`
 * `==x` and `hashes`).
 */

/** Top-level Pipfile tables that are not package categories (pipenv's vendored plette `PIPFILE_SECTIONS`). */
const NOT_CATEGORIES = new Set(['source', 'requires', 'scripts', 'pipenv', 'pipfile']);

/** A Pipfile package category and its Pipfile.lock section: `packages` ↔ `default`, `dev-packages` ↔ `develop`, others by name. */
export function lockSectionOf(category: string): string {
  return category === 'packages' ? 'default' : category === 'dev-packages' ? 'develop' : category;
}

/** A package of a Pipfile category. */
export interface PipfileEntry {
  /** As written (the TOML key). */
  name: string;
  /** `[packages]` is runtime; `[dev-packages]` and custom categories are development. */
  type: DependencyType;
  /** The category's table name (`packages`, `dev-packages`, `docs`...). */
  category: string;
  /** `"*"` and `""` are `*`; the `version` of a table; null for a table without one. */
  requirement: string | null;
  /** The exact pin (`==1.2.3`), else null. */
  pinned: string | null;
  /** False for `git`, `path`, `file` (URL) and `editable` sources. */
  registry: boolean;
}

/** The package categories of a parsed Pipfile, in file order: `packages`, `dev-packages` and custom ones. */
export function pipfileCategories(doc: Table): string[] {
  return Object.keys(doc).filter((key) => !NOT_CATEGORIES.has(key) && isTable(doc[key]));
}

/**
 * The packages of a Pipfile: `[packages]` (runtime), then `[dev-packages]` and custom categories (development), each in
 * file order. A value is a specifier string (`"*"`, `"==1.2"`, `">=2.7"`) or a table with `version`, `extras`, `markers`,
 * `index`, or a `git`/`path`/`file` source (not a registry package). `[source]`, `[requires]`, `[scripts]`, `[pipenv]`
 * are not dependencies.
 * @throws ManifestParseError when the TOML does not parse
 */
export function readPipfile(file: string, text: string): PipfileEntry[] {
  const doc = parseToml(file, text);
  const categories = pipfileCategories(doc).sort((a, b) => rank(a) - rank(b));
  const out: PipfileEntry[] = [];
  for (const category of categories) {
    const table = doc[category] as Table;
    for (const [name, value] of Object.entries(table)) {
      const written = typeof value === 'string' ? value : isTable(value) && typeof value.version === 'string' ? value.version : null;
      const requirement = written === null ? null : written.trim() === '' ? '*' : written.trim();
      const registry = !isTable(value) || !['git', 'path', 'file', 'editable'].some((key) => key in value);
      out.push({
        name,
        type: category === 'packages' ? 'runtime' : 'development',
        category,
        requirement,
        pinned: pinnedVersion(requirement),
        registry,
      });
    }
  }
  return out;
}

const rank = (category: string) => (category === 'packages' ? 0 : category === 'dev-packages' ? 1 : 2);

/**
 * The versions Pipfile.lock locks, by section (`default`, `develop`, custom categories) and PEP 503 normalised name, the
 * `==` removed (`"version": "==2.31.0"` → `2.31.0`). Entries without a `version` (git, path) are left out.
 * @throws ManifestParseError when the JSON does not parse or a section is not an object
 */
export function readPipfileLock(file: string, text: string): Map<string, Map<string, string>> {
  const doc = parseJsonObject(file, text);
  const out = new Map<string, Map<string, string>>();
  for (const [section, packages] of Object.entries(doc)) {
    if (section === '_meta') continue;
    if (!isTable(packages)) throw new ManifestParseError(file, `'${section}' is not an object`);
    const versions = new Map<string, string>();
    for (const [name, entry] of Object.entries(packages)) {
      const version = isTable(entry) ? entry.version : entry;
      if (typeof version === 'string') versions.set(normalisePythonName(name), version.replace(/^===?\s*/, '').trim());
    }
    out.set(section, versions);
  }
  return out;
}

/** pipenv's default source when a Pipfile has none (plette `DEFAULT_SOURCE_TOML`). */
const DEFAULT_SOURCE = [{ name: 'pypi', url: 'https://pypi.org/simple', verify_ssl: true }];

/**
 * What pipenv hashes: `{"_meta": {"sources": …, "requires": …}, "default": packages, "develop": dev-packages}`, plus
 * with `categories` every custom category under its name (pipenv 2022.10+, plette's `Pipfile.get_hash`; older pipenv and
 * the `pipfile` library hashed the first three only).
 */
function hashedContent(doc: Table, categories: boolean): Table {
  const data: Table = {
    _meta: { sources: doc.source ?? DEFAULT_SOURCE, requires: doc.requires ?? {} },
    default: doc.packages ?? {},
    develop: doc['dev-packages'] ?? {},
  };
  if (categories) {
    for (const key of Object.keys(doc)) {
      if (NOT_CATEGORIES.has(key) || ['packages', 'dev-packages', 'default', 'develop'].includes(key)) continue;
      data[key] = doc[key];
    }
  }
  return data;
}

/**
 * The hashes of a Pipfile text as pipenv versions compute Pipfile.lock's `_meta.hash.sha256`: the SHA-256 in hex of
 * `json.dumps(content, sort_keys=True, separators=(",", ":"))` (UTF-8, ASCII escapes) of {@link hashedContent}, with and
 * without custom categories (https://github.com/pypa/pipenv, `pipenv/vendor/plette/pipfiles.py` `get_hash`).
 * @returns `[withCategories, withoutCategories]` (equal without custom categories); null entries for values Python's
 *   JSON would write differently (floats, dates)
 * @throws ManifestParseError when the TOML does not parse
 */
export function pipfileHashes(text: string): [string | null, string | null] {
  const doc = parseToml('Pipfile', text);
  const hash = (categories: boolean) => {
    try {
      return createHash('sha256')
        .update(pythonJson(hashedContent(doc, categories), true), 'utf8')
        .digest('hex');
    } catch (error) {
      if (error instanceof TypeError) return null;
      throw error;
    }
  };
  return [hash(true), hash(false)];
}

/**
 * Pipfile.lock's `_meta.hash.sha256` for the `updated` Pipfile, computed the way that reproduces `lockedHash` from the
 * `original` Pipfile ({@link pipfileHashes}); null when neither way does.
 * @throws ManifestParseError when a Pipfile does not parse
 */
export function updatedPipfileHash(original: string, updated: string, lockedHash: string): string | null {
  const before = pipfileHashes(original);
  const after = pipfileHashes(updated);
  const way = before.findIndex((hash) => hash !== null && hash === lockedHash);
  return way < 0 ? null : (after[way] ?? null);
}
