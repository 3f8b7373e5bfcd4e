import type { LockfileRequest, LockfileUpdate } from '../ecosystem.ts';
import { ManifestParseError } from '../errors.ts';
import type { RegistryArtifact, RegistryDependency } from '../registry-data.ts';
import { isTable, parseToml, type Table } from '../shared/parse.ts';
import { tomlStringAt, tomlStrings } from '../update/toml-spans.ts';
import { poetryContentHash } from './content-hash.ts';
import { pipRequirementsFiles } from './files.ts';
import { compiledOutputs } from './includes.ts';
import { allows, markerExcluded, pythonFloor, sha256Of } from './lock-checks.ts';
import { lessThanMarker } from './markers.ts';
import { normalisePythonName } from './names.ts';
import { parsePep508 } from './pep508.ts';
import { updateCompiledOutput } from './pip-compile.ts';
import { updatePipfileLock } from './pipfile-lock.ts';
import { readPyproject } from './pyproject.ts';

type Edit = { start: number; end: number; text: string };
type Outcome = { text: string } | { needsResolution: string };

/** A TOML basic string (what poetry.lock and uv.lock write: double quotes, `\` and `"` escaped). */
const tomlString = (value: string) => JSON.stringify(value);

/** Applies non-overlapping edits to `text`. */
function applyEdits(text: string, edits: readonly Edit[]): string {
  let out = text;
  for (const edit of [...edits].sort((a, b) => b.start - a.start)) out = out.slice(0, edit.start) + edit.text + out.slice(edit.end);
  return out;
}

/** The lines of a TOML document with their offsets (`end` before the line break). */
function linesOf(text: string): { start: number; end: number; line: string }[] {
  const out: { start: number; end: number; line: string }[] = [];
  let start = 0;
  while (start <= text.length) {
    const next = text.indexOf('\n', start);
    const end = next < 0 ? text.length : next;
    out.push({ start, end, line: text.slice(start, end).replace(/\r$/, '') });
    if (next < 0) break;
    start = next + 1;
  }
  return out;
}

/**
 * The `[[package]]` blocks of a poetry.lock or uv.lock as line ranges: each from its header to the next `[[...]]` or
 * top-level table header that is not a `[package.…]` sub-table; `main` ends at its first sub-table.
 */
function packageBlocks(text: string): { start: number; mainEnd: number; end: number }[] {
  const blocks: { start: number; mainEnd: number; end: number }[] = [];
  let current: { start: number; mainEnd?: number } | undefined;
  const close = (end: number) => {
    if (current) blocks.push({ start: current.start, mainEnd: current.mainEnd ?? end, end });
    current = undefined;
  };
  for (const { start, line } of linesOf(text)) {
    const header = /^\s*(\[\[?)\s*([^\]]+?)\s*\]/.exec(line);
    if (!header) continue;
    const [, brackets, name = ''] = header;
    if (brackets === '[[' && name === 'package') {
      close(start);
      current = { start };
    } else if (current && name.startsWith('package.')) current.mainEnd ??= start;
    else close(start);
  }
  close(text.length);
  return blocks;
}

/**
 * The span of the value of `key = …` at the start of a line between `from` and `to`: to the end of the line, or for a
 * value opening an array or inline table left open on its line, to the line that closes it (`]` / `}` alone).
 */
function valueSpan(text: string, from: number, to: number, key: string): Edit | undefined {
  const lines = linesOf(text).filter((l) => l.start >= from && l.start < to);
  const pattern = new RegExp(
    String.raw`^(${key.replace(/[.*+?^${}()|[\]\\-]/g, '\\$&')}|"${key.replace(/[.*+?^${}()|[\]\\-]/g, '\\$&')}")\s*=\s*`,
  );
  for (const [index, l] of lines.entries()) {
    const match = pattern.exec(l.line);
    if (!match) continue;
    const start = l.start + match[0].length;
    const opening = l.line.slice(match[0].length).trim();
    const close = opening === '[' ? ']' : opening === '{' ? '}' : undefined;
    if (close === undefined) return { start, end: l.start + l.line.length, text: '' };
    const last = lines.slice(index + 1).find((next) => next.line.trim() === close);
    return last ? { start, end: last.start + last.line.length, text: '' } : undefined;
  }
  return undefined;
}

