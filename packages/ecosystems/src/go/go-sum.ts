import { ManifestParseError } from '../errors.ts';
import { compareGoVersions, parseGoVersion } from './versions.ts';

/**
 * `go.sum` (https://go.dev/ref/mod#go-sum-files): one line per module version, `<module> <version> h1:<base64>` for the
 * module's zip and `<module> <version>/go.mod h1:<base64>` for its go.mod alone, sorted as `go mod tidy` writes them
 * (golang.org/x/mod/module `Sort`: by path, then version by semantic precedence, the zip line before the `/go.mod` line).
 */

/** One go.sum line. */
export interface GoSumLine {
  path: string;
  version: string;
  /** The line is the go.mod hash (`<version>/go.mod`). */
  goMod: boolean;
  hash: string;
  /** 1-based line number. */
  line: number;
}

/**
 * Reads a go.sum; blank lines are skipped (as Go does).
 * @throws ManifestParseError naming `file` and the line when a line is not `<module> <version>[/go.mod] <hash>`
 */
export function readGoSum(file: string, text: string): GoSumLine[] {
  const out: GoSumLine[] = [];
  for (const [index, raw] of text.split('\n').entries()) {
    const line = raw.trim();
    if (line === '') continue;
    const fields = line.split(/\s+/);
    const [path, written, hash] = fields;
    if (fields.length !== 3 || !path || !written || !hash) throw new ManifestParseError(file, `line ${index + 1}: malformed line`);
    const goMod = written.endsWith('/go.mod');
    out.push({ path, version: goMod ? written.slice(0, -'/go.mod'.length) : written, goMod, hash, line: index + 1 });
  }
  return out;
}

/** golang.org/x/mod/module `Sort` order of two lines: path, version (semantic, then as text), zip before `/go.mod`. */
export function compareGoSumLines(a: Pick<GoSumLine, 'path' | 'version' | 'goMod'>, b: Pick<GoSumLine, 'path' | 'version' | 'goMod'>) {
  if (a.path !== b.path) return a.path < b.path ? -1 : 1;
  if (a.version !== b.version) {
    const byVersion = parseGoVersion(a.version) && parseGoVersion(b.version) ? compareGoVersions(a.version, b.version) : 0;
    if (byVersion !== 0) return byVersion;
    return a.version < b.version ? -1 : 1;
  }
  return Number(a.goMod) - Number(b.goMod);
}

/** A go.sum line as Go writes it. */
export const goSumText = (line: Pick<GoSumLine, 'path' | 'version' | 'goMod' | 'hash'>) =>
  `${line.path} ${line.version}${line.goMod ? '/go.mod' : ''} ${line.hash}`;
