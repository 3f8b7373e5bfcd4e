import semver from 'semver';
import type { VersionScheme } from '../ecosystem.ts';
import { InvalidRequirementError } from '../errors.ts';
import { semverScheme } from '../shared/semver-scheme.ts';

const COMPARATOR =
  /^(\^|~|=|>=|<=|>|<)?\s*((?:\d+|[*xX])(?:\.(?:\d+|[*xX])(?:\.(?:\d+|[*xX])(?:-[0-9A-Za-z.-]+)?(?:\+[0-9A-Za-z.-]+)?)?)?)$/;

/**
 * Maps a Cargo version requirement (https://doc.rust-lang.org/cargo/reference/specifying-dependencies.html)
 * onto an npm semver range: comma-separated comparators become space-separated ones, and a bare version is a
 * caret requirement (`1.2.3` → `^1.2.3`, `0.4` → `^0.4`). `^`, `~`, `=`, `<`, `<=`, `>`, `>=` and the wildcards
 * `*`, `1.*`, `1.2.*` mean the same in both (`~1.2` = `>=1.2.0 <1.3.0`, `=1.2` = `>=1.2.0 <1.3.0`).
 * @throws InvalidRequirementError on anything else (e.g. `||`, which Cargo does not have)
 */
export function cargoToSemverRange(requirement: string): string {
  const parts = requirement.split(',').map((part) => part.trim());
  const out = parts.map((part) => {
    const match = COMPARATOR.exec(part);
    if (!match?.[2]) throw new InvalidRequirementError('Cargo', requirement, `cannot read '${part}'`);
    const [, operator, version] = match;
    if (operator) return `${operator}${version}`;
    return /[*xX]/.test(version) ? version : `^${version}`;
  });
  return out.join(' ');
}

/**
 * Cargo's version scheme: SemVer 2.0 versions (no `v` prefix) and Cargo requirements mapped by
 * {@link cargoToSemverRange} onto npm semver, whose pre-release rule is Cargo's too (a pre-release only
 * matches a requirement naming a pre-release of the same major.minor.patch).
 *
 * `updateKind` follows the default requirement, a bare version, which is a caret (`cargo add` writes the version in use
 * bare; https://doc.rust-lang.org/cargo/reference/specifying-dependencies.html#caret-requirements): `0.7.3` allows
 * `>=0.7.3, <0.8.0` and `0.0.3` only `0.0.3`, so `rand 0.7.3 → 0.8.5` and `0.0.3 → 0.0.4` are `major`; within the caret
 * the kind is positional (`0.7.3 → 0.7.4` `patch`, `1.2.3 → 1.3.0` `minor`).
 */
export const cargoVersions: VersionScheme = semverScheme({
  name: 'Cargo',
  version: (version) => (/^\d/.test(version.trim()) ? semver.valid(version.trim()) : null),
  range: (requirement) => ({ range: cargoToSemverRange(requirement), includePrerelease: false }),
  defaultRange: (release) => cargoToSemverRange(release),
});
