import type { ManifestUpdate } from '../ecosystem.ts';
import { InvalidVersionError } from '../errors.ts';
import { readGoMod, replacementOf } from './go-mod.ts';
import { compareGoVersions, parseGoVersion, versionFitsPath } from './versions.ts';

/**
 * Rewrites the `require` of module `path` in go.mod to `target` (a Go module version): only the version token changes
 * (inside its quotes when quoted), every `require` of the path is edited (single-line ones and those in blocks, also one
 * marked `// indirect`), and when the version is followed by blanks and a `//` comment aligned in a column (two blanks or
 * more), the blanks are lengthened or shortened (to one at least) so the comment keeps its column. Line endings and
 * everything else stay.
 * `unchanged` when go.mod already requires `target`; `cannot` when: go.mod does not require the module; a `replace`
 * applies to the version in use (the replacement is what builds: the require line does not choose it); `target` is
 * lower than the version required (minimal version selection would keep the higher); `target` is not of the module
 * path's major version (`/v2` is another module; a v2+ version of a path without suffix only as `+incompatible`), or is
 * `+incompatible` while the version in use is not (`go get -u` does not move a module with a go.mod to one without);
 * go.mod `exclude`s the target.
 * `manifest` is the go.mod's path in `files` (`go.mod`; a workspace module's `a/go.mod`), the key of the file given back.
 * @throws ManifestParseError when go.mod does not parse; InvalidVersionError when `target` is not a Go module version
 */
export function updateGoMod(files: Readonly<Record<string, string>>, path: string, target: string, manifest = 'go.mod'): ManifestUpdate {
  const MANIFEST = manifest;
  const text = files[MANIFEST];
  if (text === undefined) return { cannot: `no ${MANIFEST}` };
  const wanted = target.trim();
  const to = parseGoVersion(wanted);
  if (to === null) throw new InvalidVersionError('Go', target);
  const mod = readGoMod(MANIFEST, text);
  const requires = mod.requires.filter((r) => r.path === path);
  if (requires.length === 0) return { cannot: `${MANIFEST} does not require ${path}` };
  for (const require of requires) {
    const replaced = replacementOf(mod, path, require.version.value);
    if (replaced) {
      const by = replaced.local ? `the directory ${replaced.newPath}` : `${replaced.newPath} ${replaced.newVersion}`;
      return { cannot: `${MANIFEST} replaces ${path} ${require.version.value} by ${by}: the replacement is what builds` };
    }
    const from = parseGoVersion(require.version.value);
    if (from === null) return { cannot: `${MANIFEST} requires ${path} at '${require.version.value}', not a canonical Go module version` };
    if (compareGoVersions(require.version.value, wanted) > 0) {
      return { cannot: `${MANIFEST} requires ${path} ${require.version.value}, above ${wanted}: a minimum version is never lowered` };
    }
    if (to.incompatible && !from.incompatible) {
      return { cannot: `${wanted} is an +incompatible version; ${path} is in use at ${require.version.value}, a version with a go.mod` };
    }
  }
  if (!versionFitsPath(path, wanted)) return { cannot: `${wanted} is not a version of the module path ${path} (another major version)` };
  if (mod.excludes.some((e) => e.path === path && e.version === wanted)) return { cannot: `${MANIFEST} excludes ${path} ${wanted}` };
  if (requires.every((r) => r.version.value === wanted)) return { unchanged: `${MANIFEST} requires ${path} ${wanted} already` };

  const edits: { start: number; end: number; text: string }[] = [];
  for (const require of requires) {
    const token = require.version;
    if (token.value === wanted) continue;
    const inner = token.quoted ? { start: token.start + 1, end: token.end - 1 } : { start: token.start, end: token.end };
    edits.push({ ...inner, text: wanted });
    // a comment aligned in a column after the version keeps its column as far as the blanks allow
    const { commentStart } = require.line;
    if (commentStart !== null && require.line.argsEnd === token.end) {
      const gap = text.slice(token.end, commentStart);
      if (/^[ ]{2,}$/.test(gap)) {
        const width = Math.max(1, gap.length - (wanted.length - token.value.length));
        edits.push({ start: token.end, end: commentStart, text: ' '.repeat(width) });
      }
    }
  }
  let out = text;
  for (const edit of [...edits].sort((a, b) => b.start - a.start)) out = out.slice(0, edit.start) + edit.text + out.slice(edit.end);
  const again = readGoMod(MANIFEST, out).requires.filter((r) => r.path === path);
  if (again.length !== requires.length || again.some((r) => r.version.value !== wanted)) {
    return { cannot: `the rewritten ${MANIFEST} does not require ${path} ${wanted}` };
  }
  return { files: { [MANIFEST]: out }, requirement: null };
}