/** The `[[package]]` tables of a parsed lock. */
function packagesOf(file: string, doc: Table): Table[] {
  const list = doc.package ?? [];
  if (!Array.isArray(list) || !list.every(isTable)) throw new ManifestParseError(file, "'package' is not an array of tables");
  return list;
}

/** The check every lock shares: each applying runtime dependency of the target is locked at a version it allows. */
function unmetDependency(
  file: string,
  request: LockfileRequest,
  packages: readonly Table[],
  floor: string | undefined,
): string | undefined {
  const { target } = request;
  const wanted = normalisePythonName(request.use.name);
  for (const dependency of target.dependencies ?? []) {
    if (markerExcluded(dependency, floor)) continue;
    const name = normalisePythonName(dependency.name);
    const met = packages.some(
      (p) =>
        typeof p.name === 'string' &&
        normalisePythonName(p.name) === name &&
        name !== wanted &&
        typeof p.version === 'string' &&
        allows(p.version, dependency.requirement),
    );
    if (!met)
      return `${target.name} ${target.version} requires ${dependency.name} ${dependency.requirement}, which ${file} does not satisfy`;
  }
  return undefined;
}

/** The one `[[package]]` of `wanted` and its index, or why there is not exactly one. */
function entryOf(file: string, packages: readonly Table[], wanted: string): { index: number; entry: Table } | string {
  const found = packages.flatMap((entry, index) =>
    typeof entry.name === 'string' && normalisePythonName(entry.name) === wanted ? [{ index, entry }] : [],
  );
  if (found.length === 0) return `${file} does not lock ${wanted}`;
  if (found.length > 1) return `${file} locks ${wanted} at several versions (per marker)`;
  return found[0] as { index: number; entry: Table };
}

/** A requirement as a sorted set of clauses without white space, for comparing what poetry.lock wrote with the registry's. */
const clauseSet = (requirement: string) =>
  requirement
    .replace(/\s+/g, '')
    .split(',')
    .filter((c) => c !== '' && c !== '*')
    .sort()
    .join(',');

