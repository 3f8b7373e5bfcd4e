import type { Ecosystem } from './ecosystem.ts';
import { InvalidRequirementError } from './errors.ts';

/**
 * The version a package manager installs for `requirement` when no lockfile entry (nor exact pin) says which: among
 * `versions` (what a registry lists as installable: yanked versions left out by the caller), those the ecosystem's
 * scheme can read and the requirement allows, pre-releases only where the requirement asks for them (npm, pip, Bundler,
 * Cargo and Composer take a pre-release only then: node-semver's `includePrerelease: false`, PEP 440's "pre-releases
 * are excluded unless explicitly requested", RubyGems' `prerelease?` rule, Cargo's semver rule, Composer's
 * `minimum-stability`); then the ecosystem's {@link Ecosystem.installs} when it has one (NuGet's lowest applicable
 * version), else the highest, which is what `npm install`, `pip install`, `bundle install`, `cargo generate-lockfile`,
 * `composer update`, `mix deps.get` and the other resolvers pick for a direct dependency.
 * @returns the version as the registry spells it, or null when none is allowed or the requirement cannot be read
 */
export function installedVersion(ecosystem: Ecosystem, requirement: string, versions: readonly string[]): string | null {
  const scheme = ecosystem.versions;
  let asksPrereleases = false;
  let candidates: string[];
  try {
    asksPrereleases = scheme.allowsPrereleases?.(requirement) ?? false;
    candidates = versions.filter(
      (v) => scheme.isValid(v) && (asksPrereleases || !scheme.isPrerelease(v)) && scheme.satisfies(v, requirement),
    );
  } catch (error) {
    if (error instanceof InvalidRequirementError) return null;
    throw error;
  }
  if (candidates.length === 0) return null;
  if (ecosystem.installs) return ecosystem.installs(requirement, candidates);
  return candidates.reduce((best, v) => {
    const order = scheme.compare(v, best);
    return order > 0 || (order === 0 && v.length > best.length) ? v : best;
  });
}
