import semver from 'semver';
import type { VersionScheme } from '../ecosystem.ts';
import { InvalidRequirementError } from '../errors.ts';
import { semverScheme } from '../shared/semver-scheme.ts';

/** One comparator as dep writes it: an operator (or none), an optional `v`, a version (partial, with wildcards). */
const COMPARATOR = /^(>=|<=|=>|=<|!=|~>|\^|~|>|<|=)?\s*v?((?:\d+|[*xX])(?:\.(?:\d+|[*xX])){0,2}(?:-[0-9A-Za-z.-]+)?(?:\+[0-9A-Za-z.-]+)?)$/;

/** A semver tag as dep reads it: with or without `v` (`v0.8.1`, `1.2.3`); null when it is not a semantic version. */
export function depVersionToSemver(version: string): string | null {
  const trimmed = version.trim();
  if (!/^v?\d/.test(trimmed)) return null;
  return semver.valid(trimmed.replace(/^v/, ''));
}

/**
 * dep's caret on a major version 0 (https://golang.github.io/dep/docs/Gopkg.toml.html#version, Masterminds/semver as dep
 * vendors it): `^0.2.3` is `>=0.2.3, <0.3.0`, `^0.0.3` `>=0.0.3, <0.1.0`, `^0.2` `>=0.2.0, <0.3.0`, `^0` `>=0.0.0, <1.0.0`.
 */
function caretZero(version: string): string {
  const [, minor = '*', patch = '0'] = version.split(/[.+-]/);
  const pre = /-([0-9A-Za-z.-]+)/.exec(version)?.[1];
  if (/^[*xX]$/.test(minor)) return '>=0.0.0 <1.0.0';
  const low = `0.${minor}.${/^[*xX]$/.test(patch) ? '0' : patch}${pre ? `-${pre}` : ''}`;
  return `>=${low} <0.${Number(minor) + 1}.0`;
}

/**
 * Maps a dep version constraint (https://golang.github.io/dep/docs/Gopkg.toml.html#version) onto an npm semver range:
 * `,` joins comparators (and), `||` alternatives; a bare version is a caret (`1.2.3` = `^1.2.3` = `>=1.2.3, <2.0.0`, with
 * `^0.x` only up to the next minor, see {@link caretZero}); `=1.2.3` is exact; `~1.2` = `>=1.2.0, <1.3.0`; `~>` is `~`,
 * `=>`/`=<` are `>=`/`<=`; `1.2.x` and `*` are wildcards; `a - b` a hyphen range; a `v` before a version is ignored.
 * @throws InvalidRequirementError on anything else (`!=`, which npm ranges cannot say inside a comparator set, included)
 */
export function depToSemverRange(requirement: string): string {
  const alternatives = requirement.split('||').map((alternative) => {
    const trimmed = alternative.trim();
    const hyphen = /^v?(\S+)\s+-\s+v?(\S+)$/.exec(trimmed);
    if (hyphen) return `${hyphen[1]} - ${hyphen[2]}`;
    if (trimmed === '') throw new InvalidRequirementError('dep', requirement, 'empty alternative');
    return trimmed
      .split(',')
      .map((part) => {
        const match = COMPARATOR.exec(part.trim());
        if (!match?.[2]) throw new InvalidRequirementError('dep', requirement, `cannot read '${part.trim()}'`);
        const [, operator = '', version] = match;
        if (operator === '!=') throw new InvalidRequirementError('dep', requirement, "'!=' is not supported");
        const wildcard = /[*xX]/.test(version);
        if (operator === '' || operator === '^') {
          if (/^0(?:\.|$)/.test(version)) return caretZero(version);
          return wildcard ? version : `^${version}`;
        }
        if (operator === '~>') return `~${version}`;
        if (operator === '=>') return `>=${version}`;
        if (operator === '=<') return `<=${version}`;
        return `${operator}${version}`;
      })
      .join(' ');
  });
  return alternatives.join(' || ');
}

/**
 * dep's version scheme: semver tags with or without `v` (`v0.8.1` = `0.8.1`), constraints mapped by
 * {@link depToSemverRange}; pre-releases only match a constraint naming one (as Masterminds/semver and npm decide).
 *
 * `updateKind` follows dep's default operator, the caret a bare version means
 * (https://golang.github.io/dep/docs/Gopkg.toml.html#version): `^0.8.0` allows `<0.9.0`, so `v0.8.0 → v0.9.1` is `major`;
 * `^0.0.3` allows `<0.1.0` (Masterminds/semver's caret on 0.0.x, unlike npm's), so `v0.0.3 → v0.0.4` is `patch`.
 */
export const depVersions: VersionScheme = semverScheme({
  name: 'dep',
  version: depVersionToSemver,
  range: (requirement) => ({ range: depToSemverRange(requirement), includePrerelease: false }),
  defaultRange: (release) => depToSemverRange(release),
});
