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
 */
export const npmVersions: VersionScheme = semverScheme({
  name: 'npm',
  version: (version) => semver.valid(version.trim()),
  range(requirement) {
    if (semver.validRange(requirement) === null) throw new InvalidRequirementError('npm', requirement);
    return { range: requirement, includePrerelease: false };
  },
});
