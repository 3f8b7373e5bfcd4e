import { ManifestParseError } from '../errors.ts';
import type { RegistryVersionDetails } from '../registry-data.ts';
import { lineStarts } from '../shared/lines.ts';
import { isTable, parseToml, type Table } from '../shared/parse.ts';
import type { Declaration, Located } from '../update/declarations.ts';
import { type ClauseKind, clauseRewriter, type RequirementRewriter, type RequirementSyntax } from '../update/rewrite.ts';
import { tomlStringAt, tomlStrings } from '../update/toml-spans.ts';
import { pipRequirementsFiles } from './files.ts';
import { lessThanMarker } from './markers.ts';
import { normalisePythonName } from './names.ts';
import { parsePep508 } from './pep508.ts';
import { pipfileCategories } from './pipfile.ts';
import { requirementsLineSkip } from './python-version.ts';
import { type RequirementLine, readRequirementsTxt } from './requirements-txt.ts';
import { readSetupCfg } from './setup-cfg.ts';
import { readSetupPy } from './setup-py.ts';
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

/** One `--hash=<algorithm>:<hex>` option of a requirement (also `--hash <algorithm>:<hex>`), and its offsets. */
const HASH_OPTION = /(?<=^|\s)--hash(=|[ \t]+)([A-Za-z0-9]+):([0-9A-Fa-f]+)(?=\s|\\|$)/g;

/**
 * The rewriter of a hash-pinned requirement (`name==1.2.3 \` then `--hash=sha256:<hex>` lines: pip's hash-checking mode,
 * https://pip.pypa.io/en/stable/topics/secure-installs/#hash-checking-mode), whose parts are the specifier and the run of
 * `--hash` options: the specifier moves as any (`pep440Rewrite`), and the hashes become one per artifact of the target
 * as `details` (the registry's description of the target) gives them, as dependabot-core's `RequirementReplacer`
 * (`python/lib/dependabot/python/file_updater/requirement_replacer.rb`) replaced them: the algorithm of the first hash
 * written, the option written as the first one is (`--hash=`), joined by the text between the first two hashes (else
 * the text before the first: ` \` + line break + indentation, or a space). The digests are sorted and each written once
 * (pip-compile's `--generate-hashes` order; Dependabot kept PyPI's file order). Cannot without `details`, when they
 * describe another version, when an artifact has no hex digest of the algorithm, or when they list no artifact.
 */
function hashPinRewriter(
  name: string,
  option: { assign: string; algorithm: string; separator: string },
  details: RegistryVersionDetails | undefined,
): RequirementRewriter {
  return (parts, target, strategy) => {
    const moved = pep440Rewrite([parts[0] ?? ''], target, strategy);
    if (!('parts' in moved)) return moved;
    const { assign, algorithm, separator } = option;
    if (!details)
      return {
        cannot: `'${name}' is pinned with --hash: the registry's description of ${target} (its ${algorithm} digests) is needed to write the new hashes`,
      };
    if (!pep440Versions.isValid(details.version) || pep440Versions.compare(details.version, target) !== 0)
      return { cannot: `'${name}' is pinned with --hash: the registry's description is of ${details.version}, not ${target}` };
    const digests = new Set<string>();
    for (const artifact of details.artifacts) {
      const digest = artifact.digests.find((d) => d.algorithm === algorithm.toLowerCase() && d.encoding === 'hex');
      if (!digest) return { cannot: `'${name}' is pinned with --hash: the registry gives no ${algorithm} digest of ${artifact.filename}` };
      digests.add(digest.value.toLowerCase());
    }
    if (digests.size === 0) return { cannot: `'${name}' is pinned with --hash: the registry lists no files of ${target}` };
    const hashes = [...digests].sort().map((hex) => `--hash${assign}${algorithm}:${hex}`);
    return { parts: [moved.parts[0] ?? '', hashes.join(separator)] };
  };
}

/**
 * The declaration of `wanted` in a requirements file: the specifier's span on its line, and when the requirement carries
 * `--hash` options (on its line or its `\` continuation lines), also the span from the first hash to the last, rewritten
 * with the target's digests from `details` ({@link hashPinRewriter}).
 */
