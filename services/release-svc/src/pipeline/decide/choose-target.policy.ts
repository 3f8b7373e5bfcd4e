import type { PackageManager } from '@switchyard/contracts';
import { assessUpdate, type DependencyUse, type Ecosystem, ecosystemFor, installedVersion, type UpdateKind } from '@switchyard/ecosystems';
import type { RegistryVersion } from '@switchyard/registries';
import { type AffectedPackage, affects } from '../../advisories/advisory-match.policy.ts';

/** The config's rules that bear on the target version. */
export interface TargetRules {
  lockfileOnly: boolean;
  securityUpdatesOnly: boolean;
  /** Why the config ignores a version (its ignore rules), or null; absent: it ignores none. */
  ignored?: (version: string) => string | null;
}

/** What {@link chooseTarget} decided for one dependency. */
export type TargetChoice =
  | {
      /** An update: the version a job targets. */
      target: string;
      kind: UpdateKind;
      inRange: boolean;
      /** Advisories affecting the version in use that the target is free of, sorted. */
      fixes: string[];
      /** The newest version a user would call the latest (see {@link chooseTarget}). */
      latest: string | null;
      reason: string;
    }
  | { target: null; outcome: 'up-to-date' | 'skipped'; latest: string | null; reason: string };

/**
 * Chooses the version an update of `use` targets among what the registry lists, by the ecosystem's scheme
 * (`packages/ecosystems`):
 * - candidates are the versions the scheme can read that are neither yanked nor deprecated and that
 *   {@link assessUpdate} calls an update for the version in use: newer, and no pre-release unless the version in use
 *   is a pre-release of the same release or the requirement asks for pre-releases (Renovate's `ignoreUnstable`);
 * - `lockfileOnly`: only candidates the manifest's requirement allows;
 * - `ignored`: no candidate the config's ignore rules name (when they name every one: `skipped`, with the first rule's reason);
 * - `securityUpdatesOnly`: only when an advisory affects the version in use, and then the lowest candidate that no
 *   advisory affecting the version in use affects (Dependabot's security updates: the lowest fixing version);
 * - otherwise the newest candidate.
 * `latest` is the newest listed version under the same yank, deprecation and pre-release rules, whether allowed or not.
 * Where the scheme says which versions are `comparable` (Docker tags), only those of the line in use count.
 * For an `unordered` scheme (commit ids: git submodules) see {@link chooseHead}; `registryLatest` is the registry's
 * `latest` (the default branch's head there), unused otherwise.
 * Pure: the caller fetched the registry's versions and the advisories.
 */
export function chooseTarget(
  ecosystem: Ecosystem,
  use: DependencyUse,
  versions: readonly RegistryVersion[],
  rules: TargetRules,
  advisories: readonly AffectedPackage[],
  registryLatest: string | null = null,
): TargetChoice {
  const scheme = ecosystem.versions;
  if (scheme.unordered) return chooseHead(ecosystem, use, versions, rules, registryLatest);
  // Versions of the line in use only, where the scheme says which are comparable (a Docker tag's variant).
  const inLine = (version: string) =>
    !scheme.comparable || use.version === null || !scheme.isValid(use.version) || scheme.comparable(use.version, version);
  const usable = versions
    .filter((v) => !v.yanked && v.deprecated === null && scheme.isValid(v.version) && inLine(v.version))
    .map((v) => v.version);
  const assessed = usable
    .map((version) => ({ version, assessment: assessUpdate(ecosystem, use, version) }))
    // Versions the scheme calls equal (a GitHub Action's moving `v2` tag and `v2.0.0`) order by precision: the fullest
    // comes last, so it is the one chosen and pinned.
    .sort((a, b) => scheme.compare(a.version, b.version) || a.version.length - b.version.length);
  const updates = assessed.filter((a) => a.assessment.outdated && a.assessment.kind);
  const stable = usable.filter((v) => !scheme.isPrerelease(v) || updates.some((u) => u.version === v));
  const latest = stable.reduce<string | null>((max, v) => {
    const order = max === null ? 1 : scheme.compare(v, max);
    return order > 0 || (order === 0 && max !== null && v.length > max.length) ? v : max;
  }, null);
  if (use.version === null || !scheme.isValid(use.version)) {
    const why = assessUpdate(ecosystem, use, latest ?? use.version ?? '0').reason;
    return { target: null, outcome: 'up-to-date', latest, reason: why ?? 'the version in use is unknown' };
  }
  const inUse = use.version;
  const inRequirement = rules.lockfileOnly ? updates.filter((u) => u.assessment.inRange) : updates;
  const ignoring = rules.ignored;
  const allowed = ignoring ? inRequirement.filter((u) => ignoring(u.version) === null) : inRequirement;
  if (updates.length === 0) return { target: null, outcome: 'up-to-date', latest, reason: `uses ${inUse}, the newest allowed` };
  if (ignoring && allowed.length === 0 && inRequirement.length > 0) {
    const newest = inRequirement[inRequirement.length - 1] as (typeof inRequirement)[number];
    return { target: null, outcome: 'skipped', latest, reason: `every newer version is ignored: ${ignoring(newest.version)}` };
  }
  if (allowed.length === 0) {
    return {
      target: null,
      outcome: 'skipped',
      latest,
      reason: `newer versions are outside the manifest's requirement ${use.requirement ?? ''} and the config is lockfile-only`.replace(
        '  ',
        ' ',
      ),
    };
  }
  const affecting = advisories.filter((a) => affects(a, inUse, scheme));
  const fixesOf = (version: string) => [...new Set(affecting.filter((a) => !affects(a, version, scheme)).map((a) => a.advisoryId))].sort();
  let chosen: (typeof allowed)[number] | undefined;
  if (rules.securityUpdatesOnly) {
    if (affecting.length === 0) {
      return {
        target: null,
        outcome: 'skipped',
        latest,
        reason: `no known advisory affects ${use.name} ${inUse} and the config takes security updates only`,
      };
    }
    chosen = allowed.find((u) => fixesOf(u.version).length === new Set(affecting.map((a) => a.advisoryId)).size);
    if (!chosen) {
      return { target: null, outcome: 'skipped', latest, reason: `no allowed version fixes every advisory affecting ${use.name} ${inUse}` };
    }
  } else {
    chosen = allowed[allowed.length - 1];
  }
  if (!chosen?.assessment.kind) return { target: null, outcome: 'up-to-date', latest, reason: `uses ${inUse}, the newest allowed` };
  const fixes = fixesOf(chosen.version);
  const change = `${inUse} → ${chosen.version} (${chosen.assessment.kind})`;
  return {
    target: chosen.version,
    kind: chosen.assessment.kind,
    inRange: chosen.assessment.inRange,
    fixes,
    latest,
    reason: fixes.length > 0 ? `${change}, fixes ${fixes.join(', ')}` : change,
  };
}

