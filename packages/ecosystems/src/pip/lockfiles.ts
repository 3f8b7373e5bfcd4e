import { ManifestParseError } from '../errors.ts';
import { isTable, parseToml } from '../shared/parse.ts';
import { normalisePythonName } from './names.ts';

/**
 * The versions a poetry.lock or uv.lock locks for `name`: both are TOML with `[[package]]` tables holding
 * `name` and `version` (https://python-poetry.org/docs/basic-usage/#installing-with-poetrylock,
 * https://docs.astral.sh/uv/concepts/projects/layout/#the-lockfile). Names compare after PEP 503 normalisation.
 * @throws ManifestParseError when the TOML does not parse or `package` is not an array of tables
 */
export function versionsInPythonLock(file: string, text: string, name: string): string[] {
  const doc = parseToml(file, text);
  const packages = doc.package ?? [];
  if (!Array.isArray(packages)) throw new ManifestParseError(file, "'package' is not an array of tables");
  const wanted = normalisePythonName(name);
  const out: string[] = [];
  for (const entry of packages) {
    if (!isTable(entry)) throw new ManifestParseError(file, "'package' is not an array of tables");
    if (typeof entry.name === 'string' && typeof entry.version === 'string' && normalisePythonName(entry.name) === wanted) {
      out.push(entry.version);
    }
  }
  return out;
}
