import type { VersionScheme } from '../ecosystem.ts';

/**
 * Chooses the version in use among the versions a lockfile holds for one package (Cargo.lock and uv.lock
 * can hold several): the only one when all agree; else the highest that satisfies `requirement`; else null
 * (unknown), since guessing would misreport the version in use. Invalid versions and requirements count as
 * not satisfying.
 */
export function pickLocked(versions: readonly string[], requirement: string | null, scheme: VersionScheme): string | null {
  const distinct = [...new Set(versions)];
  if (distinct.length <= 1) return distinct[0] ?? null;
  if (requirement === null) return null;
  const matching = distinct.filter((version) => {
    try {
      return scheme.satisfies(version, requirement);
    } catch {
      return false;
    }
  });
  matching.sort((a, b) => scheme.compare(b, a));
  return matching[0] ?? null;
}
