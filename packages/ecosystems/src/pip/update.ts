import { ManifestParseError } from '../errors.ts';
import { isTable, parseToml, type Table } from '../shared/parse.ts';
import type { Declaration, Located } from '../update/declarations.ts';
import { type ClauseKind, clauseRewriter, type RequirementSyntax } from '../update/rewrite.ts';
import { tomlStringAt, tomlStrings } from '../update/toml-spans.ts';
import { normalisePythonName } from './names.ts';
import { parsePep508 } from './pep508.ts';
import { readRequirementsTxt } from './requirements-txt.ts';
import { pep440Versions } from './versions.ts';

const VERSION = '[0-9][0-9A-Za-z_.*+!-]*';

/** Kinds shared by PEP 440 and Poetry: `==`/`===`/bare pins (compatible with a `.*`), `~=` compatible, bounds, `!=`. */
function pythonKind(operator: string, version: string): ClauseKind {
  if (['', '=', '==', '==='].includes(operator)) return version.includes('*') ? 'compatible' : 'exact';
  if (operator === '~=' || operator === '^' || operator === '~') return 'compatible';
  if (operator === '<') return 'upper';
  if (operator === '<=') return 'upperInclusive';
  return operator === '!=' ? 'not' : 'lower';
}

/**
 * PEP 440 specifier sets (https://peps.python.org/pep-0440/#version-specifiers): comma-separated clauses. `widen` writes
 * a compatible clause as the range dependabot-core's Python updater does (`convert_to_range`: `~=2.2` → `>=2.2,<5.0`).
 */
export const pep440Syntax: RequirementSyntax = {
  scheme: pep440Versions,
  operators: '===|~=|==|!=|<=|>=|<|>',
  version: VERSION,
  between: String.raw`[\s,]*`,
  or: null,
  hyphen: false,
  kind: pythonKind,
  clauseText: (operator, version) => `${operator}${version}`,
  join: '',
  range: (lower, upper) => `>=${lower},<${upper}`,
};

/**
 * Poetry constraints (https://python-poetry.org/docs/dependency-specification/#version-constraints): PEP 440
 * operators plus `^`, `~` and bare pins, clauses separated by `,` or spaces, `||` alternatives.
 */
export const poetrySyntax: RequirementSyntax = {
  ...pep440Syntax,
  operators: String.raw`===|~=|==|!=|<=|>=|<|>|\^|~|=`,
  or: String.raw`\|\|?`,
};

const pep440Rewrite = clauseRewriter(pep440Syntax);
const poetryRewrite = clauseRewriter(poetrySyntax);

type Files = Readonly<Record<string, string>>;

/** Offsets of the starts of the lines of `text` (lines end at `\n`; a `\r` before it stays in the line). */
function lineStarts(text: string): number[] {
  const starts = [0];
  for (let i = text.indexOf('\n'); i >= 0; i = text.indexOf('\n', i + 1)) starts.push(i + 1);
  return starts;
}

