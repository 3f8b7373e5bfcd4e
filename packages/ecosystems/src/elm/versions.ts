import type { VersionScheme } from '../ecosystem.ts';
import { InvalidRequirementError, InvalidVersionError } from '../errors.ts';
import { updateKindOf } from '../shared/update-kind.ts';

const VERSION = /^(0|[1-9]\d*)\.(0|[1-9]\d*)\.(0|[1-9]\d*)$/;

/** An Elm version's three numbers, or undefined when it is not `MAJOR.MINOR.PATCH`. */
export function parseElmVersion(version: string): [number, number, number] | undefined {
  const match = VERSION.exec(version.trim());
  return match ? [Number(match[1]), Number(match[2]), Number(match[3])] : undefined;
}

/** An Elm constraint: an exact version (applications) or a range `lower <op> v <op> upper` (packages). */
export type ElmConstraint =
  | { kind: 'exact'; version: [number, number, number] }
  | { kind: 'range'; lower: [number, number, number]; lowerOp: '<=' | '<'; upper: [number, number, number]; upperOp: '<=' | '<' };

const RANGE = /^(\d+\.\d+\.\d+)\s*(<=|<)\s*v\s*(<=|<)\s*(\d+\.\d+\.\d+)$/;

/**
 * Reads an Elm constraint (https://github.com/elm/compiler/blob/master/docs/elm.json/package.md and application.md):
 * an application's exact `1.0.2`, or a package's `1.0.0 <= v < 2.0.0` (each bound `<=` or `<`).
 * @throws InvalidRequirementError on anything else
 */
export function parseElmConstraint(requirement: string): ElmConstraint {
  const exact = parseElmVersion(requirement);
  if (exact) return { kind: 'exact', version: exact };
  const match = RANGE.exec(requirement.trim());
  const lower = match ? parseElmVersion(match[1] ?? '') : undefined;
  const upper = match ? parseElmVersion(match[4] ?? '') : undefined;
  if (!match || !lower || !upper) throw new InvalidRequirementError('Elm', requirement, 'not a version or a range "a <= v < b"');
  return { kind: 'range', lower, lowerOp: match[2] as '<=' | '<', upper, upperOp: match[3] as '<=' | '<' };
}

const order = (a: readonly number[], b: readonly number[]) =>
  (a[0] ?? 0) - (b[0] ?? 0) || (a[1] ?? 0) - (b[1] ?? 0) || (a[2] ?? 0) - (b[2] ?? 0);

const parse = (version: string): [number, number, number] => {
  const parsed = parseElmVersion(version);
  if (!parsed) throw new InvalidVersionError('Elm', version);
  return parsed;
};

/**
 * Elm's version scheme: `MAJOR.MINOR.PATCH` without pre-releases (the package site enforces semantic versioning by API
 * diff), constraints of {@link parseElmConstraint}. `updateKind` is positional: the package site computes each
 * version from the API diff (`elm bump`: MAJOR for a breaking change, MINOR for an addition, PATCH otherwise) and packages
 * start at 1.0.0, so there is no 0.x; `elm install` writes `1.0.0 <= v < 2.0.0`, the same major
 * (https://github.com/elm/compiler/blob/master/docs/elm.json/package.md).
 */
export const elmVersions: VersionScheme = {
  isValid: (version) => parseElmVersion(version) !== undefined,
  compare: (a, b) => Math.sign(order(parse(a), parse(b))),
  satisfies(version, requirement) {
    const v = parse(version);
    const constraint = parseElmConstraint(requirement);
    if (constraint.kind === 'exact') return order(v, constraint.version) === 0;
    const low = order(v, constraint.lower);
    const high = order(v, constraint.upper);
    return (constraint.lowerOp === '<=' ? low >= 0 : low > 0) && (constraint.upperOp === '<' ? high < 0 : high <= 0);
  },
  isPrerelease: () => false,
  updateKind: (from, to) => updateKindOf(parse(from), parse(to)),
  release: (version) => parse(version),
  lowestAllowed(requirement) {
    const constraint = parseElmConstraint(requirement);
    if (constraint.kind === 'exact') return constraint.version.join('.');
    return constraint.lowerOp === '<=' ? constraint.lower.join('.') : null;
  },
  allowsPrereleases: () => false,
};
