import type { LockfileRequest, LockfileUpdate } from '../ecosystem.ts';
import type { RegistryArtifact } from '../registry-data.ts';
import { readGoMod } from './go-mod.ts';
import { compareGoSumLines, type GoSumLine, goSumText, readGoSum } from './go-sum.ts';
import { compareGoVersions, parseGoVersion } from './versions.ts';

const LOCKFILE = 'go.sum';

/** The `h1:` digest of the artifact whose file name ends with `suffix` (`.zip`, `.mod`), as the registry gives it. */
const h1Of = (artifacts: readonly RegistryArtifact[], suffix: string) =>
  artifacts
    .find((artifact) => artifact.filename.endsWith(suffix))
    ?.digests.find((digest) => digest.algorithm === 'h1' && /^h1:[A-Za-z0-9+/]{43}=$/.test(digest.value))?.value;

/** Compares Go language versions (`1.21`, `1.21.3`, `1.21rc1`) by their numbers; a release candidate is below its release. */
export function compareGoLanguage(a: string, b: string): number {
  const parts = (v: string) => {
    const match = /^(\d+)(?:\.(\d+))?(?:\.(\d+))?(?:(rc|beta)(\d+))?$/.exec(v.trim());
    if (!match) return null;
    return [Number(match[1]), Number(match[2] ?? 0), Number(match[3] ?? 0), match[4] ? -1 : 0, Number(match[5] ?? 0)];
  };
  const x = parts(a);
  const y = parts(b);
  if (!x || !y) return 0;
  for (let i = 0; i < x.length; i++) if ((x[i] ?? 0) !== (y[i] ?? 0)) return (x[i] ?? 0) - (y[i] ?? 0);
  return 0;
}

/**
 * Rewrites go.sum (https://go.dev/ref/mod#go-sum-files) for module `request.use.name` moving from `request.use.version` to
 * `request.target.version`, as `go get <mod>@<target>` then `go mod tidy` leave it: both lines of the old version
 * (`<mod> <old> h1:…` and `<mod> <old>/go.mod h1:…`) are removed, since go.mod no longer requires it and tidy keeps only the
 * checksums the module graph needs (cmd/go `modload.keepSums`), and the target's are inserted where `go mod tidy` sorts
 * them, with the registry's digests (`describeVersion`'s artifacts `<v>.zip` and `<v>.mod`, algorithm `h1`,
 * golang.org/x/mod/sumdb/dirhash `Hash1`). The zip line is written when the old version had one (a module whose packages
 * are built), the go.mod line always. Lines of other versions of the module and of other modules stay, line endings
 * included. (Tidy would keep the old go.mod line only for a module of the graph whose own requirements are loaded unpruned,
 * a go < 1.17 go.mod, that requires the old version: this updater does not see the graph; the go command then asks for the
 * line, `go mod download <mod>@<old>` adds it.)
 *
 * `needsResolution` (no go toolchain here to run `go mod tidy`) when: the registry gives no `h1` digest of the target's zip
 * or go.mod, or does not list its go.mod's requirements; go.sum holds a different hash for the target already; a module the
 * target's go.mod requires is not in go.sum at that version (its `/go.mod` line), or go.mod requires it at a lower version
 * (minimal version selection would raise it, and go.mod with it); the target's go.mod asks for a newer `go` than go.mod's
 * (the go line would move); the updated go.mod does not require the target.
 * A request without a go.sum updates nothing (`files` empty).
 * @throws ManifestParseError when go.sum or go.mod does not parse
 */