/** The declaration of `wanted` in a requirements file: the specifier's span on its line. */
function inRequirementsFile(file: string, text: string, wanted: string, out: Declaration[], unchanged: string[]): string | undefined {
  const lines = readRequirementsTxt(file, text).filter((line) => normalisePythonName(line.name) === wanted);
  const [line, ...more] = lines;
  if (!line) return undefined;
  if (more.length > 0) return `${file}: '${line.name}' is named on several lines (lines ${lines.map((l) => l.line).join(', ')})`;
  if (line.url !== null) return `${file} (line ${line.line}): '${line.name}' is a direct URL reference`;
  const starts = lineStarts(text);
  const physical = (n: number) => text.slice(starts[n - 1] ?? text.length, (starts[n] ?? text.length + 1) - 1).replace(/\r$/, '');
  for (let n = line.line; n <= starts.length; n++) {
    if (/(^|\s)--hash[=\s]/.test(physical(n)))
      return `${file} (line ${line.line}): '${line.name}' is pinned with --hash, which would need the new hashes`;
    if (!physical(n).endsWith('\\')) break;
  }
  if (line.specifier === null) {
    unchanged.push(`${file} (line ${line.line}): no version specifier`);
    return undefined;
  }
  const raw = physical(line.line);
  const nameEnd = raw.indexOf(line.name) + line.name.length;
  const at = raw.indexOf(line.specifier, nameEnd);
  const comment = raw.search(/(^|\s)#/);
  if (nameEnd < line.name.length || at < 0 || (comment >= 0 && at > comment)) {
    return `${file} (line ${line.line}): the specifier of '${line.name}' is split over several lines`;
  }
  const start = (starts[line.line - 1] ?? 0) + at;
  out.push({ file, where: `line ${line.line}`, parts: [{ start, end: start + line.specifier.length }], rewrite: pep440Rewrite });
  return undefined;
}

/** The PEP 508 lists of pyproject.toml (PEP 621, PEP 735, uv) as key paths. */
function pep508Lists(doc: Table): string[][] {
  const project = isTable(doc.project) ? doc.project : {};
  const paths = [['project', 'dependencies']];
  for (const extra of Object.keys(isTable(project['optional-dependencies']) ? project['optional-dependencies'] : {})) {
    paths.push(['project', 'optional-dependencies', extra]);
  }
  for (const group of Object.keys(isTable(doc['dependency-groups']) ? doc['dependency-groups'] : {}))
    paths.push(['dependency-groups', group]);
  paths.push(['tool', 'uv', 'dev-dependencies']);
  return paths;
}

/** The Poetry dependency tables of pyproject.toml as key paths. */
function poetryTables(doc: Table): string[][] {
  const poetry = isTable(doc.tool) && isTable(doc.tool.poetry) ? doc.tool.poetry : {};
  const paths = [['tool', 'poetry', 'dependencies']];
  for (const group of Object.keys(isTable(poetry.group) ? poetry.group : {}))
    paths.push(['tool', 'poetry', 'group', group, 'dependencies']);
  paths.push(['tool', 'poetry', 'dev-dependencies']);
  return paths;
}

const valueAt = (doc: Table, path: readonly string[]): unknown =>
  path.reduce<unknown>((node, key) => (isTable(node) ? node[key] : undefined), doc);

/** The declarations of `wanted` in pyproject.toml: specifiers inside PEP 508 strings, Poetry constraints. */
function inPyproject(text: string, wanted: string, out: Declaration[], unchanged: string[]): string | undefined {
  const file = 'pyproject.toml';
  const doc = parseToml(file, text);
  const strings = tomlStrings(text);
  for (const path of pep508Lists(doc)) {
    const list = valueAt(doc, path);
    if (!Array.isArray(list)) continue;
    for (const [index, item] of list.entries()) {
      if (typeof item !== 'string') continue;
      const parsed = parsePep508(item);
      if (!parsed) throw new ManifestParseError(file, `'${path.join('.')}': cannot read requirement '${item}'`);
      if (normalisePythonName(parsed.name) !== wanted) continue;
      const where = path.join('.');
      if (parsed.url !== null) return `${file} (${where}): '${parsed.name}' is a direct URL reference`;
      if (parsed.specifier === null) {
        unchanged.push(`${file} (${where}): no version specifier`);
        continue;
      }
      const span = tomlStringAt(strings, [...path, String(index)]);
      const at = item.indexOf(parsed.specifier, item.indexOf(parsed.name) + parsed.name.length);
      if (!span || text.slice(span.start, span.end) !== item || at < 0)
        return `${file} (${where}): '${item}' is a multi-line or escaped string`;
      out.push({
        file,
        where,
        parts: [{ start: span.start + at, end: span.start + at + parsed.specifier.length }],
        rewrite: pep440Rewrite,
      });
    }
  }
  for (const path of poetryTables(doc)) {
    const table = valueAt(doc, path);
    if (!isTable(table)) continue;
    const where = path.join('.');
    for (const [key, value] of Object.entries(table)) {
      if (key.toLowerCase() === 'python' || normalisePythonName(key) !== wanted) continue;
      if (Array.isArray(value)) return `${file} (${where}): '${key}' has several constraints (per Python version or platform)`;
      if (isTable(value) && ['git', 'path', 'url'].some((source) => source in value))
        return `${file} (${where}): '${key}' is a git, path or URL dependency`;
      const written = typeof value === 'string' ? value : isTable(value) ? value.version : undefined;
      if (typeof written !== 'string') {
        unchanged.push(`${file} (${where}): '${key}' has no version constraint`);
        continue;
      }
      const span = tomlStringAt(strings, typeof value === 'string' ? [...path, key] : [...path, key, 'version']);
      if (!span || text.slice(span.start, span.end) !== written)
        return `${file} (${where}): the constraint of '${key}' is a multi-line or escaped string`;
      out.push({ file, where, parts: [{ start: span.start, end: span.end }], rewrite: poetryRewrite });
    }
  }
  return undefined;
}

/**
 * The declarations of `name` (PEP 503 normalised) in the requirements files `requirementFiles` present and
 * pyproject.toml: a requirements line's specifier (`requests>=2.28,<3`), a PEP 621/735/uv string's specifier
 * (`"requests[socks]>=2.28 ; python_version>'3.8'"`), a Poetry constraint (`"^2.28"` or `{ version = "^2.28" }`).
 * A line or string without a specifier is unchanged. Cannot: direct URL references, Poetry git/path/url tables
 * and multiple-constraint lists, a package named on several lines of one file (per-marker pins), `--hash` pins,
 * a specifier split over continuation lines, multi-line or escaped TOML strings.
 * @throws ManifestParseError when a file does not parse
 */
export function locatePip(files: Files, name: string, requirementFiles: readonly string[]): Located {
  const wanted = normalisePythonName(name);
  const declarations: Declaration[] = [];
  const unchanged: string[] = [];
  for (const file of requirementFiles) {
    const text = files[file];
    const problem = text === undefined ? undefined : inRequirementsFile(file, text, wanted, declarations, unchanged);
    if (problem) return { cannot: problem };
  }
  const pyproject = files['pyproject.toml'];
  const problem = pyproject === undefined ? undefined : inPyproject(pyproject, wanted, declarations, unchanged);
  if (problem) return { cannot: problem };
  return { declarations, unchanged };
}
