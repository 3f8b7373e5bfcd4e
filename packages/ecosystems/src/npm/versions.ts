import semver from 'semver';
import type { VersionScheme } from '../ecosystem.ts';
import { InvalidRequirementError } from '../errors.ts';
import { semverScheme } from '../shared/semver-scheme.ts';

/**
 * npm's version scheme: SemVer 2.0 versions (a leading `v`/`=` is tolerated, as by `semver.valid`) and
 * node-semver ranges (`^`, `~`, `x`, hyphen ranges, `||`), https://docs.npmjs.com/cli/v10/using-npm/semver.
 * Pre-releases follow npm's default (`includePrerelease: false`): `1.0.0-rc.1` satisfies `>=1.0.0-beta` but
 * not `^0.9.0 || >=0.9`. Dist-tags (`latest`), URLs, `file:`, `workspace:` and `npm:` specs are not ranges
 * ({@link InvalidRequirementError}).
 *
 * `updateKind` follows the caret, the range `npm install` saves by default (npm's `save-prefix` is `^`,
 * https://docs.npmjs.com/cli/v10/using-npm/config#save-prefix): an update whose release `semver.satisfies` does not
 * accept under `^<release in use>` is `major`, since the caret keeps the left-most non-zero of major.minor.patch
 * (https://github.com/npm/node-semver#caret-ranges-123-025-004): `0.7.3 → 0.8.5` and `0.0.3 → 0.0.4` are `major`,
 * `0.7.3 → 0.7.4` `patch`, `1.2.3 → 1.3.0` `minor`.
 */
export const npmVersions: VersionScheme = semverScheme({
  name: 'npm',
  version: (version) => semver.valid(version.trim()),
  range(requirement) {
    if (semver.validRange(requirement) === null) throw new InvalidRequirementError('npm', requirement);
    return { range: requirement, includePrerelease: false };
  },
  defaultRange: (release) => `^${release}`,
});
