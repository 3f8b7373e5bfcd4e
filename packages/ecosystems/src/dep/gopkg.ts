import { ManifestParseError } from '../errors.ts';
import { isTable, parseToml, type Table } from '../shared/parse.ts';

/** A `[[constraint]]` or `[[override]]` of Gopkg.toml (https://golang.github.io/dep/docs/Gopkg.toml.html). */
export interface DepRule {
  kind: 'constraint' | 'override';
  /** Its index among the rules of its kind (the `[[constraint]]` array's index). */
  index: number;
  /** The project root's import path, e.g. `github.com/pkg/errors`. */
  name: string;
  /** `version` as written (a semver constraint or a non-semver tag), or null. */
  version: string | null;
  branch: string | null;
  revision: string | null;
  /** `source`: where the project is fetched from instead of its name (a fork, a mirror), or null. */
  source: string | null;
}

/** A `[[projects]]` entry of Gopkg.lock (https://golang.github.io/dep/docs/Gopkg.lock.html). */
export interface DepLockedProject {
  index: number;
  name: string;
  /** The tag locked (`v0.8.1`), or null for a branch or a bare revision. */
  version: string | null;
  branch: string | null;
  revision: string | null;
  digest: string | null;
  source: string | null;
}

const text = (file: string, table: Table, key: string, where: string): string | null => {
  const value = table[key];
  if (value === undefined) return null;
  if (typeof value !== 'string') throw new ManifestParseError(file, `${where}: '${key}' is not a string`);
  return value;
};

/** The array of tables under `key`, [] when absent. @throws ManifestParseError when it is something else */
function tables(file: string, doc: Table, key: string): Table[] {
  const value = doc[key];
  if (value === undefined) return [];
  if (!Array.isArray(value) || !value.every(isTable)) throw new ManifestParseError(file, `'${key}' is not an array of tables`);
  return value;
}

/**
 * Reads Gopkg.toml's rules: every `[[constraint]]` then every `[[override]]` (each with `name`; `version`, `branch`,
 * `revision`, `source` when given). `required`, `ignored`, `[prune]` and `[metadata]` are not about versions.
 * @throws ManifestParseError when the TOML does not parse, a rule has no `name`, or a key has the wrong type
 */
export function readGopkgToml(file: string, source: string): DepRule[] {
  const doc = parseToml(file, source);
  const out: DepRule[] = [];
  for (const kind of ['constraint', 'override'] as const) {
    for (const [index, rule] of tables(file, doc, kind).entries()) {
      const where = `[[${kind}]] #${index + 1}`;
      const name = text(file, rule, 'name', where);
      if (name === null || name.trim() === '') throw new ManifestParseError(file, `${where} has no name`);
      out.push({
        kind,
        index,
        name: name.trim(),
        version: text(file, rule, 'version', where),
        branch: text(file, rule, 'branch', where),
        revision: text(file, rule, 'revision', where),
        source: text(file, rule, 'source', where),
      });
    }
  }
  return out;
}

/**
 * Reads Gopkg.lock's `[[projects]]` (`name`, `version`, `branch`, `revision`, `digest`, `source`).
 * @throws ManifestParseError when the TOML does not parse, `projects` is not an array of tables, or a project has no name
 */
export function readGopkgLock(file: string, source: string): DepLockedProject[] {
  const doc = parseToml(file, source);
  return tables(file, doc, 'projects').map((project, index) => {
    const where = `[[projects]] #${index + 1}`;
    const name = text(file, project, 'name', where);
    if (name === null || name.trim() === '') throw new ManifestParseError(file, `${where} has no name`);
    return {
      index,
      name: name.trim(),
      version: text(file, project, 'version', where),
      branch: text(file, project, 'branch', where),
      revision: text(file, project, 'revision', where),
      digest: text(file, project, 'digest', where),
      source: text(file, project, 'source', where),
    };
  });
}

/** Does dep's `inputs-digest` (dep before 0.5, `[solve-meta]`) appear in the lock? */
export function hasInputsDigest(file: string, source: string): boolean {
  const meta = parseToml(file, source)['solve-meta'];
  return isTable(meta) && typeof meta['inputs-digest'] === 'string';
}