export function updateGoSum(request: LockfileRequest): LockfileUpdate {
  const text = request.files[LOCKFILE];
  if (text === undefined) return { files: {} };
  const { use, target } = request;
  const lines = readGoSum(LOCKFILE, text);
  const name = use.name;
  const version = target.version;
  if (parseGoVersion(version) === null) return { needsResolution: `${version} is not a Go module version` };
  const zip = h1Of(target.artifacts, '.zip');
  const goMod = h1Of(target.artifacts, '.mod');
  if (zip === undefined || goMod === undefined) return { needsResolution: `the registry gives no h1 digests of ${name} ${version}` };
  if (target.dependencies === null) return { needsResolution: `the registry does not list the requirements of ${name} ${version}` };

  const manifest = request.updated['go.mod'];
  const mod = manifest === undefined ? undefined : readGoMod('go.mod', manifest);
  if (mod && !mod.requires.some((r) => r.path === name && r.version.value === version)) {
    return { needsResolution: `go.mod does not require ${name} ${version}` };
  }
  const targetGo = request.target.artifacts.find((a) => a.filename.endsWith('.mod'))?.attributes?.go;
  if (mod?.go && targetGo && compareGoLanguage(targetGo, mod.go) > 0) {
    return { needsResolution: `${name} ${version} needs go ${targetGo}, above go.mod's go ${mod.go}: the go line would move` };
  }
  const has = (path: string, v: string, isGoMod: boolean) => lines.find((l) => l.path === path && l.version === v && l.goMod === isGoMod);
  for (const dependency of target.dependencies) {
    if (dependency.name === name) continue;
    const required = mod?.requires.find((r) => r.path === dependency.name);
    if (required && parseGoVersion(required.version.value) && parseGoVersion(dependency.requirement)) {
      if (compareGoVersions(required.version.value, dependency.requirement) < 0) {
        return {
          needsResolution: `${name} ${version} requires ${dependency.name} ${dependency.requirement}, above go.mod's ${required.version.value}`,
        };
      }
    }
    if (!has(dependency.name, dependency.requirement, true)) {
      return { needsResolution: `${name} ${version} requires ${dependency.name} ${dependency.requirement}, which go.sum does not hold` };
    }
  }

  const old = use.version;
  const hadZip = old === null ? true : has(name, old, false) !== undefined;
  const wanted: Omit<GoSumLine, 'line'>[] = [
    ...(hadZip ? [{ path: name, version, goMod: false, hash: zip }] : []),
    { path: name, version, goMod: true, hash: goMod },
  ];
  for (const line of wanted) {
    const present = has(line.path, line.version, line.goMod);
    if (present && present.hash !== line.hash) {
      return { needsResolution: `go.sum holds ${goSumText(present)}, the registry ${line.hash}: checksum mismatch` };
    }
  }

  // Lines by their text, with their own break; the removed ones go, the new ones are inserted in sort order.
  const raw = text.match(/[^\n]*\n|[^\n]+$/g) ?? [];
  const eol = raw.find((l) => l.endsWith('\n'))?.endsWith('\r\n') ? '\r\n' : '\n';
  const kept: { text: string; entry: GoSumLine | undefined }[] = [];
  for (const [index, rawLine] of raw.entries()) {
    const entry = lines.find((l) => l.line === index + 1);
    // Both lines of the replaced version go, as `go mod tidy` drops them once go.mod requires the target.
    if (entry && entry.path === name && old !== null && entry.version === old && old !== version) continue;
    kept.push({ text: rawLine, entry });
  }
  for (const line of wanted) {
    if (kept.some((k) => k.entry && k.entry.path === line.path && k.entry.version === line.version && k.entry.goMod === line.goMod))
      continue;
    const at = kept.findIndex((k) => k.entry !== undefined && compareGoSumLines(k.entry, line) > 0);
    const entry = { text: `${goSumText(line)}${eol}`, entry: { ...line, line: 0 } };
    if (at === -1) {
      // after the last entry; a last line without a break gets one first
      const lastIndex = kept.length - 1;
      const last = kept[lastIndex];
      if (last && !last.text.endsWith('\n')) {
        kept[lastIndex] = { ...last, text: `${last.text}${eol}` };
        kept.push({ ...entry, text: goSumText(line) });
      } else kept.push(entry);
    } else kept.splice(at, 0, entry);
  }
  return { files: { [LOCKFILE]: kept.map((k) => k.text).join('') } };
}
