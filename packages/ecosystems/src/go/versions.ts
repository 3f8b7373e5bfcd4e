import semver from 'semver';
import type { VersionScheme } from '../ecosystem.ts';
import { InvalidRequirementError, InvalidVersionError } from '../errors.ts';
import { kindWithin, triple } from '../shared/update-kind.ts';

/**
 * Go module versions (https://go.dev/ref/mod#versions; golang.org/x/mod/semver and `module.Check`): a canonical semantic
 * version with a `v` (`v1.2.3`, `v1.2.3-rc.1`), whose only build suffix is `+incompatible` (a v2+ version of a module
 * without a `/vN` path suffix). Pseudo-versions (`v0.0.0-20191109021931-daa7c04131f5`, `v1.2.4-0.20191109021931-daa7c04131f5`,
 * `v1.2.4-pre.0.20191109021931-daa7c04131f5`) are pre-releases by their form and order as such.
 */
const GO_VERSION = /^v(0|[1-9]\d*)\.(0|[1-9]\d*)\.(0|[1-9]\d*)(?:-([0-9A-Za-z-]+(?:\.[0-9A-Za-z-]+)*))?(\+incompatible)?$/;

/** A pseudo-version's tail: `yyyymmddhhmmss-abcdefabcdef` (https://go.dev/ref/mod#pseudo-versions). */
const PSEUDO = /(?:^|\.)\d{14}-[0-9a-f]{12}$/;

/** The parts of a Go module version, or null when it is not one (see {@link GO_VERSION}). */
export interface GoVersion {
  major: number;
  minor: number;
  patch: number;
  /** The pre-release part without its `-`, or null. */
  prerelease: string | null;
  incompatible: boolean;
}

/** Reads a Go module version (`v1.2.3`, `v2.0.0+incompatible`, a pseudo-version); null when it is not canonical. */
export function parseGoVersion(version: string): GoVersion | null {
  const match = GO_VERSION.exec(version.trim());
  if (!match) return null;
  const prerelease = match[4] ?? null;
  // semver forbids leading zeros in numeric pre-release identifiers; Go's semver too.
  if (prerelease?.split('.').some((id) => /^0\d+$/.test(id))) return null;
  return {
    major: Number(match[1]),
    minor: Number(match[2]),
    patch: Number(match[3]),
    prerelease,
    incompatible: match[5] !== undefined,
  };
}

/** Writes a {@link GoVersion} as Go does: `v1.2.3`, `v1.2.3-rc.1`, `v2.0.0+incompatible`. */
export function printGoVersion(version: GoVersion): string {
  const pre = version.prerelease === null ? '' : `-${version.prerelease}`;
  return `v${version.major}.${version.minor}.${version.patch}${pre}${version.incompatible ? '+incompatible' : ''}`;
}

/** Is `version` a pseudo-version (a commit without a tag, https://go.dev/ref/mod#pseudo-versions)? */
export function isPseudoVersion(version: string): boolean {
  const parsed = parseGoVersion(version);
  return parsed?.prerelease !== null && parsed?.prerelease !== undefined && PSEUDO.test(parsed.prerelease);
}

const parsed = (version: string): GoVersion => {
  const v = parseGoVersion(version);
  if (v === null) throw new InvalidVersionError('Go', version);
  return v;
};

/** The version as npm semver reads it (without `v`, build metadata dropped: it does not order). */
const asSemver = (version: string) =>
  version
    .trim()
    .slice(1)
    .replace(/\+incompatible$/, '');

/**
 * Orders two Go module versions by semantic version precedence (https://semver.org/#spec-item-11, as
 * golang.org/x/mod/semver.Compare): `+incompatible` does not order, pseudo-versions order as the pre-releases they are.
 * @throws InvalidVersionError when either is not a Go module version
 */
export function compareGoVersions(a: string, b: string): number {
  parsed(a);
  parsed(b);
  return semver.compare(asSemver(a), asSemver(b));
}

/**
 * A total order of any two strings for what comes from outside (a GOPROXY's version list, a go.mod's `retract` bounds):
 * Go module versions as {@link compareGoVersions} orders them, and below them everything that is not one
 * ({@link parseGoVersion} null: not canonical, build metadata other than `+incompatible`), in code-unit order. Never throws.
 */
