import type { VersionScheme } from '../ecosystem.ts';
import { InvalidVersionError } from '../errors.ts';
import { semverScheme } from '../shared/semver-scheme.ts';
import { compareComposerVersions, composerSatisfies, composerToSemverRange, composerVersionToSemver } from './constraint.ts';

const mapped = semverScheme({
  name: 'Composer',
  version: composerVersionToSemver,
  range: composerToSemverRange,
});

/**
 * Composer's version scheme (https://getcomposer.org/doc/articles/versions.md). Versions: `v2.0.0` is valid and
 * equals `2.0.0`; `dev-main` is not a version; patch releases (`1.2.3-p1`, `-pl1`, `-patch1`) come after their base
 * version and before the next one, as Composer's `VersionParser::normalize` and PHP's `version_compare` order them
 * ({@link compareComposerVersions}). `satisfies` follows Composer's own matching ({@link composerSatisfies}): the
 * constraint's range and its minimum stability (stability flags like `@beta`, or the stability of a pre-release version
 * the constraint names). `release`, `updateKind`, `isPrerelease`, `lowestAllowed` and `allowsPrereleases` read the
 * semver mapping ({@link composerVersionToSemver}, {@link composerToSemverRange}).
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
