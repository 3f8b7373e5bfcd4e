import semver from 'semver';
import type { VersionScheme } from '../ecosystem.ts';
import { InvalidRequirementError } from '../errors.ts';
import { meetsClause, type PessimisticClause, strictSemver } from '../shared/pessimistic-clause.ts';
import { kindWithin, triple } from '../shared/update-kind.ts';

/** One comparison of an Elixir requirement. */
export interface HexClause extends PessimisticClause {
  operator: '==' | '!=' | '>' | '>=' | '<' | '<=' | '~>';
}

const CLAUSE = /^(==|!=|>=|<=|>|<|~>)?\s*(\d+\.\d+(?:\.\d+)?)(-[0-9A-Za-z.-]+)?(\+[0-9A-Za-z.-]+)?$/;

/**
 * Reads an Elixir version requirement (https://hexdocs.pm/elixir/Version.html#module-requirements): clauses
 * `==`, `!=`, `>`, `>=`, `<`, `<=`, `~>` (a bare version is `==`) joined by `and`, alternatives joined by `or`.
 * Versions have two or three numbers (Elixir allows two only after `~>`; this reader pads any of them with zeros).
 * @returns the alternatives, each a list of clauses that must all hold
 * @throws InvalidRequirementError on anything else
 */
export function parseHexRequirement(requirement: string): HexClause[][] {
  const alternatives = requirement.trim().split(/\s+or\s+/);
  return alternatives.map((alternative) =>
    alternative.split(/\s+and\s+/).map((part) => {
      const match = CLAUSE.exec(part.trim());
      if (!match) throw new InvalidRequirementError('Hex', requirement, `cannot read '${part.trim()}'`);
      const [, operator = '==', numbers = '', pre = '', build = ''] = match;
      const segments = numbers.split('.');
      const version = semver.parse(`${[...segments, '0'].slice(0, 3).join('.')}${pre}${build}`);
      if (!version) throw new InvalidRequirementError('Hex', requirement, `cannot read '${part.trim()}'`);
      return { operator: operator as HexClause['operator'], written: `${numbers}${pre}${build}`, precision: segments.length, version };
    }),
  );
}

const parseVersion = (version: string): semver.SemVer => strictSemver('Hex', version);

const namesPrerelease = (alternative: readonly HexClause[]) => alternative.some((clause) => clause.version.prerelease.length > 0);

/**
 * Hex's version scheme, Elixir's `Version` (https://hexdocs.pm/elixir/Version.html): SemVer 2.0 versions (three numbers,
 * no `v`) and the requirements of {@link parseHexRequirement}. A pre-release only satisfies an alternative that names a
 * pre-release (Hex's resolver does not pick pre-releases otherwise: `Version.match?(v, req, allow_pre: false)`).
 *
 * `updateKind` follows the requirement hex.pm's install snippet gives for a release (hexpm/hexpm
 * `lib/hexpm_web/views/package_view.ex` `snippet_version`: `~> 1.2` from 1.0 on, `~> 0.7.3` below), which Elixir reads as
 * `>= 1.2.0 and < 2.0.0` and `>= 0.7.3 and < 0.8.0` (`~> 0.0.3` as `< 0.1.0`): a release outside it is `major`
 * (`0.7.3 → 0.8.0`), within it the kind is positional (`0.0.3 → 0.0.4` `patch`, `1.2.0 → 1.3.0` `minor`).
 */
export const hexVersions: VersionScheme = {
  isValid: (version) => /^\d/.test(version.trim()) && semver.valid(version.trim()) !== null,
  compare: (a, b) => semver.compare(parseVersion(a), parseVersion(b)),
  satisfies(version, requirement) {
    const v = parseVersion(version);
    const pre = v.prerelease.length > 0;
    return parseHexRequirement(requirement).some(
      (alternative) => (!pre || namesPrerelease(alternative)) && alternative.every((clause) => meetsClause(v, clause)),
    );
  },
  isPrerelease: (version) => {
    const parsed = /^\d/.test(version.trim()) ? semver.parse(version.trim()) : null;
    return parsed !== null && parsed.prerelease.length > 0;
  },
  updateKind(from, to) {
    const [a, b] = [hexVersions.release?.(from) ?? [0, 0, 0], hexVersions.release?.(to) ?? [0, 0, 0]];
    const snippet = a[0] === 0 ? `~> 0.${a[1]}.${a[2]}` : `~> ${a[0]}.${a[1]}`;
    return kindWithin(a, b, hexVersions.satisfies(b.join('.'), snippet));
  },
  release(version) {
    const v = parseVersion(version);
    return triple([v.major, v.minor, v.patch]);
  },
  lowestAllowed(requirement) {
    const lows = parseHexRequirement(requirement).map((alternative) => {
      const bounds = alternative
        .filter((clause) => clause.operator === '==' || clause.operator === '>=' || clause.operator === '~>')
        .map((clause) => clause.version);
      return bounds.sort(semver.compare).at(-1);
    });
    if (lows.some((low) => low === undefined)) return null;
    return (lows as semver.SemVer[]).sort(semver.compare)[0]?.version ?? null;
  },
  allowsPrereleases(requirement) {
    try {
      return parseHexRequirement(requirement).some(namesPrerelease);
    } catch {
      return false;
    }
  },
};
