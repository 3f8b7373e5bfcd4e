import type { VersionScheme } from '../ecosystem.ts';
import { InvalidVersionError } from '../errors.ts';
import { semverScheme } from '../shared/semver-scheme.ts';
import {
  compareComposerVersions,
  composerRelease,
  composerSatisfies,
  composerToSemverRange,
  composerVersionToSemver,
  isComposerPrerelease,
} from './constraint.ts';

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
 * Composer's version scheme (https://getcomposer.org/doc/articles/versions.md). Versions are what
 * `VersionParser::normalize` reads (https://github.com/composer/semver/blob/main/src/VersionParser.php): `v2.0.0` is
 * valid and equals `2.0.0`; `1.2.3.4` has four parts; `1.0.0-dev` is the development version `1.0.0.0-dev`, before
 * `1.0.0-alpha1`; the numeric branch `6.4.x-dev` is `6.4.9999999.9999999-dev`, after every 6.4 release and before
 * `6.5.0-dev`; patch releases (`1.2.3-p1`, `-pl1`, `-patch1`) come after their base version and before the next one, as
 * PHP's `version_compare` orders them ({@link compareComposerVersions}); a named branch (`dev-main`) is not a version
 * (Composer never orders it against one). `satisfies` follows Composer's own matching ({@link composerSatisfies}): the
 * constraint's range and its minimum stability (stability flags like `@beta`, or the stability of a pre-release or dev
 * version the constraint names). `isPrerelease` is a stability below stable (dev included), `release` the first three
 * parts. `lowestAllowed` and `allowsPrereleases` read the semver mapping ({@link composerVersionToSemver},
 * {@link composerToSemverRange}), which branch constraints and 4-part versions do not have.
 *
 * `updateKind` follows the caret `composer require` writes (`^1.2`, `^0.7.3`), which composer/semver reads as
 * `>=1.2.0 <2.0.0`, `>=0.7.3 <0.8.0` and `^0.0.3` as `>=0.0.3 <0.0.4`
 * (https://getcomposer.org/doc/articles/versions.md#caret-version-range-, "for pre-1.0 versions it also acts with safety
 * in mind"): a release outside it is `major` (`0.7.3 → 0.8.0`, `0.0.3 → 0.0.4`), within it the kind is positional.
 */
const releaseOf = (version: string): [number, number, number] => {
  const release = composerRelease(version);
  if (release === undefined) throw new InvalidVersionError('Composer', version);
  return release;
};

export const composerVersions: VersionScheme = {
  ...mapped,
  isValid: (version) => composerRelease(version) !== undefined,
  compare(a, b) {
    const order = compareComposerVersions(a, b);
    if (order === undefined) throw new InvalidVersionError('Composer', composerRelease(a) === undefined ? a : b);
    return order;
  },
  isPrerelease: (version) => isComposerPrerelease(version),
  release: releaseOf,
  // the caret rule reads releases only
  updateKind: (from, to) => mapped.updateKind(releaseOf(from).join('.'), releaseOf(to).join('.')),
  satisfies(version, requirement) {
    const result = composerSatisfies(version, requirement);
    if (result === undefined) throw new InvalidVersionError('Composer', version);
    return result;
  },
};
