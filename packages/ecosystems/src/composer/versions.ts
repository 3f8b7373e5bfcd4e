import type { VersionScheme } from '../ecosystem.ts';
import { semverScheme } from '../shared/semver-scheme.ts';
import { composerToSemverRange, composerVersionToSemver } from './constraint.ts';

/**
 * Composer's version scheme (https://getcomposer.org/doc/articles/versions.md), mapped onto npm semver:
 * versions through {@link composerVersionToSemver} (`v2.0.0` is valid and equals `2.0.0`; `dev-main` is not a
 * version), constraints through {@link composerToSemverRange}. Without a stability flag pre-releases only match
 * like in npm; with `@beta` and the like (or a pre-release version in the constraint) they match like releases.
 */
export const composerVersions: VersionScheme = semverScheme({
  name: 'Composer',
  version: composerVersionToSemver,
  range: composerToSemverRange,
});
