import semver from 'semver';
import type { VersionScheme } from '../ecosystem.ts';
import { InvalidRequirementError } from '../errors.ts';
import { meetsClause, type PessimisticClause, strictSemver } from '../shared/pessimistic-clause.ts';
import { triple, updateKindOf } from '../shared/update-kind.ts';

/** One comparison of a Terraform version constraint: its operator (`=` for a bare version) and version. */
export interface TerraformClause extends PessimisticClause {
  operator: '=' | '!=' | '>' | '>=' | '<' | '<=' | '~>';
}

const CLAUSE = /^(=|!=|>=|<=|>|<|~>)?\s*v?(\d+(?:\.\d+){0,2})(-[0-9A-Za-z.-]+)?(\+[0-9A-Za-z.-]+)?$/;

/**
 * Reads a Terraform version constraint (https://developer.hashicorp.com/terraform/language/expressions/version-constraints):
 * comma-separated clauses `=`, `!=`, `>`, `>=`, `<`, `<=`, `~>` followed by a version of one to three numbers
 * (with a pre-release); a bare version is `=`. Padding with zeros gives the version compared (`~> 1.2` → `1.2.0`).
 * @throws InvalidRequirementError on an empty constraint or a clause that is not one of those
 */
export function parseTerraformConstraint(requirement: string): TerraformClause[] {
  const parts = requirement.split(',').map((part) => part.trim());
  return parts.map((part) => {
    const match = CLAUSE.exec(part);
    if (!match) throw new InvalidRequirementError('Terraform', requirement, `cannot read '${part}'`);
    const [, operator = '=', numbers = '', pre = '', build = ''] = match;
    const segments = numbers.split('.');
    const padded = [...segments, '0', '0'].slice(0, 3).join('.');
    const version = semver.parse(`${padded}${pre}${build}`);
    if (!version) throw new InvalidRequirementError('Terraform', requirement, `cannot read '${part}'`);
    return { operator: operator as TerraformClause['operator'], written: `${numbers}${pre}${build}`, precision: segments.length, version };
  });
}

const parseVersion = (version: string): semver.SemVer => strictSemver('Terraform', version);

/**
 * Terraform's version scheme for providers and modules: SemVer 2.0 versions without a `v` (as the registries list them)
 * and the constraints of {@link parseTerraformConstraint}, all clauses of which must hold. A pre-release is only
 * selected by an exact clause naming it (`= 1.0.0-beta1` or `1.0.0-beta1`); inexact clauses never match one
 * (https://developer.hashicorp.com/terraform/language/expressions/version-constraints#version-constraint-behavior).
 *
 * `updateKind` is positional, as the `~>` Terraform suggests reads versions: `~>` lets only the right-most written
 * component grow, with no 0.x rule, and `terraform init` proposed `~> MAJOR.MINOR` for a provider (hashicorp/terraform
 * `plugin/discovery/version.go` `MinorUpgradeConstraintStr`), which allows every later minor of the major, 0 included
 * (`~> 0.7` allows 0.8.0): so `0.7.3 → 0.8.0` is `minor` and only a new major is `major`.
 */
export const terraformVersions: VersionScheme = {
  isValid: (version) => /^\d/.test(version.trim()) && semver.valid(version.trim()) !== null,
  compare: (a, b) => semver.compare(parseVersion(a), parseVersion(b)),
  satisfies(version, requirement) {
    const v = parseVersion(version);
    const clauses = parseTerraformConstraint(requirement);
    if (v.prerelease.length > 0 && !clauses.some((c) => c.operator === '=' && semver.compare(c.version, v) === 0)) return false;
    return clauses.every((clause) => meetsClause(v, clause));
  },
  isPrerelease: (version) => {
    const parsed = /^\d/.test(version.trim()) ? semver.parse(version.trim()) : null;
    return parsed !== null && parsed.prerelease.length > 0;
  },
  updateKind: (from, to) => updateKindOf(terraformVersions.release?.(from) ?? [], terraformVersions.release?.(to) ?? []),
  release(version) {
    const v = parseVersion(version);
    return triple([v.major, v.minor, v.patch]);
  },
  lowestAllowed(requirement) {
    const lows = parseTerraformConstraint(requirement)
      .filter((clause) => clause.operator === '=' || clause.operator === '>=' || clause.operator === '~>')
      .map((clause) => clause.version);
    if (lows.length === 0) return null;
    return lows.sort(semver.compare).at(-1)?.version ?? null;
  },
  allowsPrereleases(requirement) {
    try {
      return parseTerraformConstraint(requirement).some((clause) => clause.version.prerelease.length > 0);
    } catch {
      return false;
    }
  },
};
