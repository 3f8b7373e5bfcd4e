import type { PackageManager } from '@switchyard/contracts';
import { requireEcosystem } from '@switchyard/ecosystems';

/**
 * New version strings, derived from the versions a registry lists: the newest stable one of the package's line, bumped
 * at the patch, minor or major position, or the next minor as a pre-release in its ecosystem's own syntax (npm's
 * `-rc.1`, PEP 440's `rc1`, RubyGems' `.rc1`, Maven's `-RC1`…). Every version made is checked with the ecosystem's
 * version scheme (`@switchyard/ecosystems`): valid, and newer than what it was derived from.
 */

/** What a release does to a version. */
export type VersionBump = 'patch' | 'minor' | 'major' | 'pre-release';

/** How a version is written: `v`, the numbers, and what follows them (`-jre`, `-slim`). */
interface VersionShape {
  prefix: string;
  numbers: number[];
  rest: string;
}

const SHAPE = /^(v?)(\d+(?:\.\d+)*)(.*)$/;

function shapeOf(version: string): VersionShape | undefined {
  const match = SHAPE.exec(version);
  if (!match) return undefined;
  return { prefix: match[1] ?? '', numbers: (match[2] ?? '').split('.').map(Number), rest: match[3] ?? '' };
}

/** The pre-release marker `n` in each ecosystem's syntax, and where it goes (after the numbers, before `rest`). */
function preReleaseMarker(versionsOf: PackageManager, n: number): string | undefined {
  switch (versionsOf) {
    case 'pip':
      return `rc${n}`;
    case 'bundler':
      return `.rc${n}`;
    case 'maven':
    case 'gradle':
      return `-RC${n}`;
    case 'composer':
      return `-RC${n}`;
    case 'docker':
      return `rc${n}`;
    case 'github_actions':
      return `-beta.${n}`;
    case 'elm':
    case 'submodules':
      return undefined;
    default:
      // npm, Cargo, NuGet, Hex, Terraform, Go modules, dep: SemVer's pre-release.
      return `-rc.${n}`;
  }
}

/** What a package's versions look like, beyond its ecosystem's syntax. */
export interface VersionLine {
  /** Docker: the tag's suffix (`-slim`) and how many numbers it has (`3.11-slim`: 2). */
  docker?: { suffix: string; parts: number };
  /** GitHub Actions: only full `vX.Y.Z` tags are releases (`v4` is a moving major tag). */
  fullTagsOnly?: boolean;
}

/** Whether `version` is of the package's line (a Docker tag of its suffix and length, a full action tag). */
function ofLine(version: string, line: VersionLine): boolean {
  const shape = shapeOf(version);
  if (!shape) return false;
  if (line.docker) return shape.rest === line.docker.suffix && shape.numbers.length === line.docker.parts;
  if (line.fullTagsOnly) return shape.numbers.length === 3 && shape.rest === '';
  return true;
}

/**
 * The newest stable version of the package's line among `listed` (by its ecosystem's order), or undefined when none.
 */
export function newestStable(versionsOf: PackageManager, listed: readonly string[], line: VersionLine = {}): string | undefined {
  const scheme = requireEcosystem(versionsOf).versions;
  const stable = listed.filter((v) => ofLine(v, line) && scheme.isValid(v) && !scheme.isPrerelease(v));
  return stable.sort((a, b) => scheme.compare(a, b)).at(-1);
}

/**
 * A new version of the package: `bump` applied to its newest stable version among `listed`, never one of `taken`
 * (versions that exist or existed: a yanked version's number is not reused), valid in the ecosystem and newer than
 * the version it comes from. Undefined when there is nothing to derive from, or the ecosystem has no such version (Elm
 * has no pre-releases).
 */
export function nextVersion(
  versionsOf: PackageManager,
  bump: VersionBump,
  listed: readonly string[],
  taken: ReadonlySet<string>,
  line: VersionLine = {},
): string | undefined {
  const scheme = requireEcosystem(versionsOf).versions;
  const from = newestStable(versionsOf, listed, line);
  if (!from) return undefined;
  const shape = shapeOf(from) as VersionShape;
  const parts = line.docker ? line.docker.parts : Math.max(3, shape.numbers.length);
  const numbers = Array.from({ length: parts }, (_, i) => shape.numbers[i] ?? 0);
  for (let attempt = 0; attempt < 50; attempt++) {
    const next = [...numbers];
    const at = bump === 'major' ? 0 : bump === 'patch' ? parts - 1 : Math.min(1, parts - 1);
    next[at] = (next[at] ?? 0) + 1 + attempt;
    for (let i = at + 1; i < parts; i++) next[i] = 0;
    let text: string;
    if (bump === 'pre-release') {
      const marker = preReleaseMarker(versionsOf, attempt + 1);
      if (marker === undefined) return undefined;
      next[at] = (numbers[at] ?? 0) + 1;
      // A Docker pre-release has a patch number (3.14.0rc1-slim), as the official images tag them.
      const release = line.docker ? [...next, 0] : next;
      text = `${shape.prefix}${release.join('.')}${marker}${shape.rest}`;
    } else {
      text = `${shape.prefix}${next.join('.')}${shape.rest}`;
    }
    if (taken.has(text)) continue;
    if (!scheme.isValid(text) || scheme.compare(text, from) <= 0) return undefined;
    if ((bump === 'pre-release') !== scheme.isPrerelease(text) && !line.docker) return undefined;
    return text;
  }
  return undefined;
}