/** A marker with white space collapsed and single quotes as double, for comparison. */
const markerKey = (marker: string | undefined) => (marker ?? '').replace(/'/g, '"').replace(/\s+/g, ' ').trim();

/**
 * Poetry's constraint text of a PEP 440 specifier: lower bounds before upper bounds (`<3,>=1.21.1` → `>=1.21.1,<3`),
 * a lone `==1.0` as `1.0`, none as `*`.
 */
function poetryConstraint(requirement: string): string {
  const clauses = requirement
    .replace(/\s+/g, '')
    .split(',')
    .filter((c) => c !== '' && c !== '*');
  if (clauses.length === 0) return '*';
  if (clauses.length === 1 && /^==[^*]+$/.test(clauses[0] ?? '')) return (clauses[0] ?? '').slice(2);
  const rank = (c: string) => (c.startsWith('>') ? 0 : c.startsWith('<') ? 2 : 1);
  return [...clauses].sort((a, b) => rank(a) - rank(b)).join(',');
}

/** poetry.lock `[package.dependencies]` lines of the target (runtime and optional), in registry order. */
function poetryDependencyLines(dependencies: readonly RegistryDependency[]): string[] {
  return dependencies.map((d) => {
    const constraint = tomlString(poetryConstraint(d.requirement));
    if (d.kind === 'runtime' && !d.condition) return `${d.name} = ${constraint}`;
    const parts = [`version = ${constraint}`];
    if (d.kind !== 'runtime') parts.push('optional = true');
    if (d.condition) parts.push(`markers = ${tomlString(d.condition.replace(/'/g, '"'))}`);
    return `${d.name} = {${parts.join(', ')}}`;
  });
}

/** Do the target's dependencies say what the locked `[package.dependencies]` table says (names, clause sets, markers)? */
function sameDependencies(locked: unknown, dependencies: readonly RegistryDependency[]): boolean {
  const table = isTable(locked) ? locked : {};
  const old = new Map(
    Object.entries(table).map(([name, value]) => {
      const spec = typeof value === 'string' ? value : isTable(value) && typeof value.version === 'string' ? value.version : '*';
      const markers = isTable(value) && typeof value.markers === 'string' ? value.markers : undefined;
      return [normalisePythonName(name), `${clauseSet(spec)};${markerKey(markers)}`];
    }),
  );
  if (old.size !== dependencies.length) return false;
  return dependencies.every((d) => old.get(normalisePythonName(d.name)) === `${clauseSet(d.requirement)};${markerKey(d.condition)}`);
}

/**
 * poetry.lock updated for `request` (https://python-poetry.org/docs/basic-usage/#installing-with-poetrylock): in the
 * target's `[[package]]`, `version`, `files` (each artifact as `{file = …, hash = "sha256:…"}`, sorted by file name; in
 * `[metadata.files]` for lock-version 1) and `[package.dependencies]` (rewritten only when the registry's dependencies
 * differ from it: names, clause sets or markers; written as Poetry constraints, see {@link poetryConstraint});
 * `[metadata] content-hash` recomputed with {@link poetryContentHash} when pyproject.toml changed. Other dependents'
 * constraints on the target must allow it. Everything else keeps its text (`description`, `python-versions`,
 * `[package.extras]` are as locked: the registry port does not carry them).
 */
function updatePoetryLock(text: string, request: LockfileRequest): Outcome {
  const file = 'poetry.lock';
  const doc = parseToml(file, text);
  const packages = packagesOf(file, doc);
  const wanted = normalisePythonName(request.use.name);
  const found = entryOf(file, packages, wanted);
  if (typeof found === 'string') return { needsResolution: found };
  const metadata = isTable(doc.metadata) ? doc.metadata : {};
  const unmet = unmetDependency(file, request, packages, pythonFloor(metadata['python-versions']));
  if (unmet) return { needsResolution: unmet };
  for (const entry of packages) {
    const deps = isTable(entry.dependencies) ? entry.dependencies : {};
    for (const [name, value] of Object.entries(deps)) {
      if (normalisePythonName(name) !== wanted || entry === found.entry) continue;
      const alternatives = Array.isArray(value) ? value : [value];
      for (const alternative of alternatives) {
        const spec =
          typeof alternative === 'string'
            ? alternative
            : isTable(alternative) && typeof alternative.version === 'string'
              ? alternative.version
              : '*';
        if (!allows(request.target.version, spec))
          return { needsResolution: `${String(entry.name)} requires ${name} ${spec}, which ${request.target.version} does not satisfy` };
      }
    }
  }

  const edits: Edit[] = [];
  const version = tomlStringAt(tomlStrings(text), ['package', String(found.index), 'version']);
  if (!version) return { needsResolution: `${file}: the version of ${wanted} is not a plain string` };
  edits.push({ start: version.start, end: version.end, text: request.target.version.replace(/["\\]/g, '') });

  const files = [...request.target.artifacts].sort((a, b) => (a.filename < b.filename ? -1 : a.filename > b.filename ? 1 : 0));
  const hashes: string[] = [];
  for (const artifact of files) {
    const hash = sha256Of(artifact);
    if (!hash) return { needsResolution: `the registry gives no SHA-256 of ${artifact.filename}` };
    hashes.push(`    {file = ${tomlString(artifact.filename)}, hash = ${tomlString(hash)}},`);
  }
  const filesValue = hashes.length === 0 ? '[]' : `[\n${hashes.join('\n')}\n]`;
  const block = packageBlocks(text)[found.index];
  if (!block) return { needsResolution: `${file}: cannot find the [[package]] of ${wanted}` };
  const own = valueSpan(text, block.start, block.mainEnd, 'files');
  if (own) edits.push({ ...own, text: filesValue });
  else {
    const lines = linesOf(text);
    const header = lines.find((l) => /^\[metadata\.files\]\s*$/.test(l.line));
    const next = header && lines.find((l) => l.start > header.start && /^\[/.test(l.line));
    const name = typeof found.entry.name === 'string' ? found.entry.name : wanted;
    const legacy = header && valueSpan(text, header.start, next?.start ?? text.length, name);
    if (!legacy) return { needsResolution: `${file}: no files list of ${wanted}` };
    edits.push({ ...legacy, text: filesValue });
  }

  const dependencies = request.target.dependencies ?? [];
  if (!sameDependencies(found.entry.dependencies, dependencies)) {
    const lines = linesOf(text).filter((l) => l.start >= block.mainEnd && l.start < block.end);
    const header = lines.find((l) => /^\[package\.dependencies\]\s*$/.test(l.line));
    const section = dependencies.length === 0 ? '' : `[package.dependencies]\n${poetryDependencyLines(dependencies).join('\n')}\n\n`;
    if (header) {
      const next = lines.find((l) => l.start > header.start && /^\[/.test(l.line));
      edits.push({ start: header.start, end: next?.start ?? block.end, text: section });
    } else edits.push({ start: block.mainEnd, end: block.mainEnd, text: section });
  }

  const before = request.files['pyproject.toml'];
  const after = request.updated['pyproject.toml'];
  if (before !== undefined && after !== undefined && before !== after) {
    const locked = metadata['content-hash'];
    const span = tomlStringAt(tomlStrings(text), ['metadata', 'content-hash']);
    if (typeof locked !== 'string' || !span) return { needsResolution: `${file} has no content-hash to recompute` };
    const hash = poetryContentHash(before, after, locked);
    if (hash === null)
      return { needsResolution: `${file}: the content-hash is not reproduced from pyproject.toml by a known Poetry algorithm` };
    edits.push({ start: span.start, end: span.end, text: hash });
  }
  return { text: applyEdits(text, edits) };
}

/** uv's `upload-time`: RFC 3339 UTC to the millisecond, trailing zeros of the fraction dropped (`2024-07-26T18:15:02.05Z`). */
function uvTime(time: string): string | undefined {
  const ms = Date.parse(time);
  if (Number.isNaN(ms)) return undefined;
  return new Date(ms).toISOString().replace(/\.?0+Z$/, 'Z');
}

/** One uv.lock file table: `{ url = …, hash = …, size = … , upload-time = … }` (size and time where known). */
function uvFile(artifact: RegistryArtifact, withTime: boolean): string | undefined {
  const hash = sha256Of(artifact);
  if (!hash) return undefined;
  const parts = [`url = ${tomlString(artifact.url)}`, `hash = ${tomlString(hash)}`];
  const size = artifact.attributes?.size;
  if (size !== undefined && /^\d+$/.test(size)) parts.push(`size = ${size}`);
  const time = withTime && artifact.attributes?.['upload-time'] ? uvTime(artifact.attributes['upload-time']) : undefined;
  if (time) parts.push(`upload-time = ${tomlString(time)}`);
  return `{ ${parts.join(', ')} }`;
}

/** The PEP 440 specifiers pyproject.toml's PEP 621 / PEP 735 / uv lists give `wanted`, in file order, without white space. */
function pep621Specifiers(text: string | undefined, wanted: string): string[] {
  if (text === undefined) return [];
  const doc = parseToml('pyproject.toml', text);
  const project = isTable(doc.project) ? doc.project : {};
  const uv = isTable(doc.tool) && isTable(doc.tool.uv) ? doc.tool.uv : {};
  // concat, not a spread: a table of 200,000 extras would throw RangeError as spread arguments.
  const lists: unknown[] = [project.dependencies].concat(
    isTable(project['optional-dependencies']) ? Object.values(project['optional-dependencies']) : [],
    isTable(doc['dependency-groups']) ? Object.values(doc['dependency-groups']) : [],
    [uv['dev-dependencies']],
  );
  return lists.flatMap((list) =>
    (Array.isArray(list) ? list : []).flatMap((item) => {
      const parsed = typeof item === 'string' ? parsePep508(item) : undefined;
      return parsed && normalisePythonName(parsed.name) === wanted && parsed.specifier !== null
        ? [parsed.specifier.replace(/\s+/g, '')]
        : [];
    }),
  );
}

/**
 * uv.lock updated for `request` (https://docs.astral.sh/uv/concepts/projects/layout/#the-lockfile): in the target's
 * `[[package]]`, `version`, `sdist` and `wheels` (from the artifacts by `packagetype`, with `size` and, when the lock
 * writes them, `upload-time`), and `dependencies` (rewritten only when the names or markers differ, and only for
 * dependencies without a marker: uv writes markers simplified against `requires-python`, which is not reproduced);
 * when pyproject.toml changed, the project's `[package.metadata] requires-dist` / `requires-dev` specifiers of the
 * target become the new ones. uv.lock records no constraint of other locked packages on the target, so those are
 * not checked. `[package.optional-dependencies]` stays as locked.
 */
function updateUvLock(text: string, request: LockfileRequest): Outcome {
  const file = 'uv.lock';
  const doc = parseToml(file, text);
  const packages = packagesOf(file, doc);
  const wanted = normalisePythonName(request.use.name);
  const found = entryOf(file, packages, wanted);
  if (typeof found === 'string') return { needsResolution: found };
  if (!isTable(found.entry.source) || typeof found.entry.source.registry !== 'string')
    return { needsResolution: `${file}: ${wanted} is not locked from a registry` };
  const unmet = unmetDependency(file, request, packages, pythonFloor(doc['requires-python']));
  if (unmet) return { needsResolution: unmet };

  const block = packageBlocks(text)[found.index];
  if (!block) return { needsResolution: `${file}: cannot find the [[package]] of ${wanted}` };
  const edits: Edit[] = [];
  const strings = tomlStrings(text);
  const version = tomlStringAt(strings, ['package', String(found.index), 'version']);
  if (!version) return { needsResolution: `${file}: the version of ${wanted} is not a plain string` };
  edits.push({ start: version.start, end: version.end, text: request.target.version.replace(/["\\]/g, '') });

  const withTime = /upload-time\s*=/.test(text.slice(block.start, block.end));
  const sdists = request.target.artifacts.filter((a) => a.attributes?.packagetype === 'sdist' || /\.(tar\.gz|zip)$/.test(a.filename));
  const wheels = request.target.artifacts.filter((a) => !sdists.includes(a) && a.filename.endsWith('.whl'));
  const sdistSpan = valueSpan(text, block.start, block.mainEnd, 'sdist');
  const wheelsSpan = valueSpan(text, block.start, block.mainEnd, 'wheels');
  if (sdistSpan) {
    const sdist = sdists[0] && uvFile(sdists[0], withTime);
    if (!sdist)
      return { needsResolution: `the registry gives no sdist with a SHA-256 of ${request.target.name} ${request.target.version}` };
    edits.push({ ...sdistSpan, text: sdist });
  }
  if (wheelsSpan) {
    const written = wheels.map((w) => uvFile(w, withTime));
    if (written.some((w) => w === undefined))
      return { needsResolution: `the registry gives a wheel of ${request.target.name} without a SHA-256` };
    edits.push({ ...wheelsSpan, text: written.length === 0 ? '[]' : `[\n${written.map((w) => `    ${w},`).join('\n')}\n]` });
  } else if (wheels.length > 0 && !sdistSpan) return { needsResolution: `${file}: ${wanted} has no sdist or wheels to rewrite` };

  const runtime = (request.target.dependencies ?? []).filter((d) => d.kind === 'runtime');
  const lockedDeps = Array.isArray(found.entry.dependencies) ? found.entry.dependencies.filter(isTable) : [];
  const key = (name: string, marker: string | undefined) => `${normalisePythonName(name)};${markerKey(marker)}`;
  const oldKeys = lockedDeps.map((d) => key(String(d.name), typeof d.marker === 'string' ? d.marker : undefined)).sort();
  const newKeys = runtime.map((d) => key(d.name, d.condition)).sort();
  if (JSON.stringify(oldKeys) !== JSON.stringify(newKeys)) {
    if (runtime.some((d) => d.condition))
      return {
        needsResolution: `the dependencies of ${request.target.name} ${request.target.version} changed and carry markers uv.lock writes simplified`,
      };
    const names = [...new Set(runtime.map((d) => normalisePythonName(d.name)))].sort();
    const value = names.length === 0 ? undefined : `[\n${names.map((n) => `    { name = ${tomlString(n)} },`).join('\n')}\n]`;
    const span = valueSpan(text, block.start, block.mainEnd, 'dependencies');
    if (span) {
      if (value) edits.push({ ...span, text: value });
      else {
        const lineEnd = text.indexOf('\n', span.end);
        edits.push({ start: text.lastIndexOf('\n', span.start) + 1, end: lineEnd < 0 ? text.length : lineEnd + 1, text: '' });
      }
    } else if (value) {
      const anchor = valueSpan(text, block.start, block.mainEnd, 'source');
      if (!anchor) return { needsResolution: `${file}: cannot place the dependencies of ${wanted}` };
      edits.push({ start: anchor.end, end: anchor.end, text: `\ndependencies = ${value}` });
    }
  }

  // the project's own requirements on the target (`[package.metadata]`, a sub-table of the project's [[package]])
  const before = request.files['pyproject.toml'];
  const after = request.updated['pyproject.toml'];
  const changed = before !== undefined && after !== undefined && before !== after;
  const oldSpecs = changed ? pep621Specifiers(before, wanted) : [];
  const newSpecs = changed ? pep621Specifiers(after, wanted) : [];
  const renamed = new Map(oldSpecs.map((spec, i) => [spec, newSpecs[i] ?? spec]));
  for (const s of strings) {
    const at = s.path.indexOf('metadata');
    const list = s.path[at + 1];
    if (s.path[0] !== 'package' || at < 0 || (list !== 'requires-dist' && list !== 'requires-dev') || s.path.at(-1) !== 'specifier')
      continue;
    const sibling = s.path.slice(0, -1).join('\u0000');
    const name = strings.find(
      (n) => n.path.length === s.path.length && n.path.slice(0, -1).join('\u0000') === sibling && n.path.at(-1) === 'name',
    );
    if (!name || normalisePythonName(text.slice(name.start, name.end)) !== wanted) continue;
    const current = text.slice(s.start, s.end);
    const next = renamed.get(current.replace(/\s+/g, '')) ?? current;
    if (!allows(request.target.version, next))
      return { needsResolution: `${file}: the project's requirement '${current}' of ${wanted} does not allow ${request.target.version}` };
    if (next !== current) edits.push({ start: s.start, end: s.end, text: next });
  }
  return { text: applyEdits(text, edits) };
}

/**
 * The pip ecosystem's lockfile update (see {@link Ecosystem.updateLockfiles}): poetry.lock ({@link updatePoetryLock}),
 * uv.lock ({@link updateUvLock}), Pipfile.lock ({@link updatePipfileLock}), each present one rewritten, and the
 * pip-compile output of each `.in` read ({@link updateCompiledOutput}, {@link compiledOutputs}) that pins or declares the package; needsResolution
 * when the registry publishes no dependencies for the target, pyproject.toml (as updated) declares a requirement that
 * does not allow it, or a lock cannot be updated faithfully. Every runtime dependency of the target whose marker is not
 * known to exclude it (see {@link markerExcluded}) must be locked at a version its specifier allows.
 * @throws ManifestParseError when a lockfile or manifest does not parse
 */
export function updatePythonLocks(request: LockfileRequest): LockfileUpdate {
  const out: Record<string, string> = {};
  const locks = (['poetry.lock', 'uv.lock'] as const).filter((file) => request.files[file] !== undefined);
  const compiled = compiledOutputs(request.files, pipRequirementsFiles(request.files));
  const any = locks.length > 0 || request.files['Pipfile.lock'] !== undefined;
  if (any && request.target.dependencies === null)
    return { needsResolution: `the registry does not publish the dependencies of ${request.target.name} ${request.target.version}` };
  const pyproject = request.updated['pyproject.toml'];
  const wanted = normalisePythonName(request.use.name);
  for (const entry of locks.length > 0 && pyproject !== undefined ? readPyproject('pyproject.toml', pyproject) : []) {
    if (lessThanMarker(entry.marker) !== undefined) continue; // skipped by the reader, not updated
    if (normalisePythonName(entry.name) === wanted && entry.requirement !== null && !allows(request.target.version, entry.requirement))
      return { needsResolution: `pyproject.toml: '${entry.requirement}' does not allow ${request.target.version}` };
  }
  for (const file of locks) {
    const text = request.files[file] as string;
    const result = file === 'poetry.lock' ? updatePoetryLock(text, request) : updateUvLock(text, request);
    if ('needsResolution' in result) return result;
    out[file] = result.text;
  }
  const pipfileLock = request.files['Pipfile.lock'];
  if (pipfileLock !== undefined) {
    const result = updatePipfileLock(pipfileLock, request);
    if ('needsResolution' in result) return result;
    out['Pipfile.lock'] = result.text;
  }
  for (const [outFile, inFile] of compiled) {
    const result = updateCompiledOutput(inFile, outFile, request);
    if ('needsResolution' in result) return result;
    if ('text' in result) out[outFile] = result.text;
  }
  return { files: out };
}
