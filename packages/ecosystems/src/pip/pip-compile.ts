import type { LockfileRequest } from '../ecosystem.ts';
import { allows, markerExcluded, targetSha256s } from './lock-checks.ts';
import { normalisePythonName } from './names.ts';
import { pinnedVersion } from './pep508.ts';
import { readRequirementsTxt } from './requirements-txt.ts';

type Outcome = { text: string } | { needsResolution: string } | { unchanged: true };

/** The lines of `text` with their offsets (`end` before the line break, a `\r` left out). */
function linesOf(text: string): { start: number; end: number; line: string }[] {
  const out: { start: number; end: number; line: string }[] = [];
  let start = 0;
  for (;;) {
    const next = text.indexOf('\n', start);
    const end = next < 0 ? text.length : next;
    const line = text.slice(start, end).replace(/\r$/, '');
    out.push({ start, end: start + line.length, line });
    if (next < 0) return out;
    start = next + 1;
  }
}

/**
 * A pip-compile output `outFile` (https://pip-tools.readthedocs.io/, the `.txt` `pip-compile` writes for the `.in`
 * `inFile`: its own `.txt`, or the one its `--output-file` names) updated for `request`: the package's pin line `name==<old>` becomes `name==<target>` (extras and markers kept) and, when the
 * line carries `--hash=sha256:…` options, those continuation lines become one per artifact of the target (sorted, as
 * pip-compile `--generate-hashes` writes them, with the same indentation); the `# via` comments stay.
 * needsResolution: the package is declared by the `.in` (as updated) but not pinned once in the output, the `.in`'s
 * requirement does not allow the target, an artifact has no SHA-256 where hashes are written, or a runtime dependency of
 * the target whose marker is not known not to apply is not pinned in the output at a version it allows. The output does
 * not record what the other pinned packages require of the target (only `# via` names), so that is not checked.
 * `unchanged` when the `.in` does not declare the package and the output does not pin it.
 */
export function updateCompiledOutput(inFile: string, outFile: string, request: LockfileRequest): Outcome {
  const text = request.files[outFile] ?? '';
  const { target } = request;
  const wanted = normalisePythonName(request.use.name);
  const declared = readRequirementsTxt(inFile, request.updated[inFile] ?? '').filter((l) => normalisePythonName(l.name) === wanted);
  const pins = readRequirementsTxt(outFile, text).filter((l) => normalisePythonName(l.name) === wanted);
  if (declared.length === 0 && pins.length === 0) return { unchanged: true };
  for (const line of declared) {
    if (line.specifier !== null && !allows(target.version, line.specifier))
      return { needsResolution: `${inFile} (line ${line.line}): '${line.specifier}' does not allow ${target.version}` };
  }
  const [pin, ...more] = pins;
  if (!pin || more.length > 0 || pinnedVersion(pin.specifier) === null)
    return { needsResolution: `${outFile} does not pin ${wanted} once with ==` };
  if (target.dependencies === null)
    return { needsResolution: `the registry does not publish the dependencies of ${target.name} ${target.version}` };
  const pinned = readRequirementsTxt(outFile, text);
  for (const dependency of target.dependencies) {
    if (markerExcluded(dependency, undefined)) continue;
    const name = normalisePythonName(dependency.name);
    if (name === wanted) continue;
    const versions = pinned.filter((l) => normalisePythonName(l.name) === name).map((l) => pinnedVersion(l.specifier));
    if (!versions.some((v) => v !== null && allows(v, dependency.requirement)))
      return {
        needsResolution: `${target.name} ${target.version} requires ${dependency.name} ${dependency.requirement}, which ${outFile} does not pin`,
      };
  }

  const lines = linesOf(text);
  const first = lines[pin.line - 1];
  if (!first) return { needsResolution: `${outFile}: cannot find the pin of ${wanted}` };
  const version = /==\s*([^\s;\\,]+)/.exec(first.line);
  if (!version?.[1] || version.index === undefined) return { needsResolution: `${outFile} (line ${pin.line}): the pin is not on one line` };
  const versionStart = first.start + version.index + version[0].length - version[1].length;
  const edits: { start: number; end: number; text: string }[] = [
    { start: versionStart, end: versionStart + version[1].length, text: target.version },
  ];
  const hashLines: typeof lines = [];
  for (let n = pin.line; first.line.endsWith('\\') && n < lines.length; n++) {
    const line = lines[n];
    if (!line) break;
    if (/^\s+--hash[=\s]/.test(line.line)) hashLines.push(line);
    else return { needsResolution: `${outFile} (line ${n + 1}): an option other than --hash continues the pin of ${wanted}` };
    if (!line.line.endsWith('\\')) break;
  }
  const firstHash = hashLines[0];
  const lastHash = hashLines.at(-1);
  if (firstHash && lastHash) {
    const digests = targetSha256s(target);
    if ('needsResolution' in digests) return digests;
    const { hashes } = digests;
    const indent = /^\s*/.exec(firstHash.line)?.[0] ?? '    ';
    const eol = text.includes('\r\n') ? '\r\n' : '\n';
    const continued = lastHash.line.endsWith('\\');
    const written = hashes.map((h, i) => `${indent}--hash=${h}${i < hashes.length - 1 || continued ? ' \\' : ''}`).join(eol);
    edits.push({ start: firstHash.start, end: lastHash.end, text: written });
  }
  let out = text;
  for (const edit of edits.sort((a, b) => b.start - a.start)) out = out.slice(0, edit.start) + edit.text + out.slice(edit.end);
  return { text: out };
}