/**
 * The dependency as the decide stage compares it (`use`), with `note` saying how its version in use was found when the
 * files did not say it; or, `unresolved`, why no version in use can be decided on.
 */
export type VersionInUse = { use: DependencyUse; note: string | null } | { unresolved: string };

/**
 * The version in use a decision is made against. The files' own answer when they give one (a lockfile entry, an exact
 * pin: `use.version`), or when they give no requirement to resolve (a bare name, a dist-tag) or the versions are commit
 * ids. Otherwise, a requirement without a lockfile entry, it is what that requirement resolves to today, as the package
 * manager would install it: among the versions the registry lists that are not yanked (deprecated ones only when no
 * other is allowed, as npm's `npm-pick-manifest` avoids them), the one `installedVersion` of `packages/ecosystems`
 * picks (the highest allowed, pre-releases only when the requirement asks; NuGet's lowest applicable); `note` then says
 * it was resolved, not read (`>=2.2,<3.0` with Django 2.2.28 listed: in use 2.2.28). `unresolved` when the registry
 * could not be asked (`answer.missing`) or lists no version the requirement allows: a range is never compared as if
 * its lowest version were installed.
 */
export function versionInUse(ecosystem: Ecosystem, use: DependencyUse, answer: RegistryAnswer): VersionInUse {
  const requirement = use.requirement;
  if (use.version !== null || requirement === null || ecosystem.versions.unordered) return { use, note: null };
  if ('missing' in answer) {
    return { unresolved: `version in use unknown: no lockfile entry, and '${requirement}' could not be resolved: ${answer.missing}` };
  }
  const installable = answer.versions.filter((v) => !v.yanked);
  const current = (list: readonly RegistryVersion[]) =>
    installedVersion(
      ecosystem,
      requirement,
      list.map((v) => v.version),
    );
  const version = current(installable.filter((v) => v.deprecated === null)) ?? current(installable);
  if (version === null) {
    return { unresolved: `version in use unknown: no lockfile entry, and no version the registry lists satisfies '${requirement}'` };
  }
  return {
    use: { ...use, version },
    note: `version in use ${version} resolved from '${requirement}' on the registry (no lockfile entry says which version is installed)`,
  };
}

/**
 * The target of a dependency pinned to a commit (an `unordered` scheme), as Dependabot's git_submodules update checker
 * chose it: the head of the branch the requirement names (the version whose `refs` hold it), else the registry's
 * `latest` (the default branch's head); an update when it is another commit than the one in use. Commits have no
 * advisories, so a security-updates-only config skips them; a head the config's ignore rules name (`rules.ignored`:
 * the dependency ignored whole) is skipped, with the rule's reason.
 */