export function compareGoModuleVersions(a: string, b: string): number {
  const [x, y] = [parseGoVersion(a) !== null, parseGoVersion(b) !== null];
  if (x && y) return compareGoVersions(a, b);
  if (x !== y) return x ? 1 : -1;
  return a < b ? -1 : a > b ? 1 : 0;
}

/**
 * The major version a module path names (https://go.dev/ref/mod#major-version-suffixes): `N` for a `/vN` suffix (N ≥ 2),
 * `N` for gopkg.in's `.vN` (`gopkg.in/yaml.v3` → 3), else null (the path serves v0, v1 and `+incompatible` v2+ versions).
 */
export function pathMajor(modulePath: string): number | null {
  const gopkg = /^gopkg\.in\/.*\.v(\d+)(?:-unstable)?$/.exec(modulePath);
  if (gopkg) return Number(gopkg[1]);
  const suffix = /\/v([2-9]|[1-9]\d+)$/.exec(modulePath);
  return suffix ? Number(suffix[1]) : null;
}

/**
 * Does `version` belong to the module path's major version (Go's `module.CheckPathMajor`)? A path with `/vN` (or
 * gopkg.in's `.vN`) holds only vN versions (gopkg.in's `.v0`/`.v1` also hold each other's); a path without one holds
 * v0 and v1 versions and v2+ versions marked `+incompatible`.
 */
export function versionFitsPath(modulePath: string, version: string): boolean {
  const v = parseGoVersion(version);
  if (v === null) return false;
  const major = pathMajor(modulePath);
  if (major === null) return v.major <= 1 ? !v.incompatible : v.incompatible;
  if (v.incompatible) return false;
  if (modulePath.startsWith('gopkg.in/') && major <= 1) return v.major <= 1;
  return v.major === major;
}

/**
 * Go's version scheme for go_modules. Go has no version ranges: a `require` names the minimum version and minimal version
 * selection (https://go.dev/ref/mod#minimal-version-selection) picks the highest minimum of the module graph, so a
 * dependency's `requirement` is null (see the ecosystem) and `satisfies(version, requirement)` reads `requirement` as such
 * a minimum: the version is at or above it and of the same major line (v0/v1 together, each v2+ `+incompatible` or `/vN`
 * major alone; an update never crosses majors, since `/v3` is another module path).
 * Pseudo-versions are pre-releases.
 *
 * `updateKind` follows Go's compatibility rule (https://go.dev/ref/mod#versions): "a version is considered unstable if its
 * major version is 0 or it has a pre-release suffix. Unstable versions are not subject to compatibility requirements", so
 * an update from or to a v0 or pre-release version (pseudo-versions included) is `major` (`v0.1.0 → v0.1.1`,
 * `v1.5.0-beta → v1.5.0`); between stable v1+ versions it is positional (`v1.2.3 → v1.3.0` `minor`). A v2+ major is
 * another module path (`/v2`), never an update of the same module.
 */
export const goVersions: VersionScheme = {
  isValid: (version) => parseGoVersion(version) !== null,
  compare: compareGoVersions,
  satisfies(version, requirement) {
    const v = parsed(version);
    const minimum = parseGoVersion(requirement);
    if (minimum === null) throw new InvalidRequirementError('Go', requirement, 'Go requirements are one minimum version, e.g. v1.2.3');
    const line = (x: GoVersion) => Math.max(1, x.major);
    return line(v) === line(minimum) && v.incompatible === minimum.incompatible && compareGoVersions(version, requirement) >= 0;
  },
  isPrerelease: (version) => parseGoVersion(version)?.prerelease != null,
  updateKind: (from, to) => {
    const a = parsed(from);
    const b = parsed(to);
    const stable = (v: GoVersion) => v.major > 0 && v.prerelease === null;
    return kindWithin([a.major, a.minor, a.patch], [b.major, b.minor, b.patch], stable(a) && stable(b));
  },
  release: (version) => {
    const v = parsed(version);
    return triple([v.major, v.minor, v.patch]);
  },
  lowestAllowed(requirement) {
    if (parseGoVersion(requirement) === null) throw new InvalidRequirementError('Go', requirement, 'not a Go module version');
    return requirement.trim();
  },
  allowsPrereleases: (requirement) => parseGoVersion(requirement)?.prerelease != null,
};
