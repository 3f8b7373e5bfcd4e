import type { VersionScheme } from '../ecosystem.ts';
import { InvalidRequirementError, InvalidVersionError } from '../errors.ts';
import { triple, updateKindOf } from '../shared/update-kind.ts';

/**
 * A GitHub Action's version tag, read as Dependabot's `GithubActions::Version` reads it
 * (https://github.com/dependabot/dependabot-core, `github_actions/lib/dependabot/github_actions/version.rb`: a leading `v`
 * dropped, then compared like a version): `v4`, `v4.1`, `v4.1.0`, `1.0.0`, `v2.0.0-beta.1`, `v1.2.3+build.5`. The parts
 * are kept as written so that {@link printActionVersion} gives the tag back unchanged.
 */
export interface ActionVersion {
  /** `v`, `V` or `` as written. */
  prefix: string;
  /** The dot-separated numbers as written (at least one; leading zeros kept): `['4', '1', '0']`. */
  release: string[];
  /** The pre-release identifiers after `-` (`['beta', '1']`), or null when there is none. */
  prerelease: string[] | null;
  /** The build metadata after `+` as written (`build.5`), or null. It takes no part in the order. */
  build: string | null;
}

const IDENTIFIERS = String.raw`[0-9A-Za-z-]+(?:\.[0-9A-Za-z-]+)*`;
const VERSION = new RegExp(String.raw`^([vV]?)(\d+(?:\.\d+)*)(?:-(${IDENTIFIERS}))?(?:\+(${IDENTIFIERS}))?$`);
/** Longer "tags" are not versions people publish; the cap keeps comparisons cheap on hostile input. */
const MAX_LENGTH = 256;

/**
 * Reads a version tag (see {@link ActionVersion}), or null when the text is not one: branch names (`main`,
 * `releases/v1`), tags that do not start with a number after an optional `v` (`release-1`), commit SHAs of letters.
 */
export function parseActionVersion(version: string): ActionVersion | null {
  if (version.length > MAX_LENGTH) return null;
  const match = VERSION.exec(version);
  if (!match) return null;
  const [, prefix = '', release = '', prerelease, build] = match;
  return { prefix, release: release.split('.'), prerelease: prerelease === undefined ? null : prerelease.split('.'), build: build ?? null };
}

/** The tag text of a parsed version: `printActionVersion(parseActionVersion(v)) === v` for every valid `v`. */
export function printActionVersion(version: ActionVersion): string {
  const pre = version.prerelease === null ? '' : `-${version.prerelease.join('.')}`;
  const build = version.build === null ? '' : `+${version.build}`;
  return `${version.prefix}${version.release.join('.')}${pre}${build}`;
}

const parse = (version: string): ActionVersion => {
  const parsed = parseActionVersion(version);
  if (parsed === null) throw new InvalidVersionError('GitHub Actions', version);
  return parsed;
};

/** Compares two strings of digits as numbers of any size (leading zeros ignored). */
function compareDigits(a: string, b: string): number {
  const x = a.replace(/^0+(?=\d)/, '');
  const y = b.replace(/^0+(?=\d)/, '');
  if (x.length !== y.length) return x.length < y.length ? -1 : 1;
  return x < y ? -1 : x > y ? 1 : 0;
}

/** SemVer 2.0's pre-release precedence (https://semver.org/#spec-item-11): numeric identifiers numerically and below alphanumeric ones. */
function comparePrerelease(a: readonly string[], b: readonly string[]): number {
  for (let i = 0; i < Math.max(a.length, b.length); i++) {
    const x = a[i];
    const y = b[i];
    if (x === undefined) return -1;
    if (y === undefined) return 1;
    const xNumeric = /^\d+$/.test(x);
    const yNumeric = /^\d+$/.test(y);
    if (xNumeric && yNumeric) {
      const byNumber = compareDigits(x, y);
      if (byNumber !== 0) return byNumber;
    } else if (xNumeric !== yNumeric) return xNumeric ? -1 : 1;
    else if (x !== y) return x < y ? -1 : 1;
  }
  return 0;
}

/** The order of two parsed versions: release numbers (missing ones are 0), then a pre-release below its release. */
function compareParsed(a: ActionVersion, b: ActionVersion): number {
  for (let i = 0; i < Math.max(a.release.length, b.release.length); i++) {
    const byNumber = compareDigits(a.release[i] ?? '0', b.release[i] ?? '0');
    if (byNumber !== 0) return byNumber;
  }
  if (a.prerelease === null || b.prerelease === null) return a.prerelease === b.prerelease ? 0 : a.prerelease === null ? 1 : -1;
  return comparePrerelease(a.prerelease, b.prerelease);
}

/** `[major, minor, patch]` of a tag, missing positions 0. */
const release = (version: string): [number, number, number] => triple(parse(version).release.map(Number));

/**
 * GitHub Actions' version scheme: the version tags of an action's repository (see {@link ActionVersion}), ordered by
 * their numbers with missing positions 0 (`v4` = `v4.0` = `4.0.0` < `v4.1.0`), a `v` prefix optional, pre-releases below
 * their release and ordered as SemVer's, build metadata ignored, as Dependabot's `Gem::Version`-based class orders
 * them except that pre-releases are written SemVer's way (`-beta.1`).
 *
 * An action reference has no range: a workflow names one tag (or commit), so a dependency's `requirement` is always
 * null. `satisfies(version, requirement)` reads a requirement as that one tag (true when the two are equal in the
 * order); `lowestAllowed` is the tag itself. `updateKind` is positional (`v2` → `v4` major, `v4.0` → `v4.1` minor,
 * `v0.1` → `v0.2` minor): GitHub asks action authors to keep a major tag (`v1`) moved to the latest release of that
 * major, which workflows reference to take every compatible release
 * (https://docs.github.com/actions/sharing-automations/creating-actions/releasing-and-maintaining-actions), so the major
 * is the compatibility line, `v0` included.
 */
export const githubActionsVersions: VersionScheme = {
  isValid: (version) => parseActionVersion(version) !== null,
  compare: (a, b) => compareParsed(parse(a), parse(b)),
  satisfies(version, requirement) {
    const wanted = parseActionVersion(requirement.trim());
    if (wanted === null) throw new InvalidRequirementError('GitHub Actions', requirement, 'an action reference names one version tag');
    return compareParsed(parse(version), wanted) === 0;
  },
  isPrerelease: (version) => parseActionVersion(version)?.prerelease != null,
  updateKind: (from, to) => updateKindOf(release(from), release(to)),
  release,
  lowestAllowed(requirement) {
    const trimmed = requirement.trim();
    if (parseActionVersion(trimmed) === null) {
      throw new InvalidRequirementError('GitHub Actions', requirement, 'an action reference names one version tag');
    }
    return trimmed;
  },
  allowsPrereleases: (requirement) => parseActionVersion(requirement.trim())?.prerelease != null,
};