export function chooseHead(
  ecosystem: Ecosystem,
  use: DependencyUse,
  versions: readonly RegistryVersion[],
  rules: TargetRules,
  registryLatest: string | null,
): TargetChoice {
  const scheme = ecosystem.versions;
  const branch = use.requirement;
  const head = (branch === null ? undefined : versions.find((v) => v.refs?.includes(branch))?.version) ?? registryLatest;
  const where = branch === null ? 'the default branch' : `branch ${branch}`;
  if (head === null || !scheme.isValid(head)) {
    return { target: null, outcome: 'up-to-date', latest: null, reason: `the registry names no head commit of ${where}` };
  }
  if (use.version === null || !scheme.isValid(use.version)) {
    return { target: null, outcome: 'up-to-date', latest: head, reason: 'the commit in use is unknown' };
  }
  if (scheme.compare(use.version, head) === 0) {
    return { target: null, outcome: 'up-to-date', latest: head, reason: `uses ${use.version}, the head of ${where}` };
  }
  if (rules.securityUpdatesOnly) {
    return {
      target: null,
      outcome: 'skipped',
      latest: head,
      reason: 'commits have no advisories and the config takes security updates only',
    };
  }
  const ignored = rules.ignored?.(head) ?? null;
  if (ignored !== null) return { target: null, outcome: 'skipped', latest: head, reason: ignored };
  const kind = scheme.updateKind(use.version, head);
  return { target: head, kind, inRange: true, fixes: [], latest: head, reason: `${use.version} → ${head} (the head of ${where})` };
}

/** What the registry said when a notification's run asked it: the package's versions, or why there are none. */
export type RegistryAnswer = { versions: readonly RegistryVersion[]; latest?: string | null } | { missing: string };

/** The version a notification's run targets, and whether the registry vouches for it. */
export interface NotificationTarget {
  version: string;
  /** The registry did not list the notified version (or could not be asked): the job says `unverified`. */
  unverified: boolean;
  /** Why the target is not the notified version, or why it is unverified; empty when neither. */
  note: string;
}

/**
 * The target of a release notification's run for one dependency (the original's rule: the notification "is not a
 * substitute for Dependabot being able to access your registry … triggered update runs … query your registry for the
 * latest version", https://github.com/dependabot/api-docs): when the registry lists the notified version, the version
 * {@link chooseTarget} chooses among the registry's versions if it is newer (a notification for 4.17.21 when 4.17.22 is
 * out targets 4.17.22), else the notified one; when the registry does not list it, or cannot be asked, the notified
 * version, `unverified` (a private release a registry mirror has not caught yet).
 */
export function notificationTarget(
  ecosystem: Ecosystem,
  use: DependencyUse | undefined,
  notified: string,
  answer: RegistryAnswer,
  rules: TargetRules,
  advisories: readonly AffectedPackage[],
): NotificationTarget {
  const scheme = ecosystem.versions;
  if ('missing' in answer) return { version: notified, unverified: true, note: `unverified: ${answer.missing}` };
  const listed = scheme.isValid(notified)
    ? answer.versions.some((v) => scheme.isValid(v.version) && scheme.compare(v.version, notified) === 0)
    : answer.versions.some((v) => v.version === notified);
  if (!listed) return { version: notified, unverified: true, note: `unverified: the registry does not list ${notified} yet` };
  if (!use || !scheme.isValid(notified)) return { version: notified, unverified: false, note: '' };
  const best = chooseTarget(ecosystem, use, answer.versions, rules, advisories, answer.latest ?? null);
  if (best.target !== null && scheme.compare(best.target, notified) > 0) {
    return {
      version: best.target,
      unverified: false,
      note: `the registry's newest allowed version ${best.target} is past the notified ${notified}`,
    };
  }
  return { version: notified, unverified: false, note: '' };
}

/**
 * The newest version a package lists that is neither yanked, deprecated nor a pre-release, by its ecosystem's order;
 * for an `unordered` scheme (commit ids), the registry's `latest` (the default branch's head); null when none is or
 * the package manager has no ecosystem.
 */
export function newestStable(
  packageManager: PackageManager,
  versions: readonly RegistryVersion[],
  latest: string | null = null,
): string | null {
  const scheme = ecosystemFor(packageManager)?.versions;
  if (!scheme) return null;
  if (scheme.unordered) return latest;
  let newest: string | null = null;
  for (const v of versions) {
    if (v.yanked || v.deprecated !== null || !scheme.isValid(v.version) || scheme.isPrerelease(v.version)) continue;
    if (newest === null || scheme.compare(v.version, newest) > 0) newest = v.version;
  }
  return newest;
}
