import type { VersionScheme } from '../ecosystem.ts';
import { InvalidVersionError } from '../errors.ts';
import { semverScheme } from '../shared/semver-scheme.ts';
import { compareComposerVersions, composerSatisfies, composerToSemverRange, composerVersionToSemver } from './constraint.ts';

/**
 * The constraint `composer require` writes for a release (composer/composer
 * `VersionSelector::findRecommendedRequireVersion`): `^major.minor` from 1.0 on (`1.2.3` → `^1.2`), `^0.minor.patch` below
 * (`0.7.3` → `^0.7.3`).
 */
const recommended = (release: string): string => {
  const [major = '0', minor = '0', patch = '0'] = release.split('.');
  return major === '0' ? `^0.${minor}.${patch}` : `^${major}.${minor}`;
};

const mapped = semverScheme({
  name: 'Composer',
  version: composerVersionToSemver,
  range: composerToSemverRange,
  defaultRange: (release) => composerToSemverRange(recommended(release)).range,
});

/**
 * Composer's version scheme (https://getcomposer.org/doc/articles/versions.md). Versions: `v2.0.0` is valid and
 * equals `2.0.0`; `dev-main` is not a version; patch releases (`1.2.3-p1`, `-pl1`, `-patch1`) come after their base
 * version and before the next one, as Composer's `VersionParser::normalize` and PHP's `version_compare` order them
 * ({@link compareComposerVersions}). `satisfies` follows Composer's own matching ({@link composerSatisfies}): the
 * constraint's range and its minimum stability (stability flags like `@beta`, or the stability of a pre-release version
 * the constraint names). `release`, `updateKind`, `isPrerelease`, `lowestAllowed` and `allowsPrereleases` read the
 * semver mapping ({@link composerVersionToSemver}, {@link composerToSemverRange}).
 *
 * `updateKind` follows the caret `composer require` writes (`^1.2`, `^0.7.3`), which composer/semver reads as
 * `>=1.2.0 <2.0.0`, `>=0.7.3 <0.8.0` and `^0.0.3` as `>=0.0.3 <0.0.4`
 * (https://getcomposer.org/doc/articles/versions.md#caret-version-range-, "for pre-1.0 versions it also acts with safety
 * in mind"): a release outside it is `major` (`0.7.3 → 0.8.0`, `0.0.3 → 0.0.4`), within it the kind is positional.
 */
export const composerVersions: VersionScheme = {
  ...mapped,
  compare(a, b) {
    const order = compareComposerVersions(a, b);
    if (order === undefined) throw new InvalidVersionError('Composer', composerVersionToSemver(a) === null ? a : b);
    return order;
  },
  satisfies(version, requirement) {
    const result = composerSatisfies(version, requirement);
    if (result === undefined) throw new InvalidVersionError('Composer', version);
    return result;
  },
};
