import { ManifestParseError } from '../errors.ts';
import { isTable, parseToml } from '../shared/parse.ts';
import { normalisePythonName } from './names.ts';

/**
 * The versions a poetry.lock or uv.lock locks, by PEP 503 normalised name (a name can be locked at several
 * versions, e.g. per platform in uv.lock). Both are TOML with `[[package]]` tables holding `name` and `version`
 * (https://python-poetry.org/docs/basic-usage/#installing-with-poetrylock,
 * https://docs.astral.sh/uv/concepts/projects/layout/#the-lockfile).
 * @throws ManifestParseError when the TOML does not parse or `package` is not an array of tables
 */
export function readPythonLock(file: string, text: string): Map<string, string[]> {
  const doc = parseToml(file, text);
  const packages = doc.package ?? [];
  if (!Array.isArray(packages)) throw new ManifestParseError(file, "'package' is not an array of tables");
  const out = new Map<string, string[]>();
  for (const entry of packages) {
    if (!isTable(entry)) throw new ManifestParseError(file, "'package' is not an array of tables");
    if (typeof entry.name !== 'string' || typeof entry.version !== 'string') continue;
    const name = normalisePythonName(entry.name);
    out.set(name, [...(out.get(name) ?? []), entry.version]);
  }
  return out;
}
