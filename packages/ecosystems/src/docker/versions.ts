import type { VersionScheme } from '../ecosystem.ts';
import { InvalidRequirementError, InvalidVersionError } from '../errors.ts';
import { triple, updateKindOf } from '../shared/update-kind.ts';

/**
 * Docker image tags read as versions, after Dependabot's docker `Tag`
 * (https://github.com/dependabot/dependabot-core/blob/main/docker/lib/dependabot/docker/tag.rb): a tag is a version when
 * it is an optional `v` prefix, dot-separated numbers, an optional pre-release word glued to the last number
 * (`3.13.0rc1`, `3.14.0a2`) and an optional suffix starting with `-` and a letter (`-slim`, `-alpine3.19`,
 * `-slim-bookworm`). Tags such as `latest`, `stable`, `bullseye` are not versions.
 */

/** A tag split into its parts; `print(parse(tag)) === tag`. */
export interface DockerTag {
  /** `v`, `V` or empty. */
  prefix: string;
  /** The numbers as written (leading zeros kept), at least one. */
  numbers: string[];
  /** The pre-release word glued to the last number (`rc`, `a`, `beta`), or empty. */
  pre: string;
  /** The pre-release's number as written, or empty. */
  preNumber: string;
  /** The suffix with its leading `-` (`-slim`), or empty. */
  suffix: string;
}

const TAG = /^([vV]?)(\d+(?:\.\d+)*)(?:(alpha|beta|preview|dev|rc|a|b)(\d*))?(-[A-Za-z][A-Za-z0-9._-]*)?$/;
const PRE_SUFFIX = /^-(?:alpha|beta|rc|dev|preview)\d*(?:-|$)/i;
/** Pre-release words, lowest first (`dev` < `alpha` = `a` < `beta` = `b` < `preview` < `rc`). */
const PRE_RANK: Record<string, number> = { dev: 0, alpha: 1, a: 1, beta: 2, b: 2, preview: 3, rc: 4 };

/** The parts of a tag, or undefined when the tag is not a version (`latest`, `bullseye`, `3.9-`). */
export function parseDockerTag(tag: string): DockerTag | undefined {
  if (tag.length > 128) return undefined;
  const match = TAG.exec(tag);
  if (!match) return undefined;
  return {
    prefix: match[1] ?? '',
    numbers: (match[2] ?? '').split('.'),
    pre: match[3] ?? '',
    preNumber: match[4] ?? '',
    suffix: match[5] ?? '',
  };
}

/** The tag text of parts (inverse of {@link parseDockerTag}). */
export function printDockerTag(tag: DockerTag): string {
  return `${tag.prefix}${tag.numbers.join('.')}${tag.pre}${tag.preNumber}${tag.suffix}`;
}

const parse = (tag: string): DockerTag => {
  const parsed = parseDockerTag(tag);
  if (!parsed) throw new InvalidVersionError('Docker', tag);
  return parsed;
};

/**
 * Do two tags have the same format, so that their order means "newer"? Dependabot's `comparable_to?` and
 * `same_precision?`: the same prefix, the same suffix (`3.9-slim` and `3.12-slim`, never `3.12-alpine` or `3.12`) and
 * as many numbers (`3.9` and `3.12`, never `3.12.1`). Only such tags are update candidates for each other.
 * @throws InvalidVersionError when either is not a version tag
 */
export function sameTagFormat(a: string, b: string): boolean {
  const x = parse(a);
  const y = parse(b);
  return x.prefix === y.prefix && x.suffix === y.suffix && x.numbers.length === y.numbers.length;
}

const cmp = (a: string | number | bigint, b: string | number | bigint) => (a < b ? -1 : a > b ? 1 : 0);

/**
 * Orders two version tags: by suffix and prefix first (tags of another suffix or prefix are ordered only to make the
 * comparison total: that order does not mean one is newer, see {@link sameTagFormat}); then by the numbers (missing
 * ones read as 0, so `3.12.1` > `3.12` and `3.13` > `3.12.1`), then by the count of numbers (`3.12` < `3.12.0`), then a
 * pre-release before its release (`3.13.0rc1` < `3.13.0`), pre-releases by word and number; tags equal so far
 * (`3.09` and `3.9`) by their text, so only equal tags compare 0.
 * @throws InvalidVersionError when either is not a version tag
 */
export function compareDockerTags(a: string, b: string): number {
  const x = parse(a);
  const y = parse(b);
  const format = cmp(x.suffix, y.suffix) || cmp(x.prefix, y.prefix);
  if (format !== 0) return format;
  for (let i = 0; i < Math.max(x.numbers.length, y.numbers.length); i++) {
    const byNumber = cmp(BigInt(x.numbers[i] ?? '0'), BigInt(y.numbers[i] ?? '0'));
    if (byNumber !== 0) return byNumber;
  }
  const byPrecision = cmp(x.numbers.length, y.numbers.length);
  if (byPrecision !== 0) return byPrecision;
  if (x.pre !== y.pre) {
    if (x.pre === '') return 1;
    if (y.pre === '') return -1;
    const byWord = cmp(PRE_RANK[x.pre] ?? 0, PRE_RANK[y.pre] ?? 0);
    if (byWord !== 0) return byWord;
  }
  const byPreNumber = cmp(BigInt(x.preNumber || '0'), BigInt(y.preNumber || '0'));
  return byPreNumber || cmp(a, b);
}

const numbersOf = (tag: string): number[] => parse(tag).numbers.map((n) => Number(n));

/**
 * Docker's version scheme: image tags as {@link parseDockerTag} reads them, ordered by {@link compareDockerTags}.
 * Docker has no version ranges: a Dockerfile names one tag, so a {@link DependencyUse} of an image has no requirement
 * (`requirement: null`). `satisfies` reads a requirement as one exact tag (equal tags only), `lowestAllowed` is that
 * tag. `isPrerelease`: a pre-release word glued to the numbers (`3.13.0rc1`) or a suffix starting with one (`22-rc`).
 * `updateKind`: by the numbers' positions (`3.11-slim` → `3.12-slim` is minor, `0.7` → `0.8` too): a tag is a name the
 * image's publisher chose, Docker gives it no compatibility meaning (https://docs.docker.com/reference/cli/docker/image/tag/),
 * so there is no default requirement or 0.x rule to apply. `comparable(inUse, released)` tells
 * which tags are update candidates for a tag in use ({@link sameTagFormat}); `VersionScheme` has no such member yet, so
 * `assessUpdate` does not consult it.
 */
export const dockerVersions: VersionScheme & { comparable(inUse: string, released: string): boolean } = {
  isValid: (version) => parseDockerTag(version) !== undefined,
  compare: compareDockerTags,
  satisfies(version, requirement) {
    parse(version);
    if (!parseDockerTag(requirement)) throw new InvalidRequirementError('Docker', requirement, 'a requirement is one version tag');
    return version === requirement;
  },
  isPrerelease(version) {
    const tag = parseDockerTag(version);
    return tag !== undefined && (tag.pre !== '' || PRE_SUFFIX.test(tag.suffix));
  },
  updateKind: (from, to) => updateKindOf(numbersOf(from), numbersOf(to)),
  release: (version) => triple(numbersOf(version)),
  lowestAllowed(requirement) {
    if (!parseDockerTag(requirement)) throw new InvalidRequirementError('Docker', requirement, 'a requirement is one version tag');
    return requirement;
  },
  allowsPrereleases: (requirement) => dockerVersions.isPrerelease(requirement),
  comparable: sameTagFormat,
};