function inRequirementsFile(
  file: string,
  text: string,
  wanted: string,
  out: Declaration[],
  unchanged: string[],
  details: RegistryVersionDetails | undefined,
  skip: (line: RequirementLine) => string | undefined,
): string | undefined {
  const lines = readRequirementsTxt(file, text).filter((line) => normalisePythonName(line.name) === wanted && skip(line) === undefined);
  const [line, ...more] = lines;
  if (!line) return undefined;
  if (more.length > 0) return `${file}: '${line.name}' is named on several lines (lines ${lines.map((l) => l.line).join(', ')})`;
  if (line.url !== null) return `${file} (line ${line.line}): '${line.name}' is a direct URL reference`;
  const starts = lineStarts(text);
  const physical = (n: number) => text.slice(starts[n - 1] ?? text.length, (starts[n] ?? text.length + 1) - 1).replace(/\r$/, '');
  let last = line.line;
  while (physical(last).endsWith('\\') && last < starts.length) last++;
  const from = starts[line.line - 1] ?? 0;
  const logical = text.slice(from, (starts[last - 1] ?? 0) + physical(last).length);
  const hashes = [...logical.matchAll(HASH_OPTION)];
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
  const start = from + at;
  const specifier = { start, end: start + line.specifier.length };
  const [first] = hashes;
  const final = hashes.at(-1);
  if (!first || !final) {
    out.push({ file, where: `line ${line.line}`, parts: [specifier], rewrite: pep440Rewrite });
    return undefined;
  }
  const run = logical.slice(first.index, final.index + final[0].length);
  if (first.index < at + line.specifier.length || !/^(?:--hash(?:=|[ \t]+)[A-Za-z0-9]+:[0-9A-Fa-f]+|\s|\\)*$/.test(run))
    return `${file} (line ${line.line}): the --hash options of '${line.name}' are mixed with other text`;
  const second = hashes[1];
  const separator = second
    ? logical.slice(first.index + first[0].length, second.index)
    : trailingSeparator(logical.slice(0, first.index)) || ' ';
  out.push({
    file,
    where: `line ${line.line}`,
    parts: [specifier, { start: from + first.index, end: from + final.index + final[0].length }],
    rewrite: hashPinRewriter(line.name, { assign: first[1] ?? '=', algorithm: first[2] ?? 'sha256', separator }, details),
    requirement: line.specifier,
  });
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
      if (normalisePythonName(parsed.name) !== wanted || lessThanMarker(parsed.marker) !== undefined) continue;
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

/** The declarations of `wanted` in a Pipfile: each category's specifier string or `version` (`"==2.31"`, `{version = ">=2"}`). */
function inPipfile(text: string, wanted: string, out: Declaration[], unchanged: string[]): string | undefined {
  const file = 'Pipfile';
  const doc = parseToml(file, text);
  const strings = tomlStrings(text);
  for (const category of pipfileCategories(doc)) {
    for (const [key, value] of Object.entries(doc[category] as Table)) {
      if (normalisePythonName(key) !== wanted) continue;
      if (isTable(value) && ['git', 'path', 'file', 'editable'].some((source) => source in value))
        return `${file} ([${category}]): '${key}' is a git, path or file dependency`;
      const written = typeof value === 'string' ? value : isTable(value) ? value.version : undefined;
      if (typeof written !== 'string') {
        unchanged.push(`${file} ([${category}]): '${key}' has no version`);
        continue;
      }
      const span = tomlStringAt(strings, typeof value === 'string' ? [category, key] : [category, key, 'version']);
      if (!span || text.slice(span.start, span.end) !== written)
        return `${file} ([${category}]): the version of '${key}' is a multi-line or escaped string`;
      out.push({ file, where: `[${category}]`, parts: [{ start: span.start, end: span.end }], rewrite: pep440Rewrite });
    }
  }
  return undefined;
}

/**
 * The declarations of `wanted` among setup.py's string literals or setup.cfg's requirement lines (`requirements`, with
 * their spans in `file`): the specifier inside each.
 */
function inSetupFile(
  file: string,
  requirements: readonly { value: string; start: number; end: number; line: number; group: string; plain?: boolean }[],
  wanted: string,
  out: Declaration[],
  unchanged: string[],
): string | undefined {
  for (const r of requirements) {
    const parsed = parsePep508(r.value.replace(/(^|\s)#.*$/, '').trim());
    if (!parsed || normalisePythonName(parsed.name) !== wanted || lessThanMarker(parsed.marker) !== undefined) continue;
    const where = `${r.group}, line ${r.line}`;
    if (r.plain === false) return `${file} (${where}): '${parsed.name}' is written in a string with escapes or a prefix`;
    if (parsed.url !== null) return `${file} (${where}): '${parsed.name}' is a direct URL reference`;
    if (parsed.specifier === null) {
      unchanged.push(`${file} (${where}): no version specifier`);
      continue;
    }
    const nameEnd = r.value.indexOf(parsed.name) + parsed.name.length;
    const at = r.value.indexOf(parsed.specifier, nameEnd);
    if (at < 0) return `${file} (${where}): the specifier of '${parsed.name}' is not written in one piece`;
    out.push({ file, where, parts: [{ start: r.start + at, end: r.start + at + parsed.specifier.length }], rewrite: pep440Rewrite });
  }
  return undefined;
}

/**
 * The declarations of `name` (PEP 503 normalised) in the files read: the requirements files (the named ones, those
 * `requirementFiles` adds, and what they include with `-r`, and constraints files named with `-c`; never a pip-compile
 * output, which is a lockfile) and pyproject.toml, Pipfile, setup.py and setup.cfg: a requirements line's specifier
 * (`requests>=2.28,<3`), a PEP 621/735/uv string's specifier (`"requests[socks]>=2.28 ; python_version>'3.8'"`), a Poetry
 * constraint (`"^2.28"` or `{ version = "^2.28" }`), a Pipfile specifier (`"==2.28"`, `{version = "==2.28"}`), a setup.py
 * string literal's or setup.cfg line's specifier. Declarations the reader skips for their marker are left as they are
 * (a requirements-file line `blocking_marker?` blocks, a PEP 621/735 or setup string whose marker holds `<`: markers.ts).
 * A line or string without a specifier is unchanged. Cannot: direct URL
 * references, Poetry git/path/url tables and multiple-constraint lists, Pipfile git/path/file packages, a package named
 * on several lines of one file that count (per-marker pins whose markers do not skip all but one), a specifier split over continuation lines, multi-line or escaped TOML
 * strings, setup.py strings with escapes or prefixes. A requirement pinned with `--hash` options is located with its
 * hashes, which its rewrite replaces by the target's digests from `details` (the registry's description of the target
 * version; without it, a hash pin that must move is `cannot`: {@link hashPinRewriter}).
 * @throws ManifestParseError when a file does not parse
 */
export function locatePip(files: Files, name: string, requirementFiles: readonly string[] = [], details?: RegistryVersionDetails): Located {
  const wanted = normalisePythonName(name);
  const declarations: Declaration[] = [];
  const unchanged: string[] = [];
  const roles = pipRequirementsFiles(files, requirementFiles);
  const skip = requirementsLineSkip(files);
  for (const { file, role } of roles) {
    const text = files[file];
    if (role === 'compiled' || text === undefined) continue;
    const problem = inRequirementsFile(file, text, wanted, declarations, unchanged, details, skip);
    if (problem) return { cannot: problem };
  }
  const checks: [string, (text: string) => string | undefined][] = [
    ['pyproject.toml', (text) => inPyproject(text, wanted, declarations, unchanged)],
    ['Pipfile', (text) => inPipfile(text, wanted, declarations, unchanged)],
    ['setup.py', (text) => inSetupFile('setup.py', readSetupPy('setup.py', text).requirements, wanted, declarations, unchanged)],
    ['setup.cfg', (text) => inSetupFile('setup.cfg', readSetupCfg('setup.cfg', text).requirements, wanted, declarations, unchanged)],
  ];
  for (const [file, check] of checks) {
    const text = files[file];
    const problem = text === undefined ? undefined : check(text);
    if (problem) return { cannot: problem };
  }
  return { declarations, unchanged };
}

/** The run of white space and `\` at the end of `text` (what `/[\s\\]*$/` matches, without its quadratic backtracking). */
function trailingSeparator(text: string): string {
  let start = text.length;
  while (start > 0 && /[\s\\]/.test(text.charAt(start - 1))) start--;
  return text.slice(start);
}
