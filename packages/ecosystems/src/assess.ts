import type { DependencyUse, Ecosystem, UpdateKind, VersionScheme } from './ecosystem.ts';
import { InvalidRequirementError } from './errors.ts';

/** The decision on one released version for one dependency use. */
export interface UpdateAssessment {
  /** The released version is an update for the version in use (see {@link assessUpdate} for the rules). */
  outdated: boolean;
  /**
   * Set when `outdated`: the scheme's `updateKind`, which says what the ecosystem treats as compatible (`major` for a
   * breaking update, including a 0.x bump its default requirement does not allow, e.g. Cargo's `0.7.3 → 0.8.5`).
   */
  kind?: UpdateKind;
  /** The manifest requirement allows the released version (true when there is no requirement). */
  inRange: boolean;
  /** Why the answer is not the plain comparison: unknown or invalid version in use, pre-release rule, unreadable requirement. */
  reason?: string;
}

function sameRelease(scheme: VersionScheme, a: string, b: string): boolean {
  if (!scheme.release) return false;
  const [x, y] = [scheme.release(a), scheme.release(b)];
  return x.every((n, i) => n === y[i]);
}

/**
 * Decides whether `released` is an update for `use` (as {@link Ecosystem.findDependency} returned it):
 * - the baseline is `use.version` when it is a valid version; when `use.version` is null, the lowest version
 *   `use.requirement` allows (`^4.17.0` → 4.17.0; a requirement without a lowest version, such as `*` or
 *   `<2`, gives no baseline); with no baseline, or an invalid version in use (`dev-main`, a git ref), the
 *   answer is "not outdated" and `reason` says why;
 * - pre-release rule (Renovate's `ignoreUnstable`, https://docs.renovatebot.com/configuration-options/#ignoreunstable): a released pre-release only
 *   counts when the version in use is itself a pre-release of the same major.minor.patch (`1.0.0-rc.1` →
 *   `1.0.0-rc.2`), or the requirement explicitly asks for pre-releases (names a pre-release version, e.g.
 *   `^2.0.0-beta.1`, `>=2.0b1`, or a Composer stability flag `@beta`);
 * - `outdated` when the baseline is lower than `released`; `kind` is then the scheme's `updateKind` from the baseline
 *   (each scheme's compatibility rule: the README's "Update kinds" table);
 * - `inRange`: `use.requirement` is null, or satisfied by `released` (the scheme's own `satisfies`, so with
 *   its pre-release rule; a Maven soft requirement is always satisfied); an unreadable requirement is not in range.
 * An invalid `released` gives `{ outdated: false, inRange: false, reason }` rather than an error.
 * A scheme's `comparable` rules out versions of another line (a Docker tag of another variant) before the comparison.
 * For an `unordered` scheme (commit ids) `released` is an update whenever it is another commit than the one in use
 * (the caller passes the branch's head), and there is no baseline without a version in use.
 */
export function assessUpdate(ecosystem: Ecosystem, use: DependencyUse, released: string): UpdateAssessment {
  const scheme = ecosystem.versions;
  const reasons: string[] = [];
  const result = (outdated: boolean, inRange: boolean, kind?: UpdateKind): UpdateAssessment => ({
    outdated,
    ...(kind ? { kind } : {}),
    inRange,
    ...(reasons.length ? { reason: reasons.join('; ') } : {}),
  });
  if (!scheme.isValid(released)) {
    reasons.push(`released version '${released}' is not a valid ${ecosystem.packageManager} version`);
    return result(false, false);
  }

  let inRange = true;
  if (use.requirement !== null) {
    try {
      inRange = scheme.satisfies(released, use.requirement);
    } catch (error) {
      if (!(error instanceof InvalidRequirementError)) throw error;
      inRange = false;
      reasons.push(`requirement '${use.requirement}' cannot be read as a version range`);
    }
  }

  if (scheme.unordered) {
    // Commit ids: any other commit is the update (the caller chose it as the branch's head); no baseline is inferred.
    if (use.version === null || !scheme.isValid(use.version)) {
      reasons.push(use.version === null ? 'version in use unknown' : `version in use '${use.version}' is not a commit id`);
      return result(false, inRange);
    }
    if (scheme.compare(use.version, released) === 0) return result(false, inRange);
    return result(true, inRange, scheme.updateKind(use.version, released));
  }

  let baseline: string | null = null;
  let inUse = false;
  if (use.version !== null) {
    if (scheme.isValid(use.version)) {
      baseline = use.version;
      inUse = true;
    } else {
      reasons.push(`version in use '${use.version}' is not a valid version (a branch, tag or URL?), so it cannot be compared`);
    }
  } else if (use.requirement !== null && scheme.lowestAllowed) {
    try {
      baseline = scheme.lowestAllowed(use.requirement);
    } catch (error) {
      if (!(error instanceof InvalidRequirementError)) throw error;
    }
    reasons.push(
      baseline === null
        ? `version in use unknown and requirement '${use.requirement}' has no lowest version to compare with`
        : `version in use unknown; compared with ${baseline}, the lowest version requirement '${use.requirement}' allows`,
    );
  } else {
    reasons.push('version in use unknown and no requirement to infer it from');
  }
  if (baseline === null) return result(false, inRange);
  if (scheme.comparable && !scheme.comparable(baseline, released)) {
    reasons.push(`'${released}' is not comparable with ${baseline} (another variant of the version)`);
    return result(false, inRange);
  }

  if (scheme.isPrerelease(released)) {
    const samePre = inUse && scheme.isPrerelease(baseline) && sameRelease(scheme, baseline, released);
    const asked = use.requirement !== null && (scheme.allowsPrereleases?.(use.requirement) ?? false);
    if (!samePre && !asked) {
      reasons.push(
        `'${released}' is a pre-release: only an update for a pre-release of the same major.minor.patch in use or a requirement that asks for pre-releases`,
      );
      return result(false, inRange);
    }
  }

  if (scheme.compare(baseline, released) >= 0) return result(false, inRange);
  return result(true, inRange, scheme.updateKind(baseline, released));
}
