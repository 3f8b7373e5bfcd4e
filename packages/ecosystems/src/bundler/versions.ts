import * as ruby from '@renovatebot/ruby-semver';
import type { VersionScheme } from '../ecosystem.ts';
import { InvalidRequirementError, InvalidVersionError } from '../errors.ts';
import { kindWithin, triple } from '../shared/update-kind.ts';

/** One `Gem::Requirement` clause: optional operator (`=`, `!=`, `>`, `<`, `>=`, `<=`, `~>`) and a version. */
const CLAUSE = /^\s*(=|!=|>=|<=|>|<|~>)?\s*([0-9]+(?:\.[0-9a-zA-Z]+)*(?:-[0-9A-Za-z-]+(?:\.[0-9A-Za-z-]+)*)?)\s*$/;

function check(version: string): string {
  if (ruby.valid(version) === null) throw new InvalidVersionError('RubyGems', version);
  return version;
}

/** The clauses of a requirement (`'~> 1.2, >= 1.2.3'`), as `[operator, version]` pairs (`=` when none is written). */
export function rubyClauses(requirement: string): [string, string][] {
  const clauses = requirement.split(',').map((part) => CLAUSE.exec(part));
  if (clauses.length === 0 || clauses.some((c) => c === null)) throw new InvalidRequirementError('RubyGems', requirement);
  return clauses.map((c) => [c?.[1] ?? '=', c?.[2] ?? '']);
}

/** Numeric segments before the first letter segment (`1.2.0.rc1` → `[1, 2, 0]`), as `Gem::Version#segments` splits them. */
function release(version: string): [number, number, number] {
  check(version);
  return triple([ruby.major(version), ruby.minor(version), ruby.patch(version)].map((n) => n ?? 0));
}

/**
 * RubyGems' version scheme (https://guides.rubygems.org/patterns/#semantic-versioning,
 * `Gem::Version`/`Gem::Requirement`) via @renovatebot/ruby-semver: any number of segments, a letter makes a
 * pre-release (`1.0.0.pre < 1.0.0`, `1.0.0.rc1`), requirements are comma-separated clauses with `=`, `!=`,
 * `>`, `<`, `>=`, `<=` and the pessimistic `~>` (`~> 1.2` = `>= 1.2, < 2.0`; `~> 1.2.3` = `>= 1.2.3, < 1.3`).
 * `satisfies` is `Gem::Requirement#satisfied_by?`: it has no pre-release rule of its own.
 *
 * `updateKind` follows the pessimistic requirement `bundle add` writes for a version (rubygems/rubygems
 * `bundler/lib/bundler/injector.rb` `conservative_version`: `~> 7.1` from 1.0 on, `~> 0.7.3` below; RubyGems' guide
 * recommends `~>` for semantic versioning): a release it does not allow is `major` (`0.7.3 → 0.8.0`), within it the kind
 * is positional (`0.0.3 → 0.0.4` `patch`: `~> 0.0.3` allows `< 0.1`).
 */
export const rubyVersions: VersionScheme = {
  isValid: (version) => ruby.valid(version) !== null,
  compare(a, b) {
    check(a);
    check(b);
    return ruby.eq(a, b) ? 0 : ruby.gt(a, b) ? 1 : -1;
  },
  satisfies(version, requirement) {
    check(version);
    rubyClauses(requirement);
    return ruby.satisfies(version, requirement);
  },
  isPrerelease: (version) => ruby.valid(version) !== null && ruby.prerelease(version) !== null,
  updateKind(from, to) {
    const [a, b] = [release(from), release(to)];
    const pessimistic = a[0] === 0 ? `~> 0.${a[1]}.${a[2]}` : `~> ${a[0]}.${a[1]}`;
    return kindWithin(a, b, ruby.satisfies(b.join('.'), pessimistic));
  },
  release,
  lowestAllowed(requirement) {
    let lowest: string | null = null;
    for (const [operator, version] of rubyClauses(requirement)) {
      if (!['=', '>=', '~>'].includes(operator)) continue;
      if (lowest === null || ruby.gt(version, lowest)) lowest = version;
    }
    return lowest;
  },
  allowsPrereleases(requirement) {
    try {
      return rubyClauses(requirement).some(([, version]) => ruby.prerelease(version) !== null);
    } catch {
      return false;
    }
  },
};
