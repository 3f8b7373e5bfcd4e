import type { AutomergeRule, PackageManager, PullRequestJobCreated, ScanOutcome } from '@switchyard/contracts';
import { assessUpdate, type DependencyUse, type Ecosystem, ecosystemFor, type UpdateKind } from '@switchyard/ecosystems';
import { type AffectedPackage, fixedAdvisories } from '../advisories/advisory-match.ts';
import type { KnownRepo, KnownUpdateConfig, ScanTarget } from '../read-model/read-model.repository.ts';

/**
 * The update rules of a release scan, pure: which configs are read at all ({@link readableTarget}) and, once a
 * config's manifests are read, what the release means for it ({@link decide}). No I/O: the scan service
 * (`scan.service.ts`) reads the files and the advisories and records what these functions return.
 */

/** The attributes of a pull-request job: a `pull_request_job.created` event's payload without its ids. */
export type JobAttributes = Omit<PullRequestJobCreated, 'id' | 'notificationId'>;

/**
 * What a scan decided for one update config: `job-recorded` with the job's attributes, or another outcome
 * (`up-to-date`, `not-used`, `skipped`, `failed`); `reason` says why in words, for the notification's view.
 */
export type Decision =
  | { outcome: 'job-recorded'; reason: string; job: JobAttributes }
  | { outcome: Exclude<ScanOutcome, 'job-recorded'>; reason: string };

/** A config whose manifests can be read: known and not deleted, its repo known, its package manager supported. */
export interface ReadableTarget {
  config: KnownUpdateConfig;
  repo: KnownRepo;
  ecosystem: Ecosystem;
  /** Where its files are read: the config's target branch, else the repo's default branch. */
  branch: string;
}

/**
 * Whether a config of a notification about `packageManager` can be read, or the `skipped` decision that stands
 * without reading it: the config or its repo no longer known, the config deleted, the package manager not
 * supported (`packages/ecosystems` has no rules for it), in this order.
 */
export function readableTarget(target: ScanTarget | undefined, packageManager: PackageManager): ReadableTarget | { skipped: Decision } {
  const skip = (reason: string) => ({ skipped: { outcome: 'skipped', reason } satisfies Decision });
  if (!target) return skip('the update config or its repo is no longer known');
  const { config, repo } = target;
  if (config.deleted) return skip('the update config was deleted');
  const ecosystem = ecosystemFor(packageManager);
  if (!ecosystem) return skip(`package manager ${packageManager} is not supported yet`);
  if (!repo) return skip(`repo ${config.repoId} is not known to the service yet`);
  return { config, repo, ecosystem, branch: config.targetBranch ?? repo.defaultBranch };
}

/** What {@link decide} decides on. */
export interface DecisionInput {
  /** The config, as {@link readableTarget} found it readable. */
  target: ReadableTarget;
  /**
   * The released dependency and the version to decide on: the notified one, or the registry's newer one
   * (`notificationTarget`); `unverified` when the registry did not list it, `note` saying why it is not the notified one.
   */
  release: { name: string; version: string; unverified?: boolean; note?: string };
  /** The dependency as the config's manifests use it (`Ecosystem.findDependency`), undefined when they do not. */
  dependency: DependencyUse | undefined;
  /** The stored affected entries of advisories about the dependency (none when no advisory is known). */
  advisories: readonly AffectedPackage[];
}

/**
 * Decides what a release means for one config whose manifests were read:
 * - `not-used` when the manifests do not declare the dependency;
 * - `up-to-date` unless the ecosystem's rules (`assessUpdate` of `packages/ecosystems`) call the release an
 *   update for the version in use: a version in use at or past the release, a pre-release the config did not
 *   ask for, a version in use that cannot be read or is unknown; the reason is the assessment's, else
 *   "uses X, not older than Y";
 * - `skipped` for a lockfile-only config when the release is outside the manifest's requirement;
 * - `skipped` for a security-updates-only config unless an advisory affects the version in use and not the release;
 * - else `job-recorded`: the job, marked `security-fix` when it fixes an advisory, its automerge by
 *   {@link automergeAllowed} under the config's rule for the dependency's type (runtime or development).
 */
export function decide({ target, release, dependency: use, advisories }: DecisionInput): Decision {
  const { config, ecosystem, branch } = target;
  if (!use) return { outcome: 'not-used', reason: `${release.name} is not a dependency in ${config.directory}` };
  const assessment = assessUpdate(ecosystem, use, release.version);
  if (!assessment.outdated || !assessment.kind || !use.version) {
    return {
      outcome: 'up-to-date',
      reason: assessment.reason ?? `uses ${use.version ?? 'an unknown version'}, not older than ${release.version}`,
    };
  }
  if (config.lockfileOnly && !assessment.inRange) {
    return {
      outcome: 'skipped',
      reason: `${release.version} is outside the manifest's requirement ${use.requirement ?? ''} and the config is lockfile-only`.replace(
        '  ',
        ' ',
      ),
    };
  }
  const fixes = fixedAdvisories(ecosystem.versions, advisories, use.version, release.version);
  const securityFix = fixes.length > 0;
  if (config.securityUpdatesOnly && !securityFix) {
    return {
      outcome: 'skipped',
      reason: `no known advisory for ${use.name} ${use.version} is fixed by ${release.version} and the config takes security updates only`,
    };
  }
  const rule = use.type === 'runtime' ? config.automergeRuleRuntimeDeps : config.automergeRuleDevelopmentDeps;
  const change = `${use.version} → ${release.version} (${assessment.kind})`;
  const reason = securityFix ? `${change}, fixes ${fixes.join(', ')}` : change;
  return {
    outcome: 'job-recorded',
    reason: release.note ? `${reason}; ${release.note}` : reason,
    job: {
      updateRunId: null,
      unverified: release.unverified ?? false,
      updateConfigId: config.id,
      repoId: config.repoId,
      accountId: config.accountId,
      packageManager: ecosystem.packageManager,
      dependencyName: use.name,
      dependencyType: use.type,
      versionInUse: use.version,
      targetVersion: release.version,
      updateKind: assessment.kind,
      automerge: automergeAllowed(rule, assessment.kind, assessment.inRange, securityFix),
      securityFix,
      targetBranch: branch,
      directory: config.directory,
    },
  };
}

/**
 * Whether a job is merged automatically under a config's automerge rule for the dependency's type (the
 * dependency update API's automerge values, https://github.com/dependabot/api-docs): `never`;
 * `security:patch` a patch update that fixes a known vulnerability; `semver:patch` any patch update;
 * `semver:minor` a minor or patch update; `in_range` an update the manifest's requirement already allows;
 * `all` every update.
 */
export function automergeAllowed(rule: AutomergeRule, kind: UpdateKind, inRange: boolean, securityFix: boolean): boolean {
  switch (rule) {
    case 'never':
      return false;
    case 'security:patch':
      return securityFix && kind === 'patch';
    case 'semver:patch':
      return kind === 'patch';
    case 'semver:minor':
      return kind === 'patch' || kind === 'minor';
    case 'in_range':
      return inRange;
    case 'all':
      return true;
  }
}

/** A config's decision, and what the run that made it read: the dependency, and what the registry said. */
export interface ScanDecision {
  decision: Decision;
  dependency?: DependencyUse | undefined;
  registry?: string | null;
  latest?: string | null;
}
