import type { LockfileRequest } from '../ecosystem.ts';
import { isTable, parseJsonObject } from '../shared/parse.ts';
import { jsonStringAt, jsonStrings } from '../update/json-spans.ts';
import { allows, markerExcluded, targetSha256s } from './lock-checks.ts';
import { normalisePythonName } from './names.ts';
import { readPipfile, updatedPipfileHash } from './pipfile.ts';

type Edit = { start: number; end: number; text: string };
type Outcome = { text: string } | { needsResolution: string };

/** Applies non-overlapping edits to `text`. */
function applyEdits(text: string, edits: readonly Edit[]): string {
  let out = text;
  for (const edit of [...edits].sort((a, b) => b.start - a.start)) out = out.slice(0, edit.start) + edit.text + out.slice(edit.end);
  return out;
}

/** The white space that starts the line holding `offset`. */
function indentAt(text: string, offset: number): string {
  const lineStart = text.lastIndexOf('\n', offset - 1) + 1;
  return /^[ \t]*/.exec(text.slice(lineStart))?.[0] ?? '';
}

/**
 * Pipfile.lock updated for `request` (https://pipenv.pypa.io/en/latest/pipfile.html): in every section locking the
 * package (`default`, `develop`, custom categories), its `version` becomes `==<target>` and its `hashes` the SHA-256 of
 * each of the target's artifacts (`sha256:<hex>`, sorted, as pipenv writes them, one a line with the lock's indentation);
 * `_meta.hash.sha256` is recomputed for the updated Pipfile when it changed ({@link updatedPipfileHash}, as pipenv's
 * plette computes it). Everything else keeps its text (`markers`, `index`, the other packages).
 * needsResolution: the lock does not lock the package from the index (absent, a git/path entry, no hashes list), an
 * artifact has no SHA-256, a runtime dependency of the target whose marker is not known not to apply is not locked in the
 * same section at a version it allows, the Pipfile's requirement does not allow the target, or the locked hash is not
 * reproduced from the Pipfile. Pipfile.lock records no requirement of one locked package on another, so what other
 * packages require of the target is not checked.
 */
export function updatePipfileLock(text: string, request: LockfileRequest): Outcome {
  const file = 'Pipfile.lock';
  const doc = parseJsonObject(file, text);
  const wanted = normalisePythonName(request.use.name);
  const { target } = request;
  if (target.dependencies === null)
    return { needsResolution: `the registry does not publish the dependencies of ${target.name} ${target.version}` };
  const pipfile = request.updated.Pipfile;
  for (const entry of pipfile === undefined ? [] : readPipfile('Pipfile', pipfile)) {
    if (normalisePythonName(entry.name) === wanted && entry.requirement !== null && !allows(target.version, entry.requirement))
      return { needsResolution: `Pipfile: '${entry.requirement}' does not allow ${target.version}` };
  }
  const sections = Object.entries(doc).flatMap(([section, packages]) => {
    if (section === '_meta' || !isTable(packages)) return [];
    const key = Object.keys(packages).find((name) => normalisePythonName(name) === wanted);
    return key === undefined ? [] : [{ section, key, packages, entry: packages[key] }];
  });
  if (sections.length === 0) return { needsResolution: `${file} does not lock ${wanted}` };

  const digests = targetSha256s(target);
  if ('needsResolution' in digests) return digests;
  const { hashes } = digests;

  const meta = isTable(doc._meta) ? doc._meta : {};
  const requires = isTable(meta.requires) ? meta.requires : {};
  const floor = [requires.python_full_version, requires.python_version].find((v): v is string => typeof v === 'string');
  const strings = jsonStrings(text);
  const edits: Edit[] = [];
  for (const { section, key, packages, entry } of sections) {
    if (!isTable(entry) || typeof entry.version !== 'string' || !Array.isArray(entry.hashes))
      return { needsResolution: `${file} ([${section}]): ${key} is not locked from an index with hashes` };
    for (const dependency of target.dependencies ?? []) {
      if (markerExcluded(dependency, floor)) continue;
      const name = normalisePythonName(dependency.name);
      if (name === wanted) continue;
      const locked = Object.entries(packages).find(([n]) => normalisePythonName(n) === name)?.[1];
      const version = isTable(locked) && typeof locked.version === 'string' ? locked.version.replace(/^===?\s*/, '') : undefined;
      if (version === undefined || !allows(version, dependency.requirement))
        return {
          needsResolution: `${target.name} ${target.version} requires ${dependency.name} ${dependency.requirement}, which ${file} ([${section}]) does not satisfy`,
        };
    }
    const version = jsonStringAt(strings, [section, key, 'version']);
    if (!version) return { needsResolution: `${file} ([${section}]): the version of ${key} is not a plain string` };
    edits.push({ start: version.start, end: version.end, text: `==${target.version.replace(/["\\]/g, '')}` });
    const old = strings.filter((s) => s.path.length === 4 && s.path[0] === section && s.path[1] === key && s.path[2] === 'hashes');
    const first = old[0];
    const last = old.at(-1);
    if (!first || !last) return { needsResolution: `${file} ([${section}]): ${key} has no hashes to rewrite` };
    const open = text.lastIndexOf('[', first.start);
    const close = text.indexOf(']', last.end);
    const eol = text.includes('\r\n') ? '\r\n' : '\n';
    const indent = indentAt(text, first.start);
    const closing = indentAt(text, close);
    const multiline = text.slice(open, first.start).includes('\n');
    const body = multiline
      ? `${eol}${hashes.map((h) => `${indent}"${h}"`).join(`,${eol}`)}${eol}${closing}`
      : hashes.map((h) => `"${h}"`).join(', ');
    edits.push({ start: open + 1, end: close, text: body });
  }
  const before = request.files.Pipfile;
  if (before !== undefined && pipfile !== undefined && before !== pipfile) {
    const hash = isTable(meta.hash) ? meta.hash.sha256 : undefined;
    const span = jsonStringAt(strings, ['_meta', 'hash', 'sha256']);
    if (typeof hash !== 'string' || !span) return { needsResolution: `${file} has no _meta.hash.sha256 to recompute` };
    const updated = updatedPipfileHash(before, pipfile, hash);
    if (updated === null) return { needsResolution: `${file}: _meta.hash.sha256 is not reproduced from the Pipfile as pipenv computes it` };
    edits.push({ start: span.start, end: span.end, text: updated });
  }
  return { text: applyEdits(text, edits) };
}
