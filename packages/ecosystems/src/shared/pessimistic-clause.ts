import semver from 'semver';
import { InvalidVersionError } from '../errors.ts';

/**
 * One comparison of a requirement in the syntaxes whose `~>` is the "pessimistic" operator on a version padded to three
 * numbers: Elixir's `Version` requirements (Hex, https://hexdocs.pm/elixir/Version.html#module-requirements) and
 * Terraform's version constraints (https://developer.hashicorp.com/terraform/language/expressions/version-constraints).
 */
export interface PessimisticClause {
  /** `=` (Terraform) and `==` (Elixir) both mean equality. */
  operator: '=' | '==' | '!=' | '>' | '>=' | '<' | '<=' | '~>';
  /** The version as written (`1.2`, `5.31.0`, `1.0.0-beta1`). */
  written: string;
  /** How many of major, minor, patch are written (1 to 3). */
  precision: number;
  /** The written version padded to three numbers (`1.2` → `1.2.0`), with its pre-release. */
  version: semver.SemVer;
}

/**
 * Does `version` meet `clause`? `~> X.Y.Z` is `>= X.Y.Z, < X.(Y+1).0`; `~> X.Y` and `~> X` are `>= X.Y.0, < (X+1).0.0`
 * (only the rightmost written number may increase), as both Elixir and Terraform read it; the other operators compare
 * by SemVer precedence.
 */
export function meetsClause(version: semver.SemVer, clause: PessimisticClause): boolean {
  const order = semver.compare(version, clause.version);
  switch (clause.operator) {
    case '=':
    case '==':
      return order === 0;
    case '!=':
      return order !== 0;
    case '>':
      return order > 0;
    case '>=':
      return order >= 0;
    case '<':
      return order < 0;
    case '<=':
      return order <= 0;
    case '~>': {
      if (order < 0) return false;
      const { major, minor } = clause.version;
      return clause.precision === 3 ? version.major === major && version.minor === minor : version.major === major;
    }
  }
}

/**
 * A strict SemVer 2.0 version (three numbers, no `v`).
 * @throws InvalidVersionError naming `schemeName` for anything else
 */
export function strictSemver(schemeName: string, version: string): semver.SemVer {
  const parsed = /^\d/.test(version.trim()) ? semver.parse(version.trim()) : null;
  if (!parsed) throw new InvalidVersionError(schemeName, version);
  return parsed;
}
