import {
  type AutomergeRule,
  DEFAULT_UPDATE_CONFIG_SETTINGS,
  type DependencyCheckOutcome,
  type PackageManager,
  type PullRequestJobCreated,
  type ScanOutcome,
  type UpdateRunErrorKind,
} from '@switchyard/contracts';
import { assessUpdate, type DependencyUse, ecosystemFor, type UpdateKind } from '@switchyard/ecosystems';
import type { RegistryError } from '@switchyard/registries';
import { type AffectedPackage, fixedAdvisories } from '../../advisories/advisory-match.policy.ts';
import type { KnownUpdateConfig } from '../../read-model/scan-target.model.ts';
import type { ReadableTarget, RunScope } from '../read/target.policy.ts';
import type { Resolved } from '../resolve/resolved.model.ts';
import { chooseTarget, newestStable, notificationTarget, type RegistryAnswer, versionInUse } from './choose-target.policy.ts';
import { ignoredBy, notAllowed } from './config-rules.policy.ts';

/**
 * The decide stage of the pipeline, pure: what the config's policies (lockfile-only, security-updates-only, the
 * automerge rules; the version rules of `choose-target.policy.ts`) make of one dependency, given what the resolve stage
 * found. {@link decideRelease} decides a notification's one dependency ({@link decide}: the notified version, or the
 * registry's newer one); {@link decideDependency} decides a dependency of a run of every dependency. No I/O: the run
 * service reads and resolves, the record stage records what these return.
 */

/** The attributes of a pull-request job: a `pull_request_job.created` event's payload without its ids. */
export type JobAttributes = Omit<PullRequestJobCreated, 'id' | 'notificationId' | 'groupName'> & { groupName?: string | null };

/**
 * What a scan decided for one update config: `job-recorded` with the job's attributes, or another outcome
 * (`up-to-date`, `not-used`, `skipped`, `failed`); `reason` says why in words, for the notification's view.
 */
export type Decision =
  | { outcome: 'job-recorded'; reason: string; job: JobAttributes }
  | { outcome: Exclude<ScanOutcome, 'job-recorded'>; reason: string };

/** What {@link decide} decides on. */
export interface DecisionInput {
  /** The config, as `readableTarget` found it readable. */
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
 * - `skipped` when the config's allow rules leave the dependency out (not for a security fix) or its ignore rules name
 *   the release (`notAllowed`, `ignoredBy`);
 * - `skipped` for a security-updates-only config unless an advisory affects the version in use and not the release;
 * - else `job-recorded`: the job, marked `security-fix` when it fixes an advisory, its automerge by
 *   {@link automergeAllowed} under the config's rule for the dependency's type (runtime or development).
 */
export function decide({ target, release, dependency: use, advisories }: DecisionInput): Decision {
  const { config, ecosystem } = target;
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
  const rules = { ...(config.settings ?? DEFAULT_UPDATE_CONFIG_SETTINGS), held: config.held ?? [] };
  const excluded = (securityFix ? null : notAllowed(rules, use)) ?? ignoredBy(rules, ecosystem, use, release.version);
  if (excluded !== null) return { outcome: 'skipped', reason: excluded };
  if (config.securityUpdatesOnly && !securityFix) {
    return {
      outcome: 'skipped',
      reason: `no known advisory for ${use.name} ${use.version} is fixed by ${release.version} and the config takes security updates only`,
    };
  }
  const change = `${use.version} → ${release.version} (${assessment.kind})`;
  const reason = securityFix ? `${change}, fixes ${fixes.join(', ')}` : change;
  return {
    outcome: 'job-recorded',
    reason: release.note ? `${reason}; ${release.note}` : reason,
    job: jobOf(target, use, {
      versionInUse: use.version,
      targetVersion: release.version,
      kind: assessment.kind,
      inRange: assessment.inRange,
      securityFix,
      unverified: release.unverified ?? false,
      updateRunId: null,
    }),
  };
}

/**
 * The job that updates `use` of the target config to `update.targetVersion`: its attributes, automerge by
 * {@link automergeAllowed} under the config's rule for the dependency's type (runtime or development).
 */
export function jobOf(
  { config, ecosystem, branch }: ReadableTarget,
  use: DependencyUse,
  update: {
    versionInUse: string;
    targetVersion: string;
    kind: UpdateKind;
    inRange: boolean;
    securityFix: boolean;
    unverified: boolean;
    updateRunId: string | null;
  },
): JobAttributes {
  const rule = use.type === 'runtime' ? config.automergeRuleRuntimeDeps : config.automergeRuleDevelopmentDeps;
  return {
    updateRunId: update.updateRunId,
    unverified: update.unverified,
    updateConfigId: config.id,
    repoId: config.repoId,
    accountId: config.accountId,
    packageManager: ecosystem.packageManager,
    dependencyName: use.name,
    dependencyType: use.type,
    versionInUse: update.versionInUse,
    targetVersion: update.targetVersion,
    updateKind: update.kind,
    automerge: automergeAllowed(rule, update.kind, update.inRange, update.securityFix),
    securityFix: update.securityFix,
    targetBranch: branch,
    directory: config.directory,
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

/**
 * A config's decision, and what the run that made it read: the dependency (its version in use resolved from the
 * registry when the files did not lock one, see `versionInUse`), and what the registry said.
 */
export interface ScanDecision {
  decision: Decision;
  dependency?: DependencyUse | undefined;
  registry?: string | null;
  latest?: string | null;
}

/**
 * A notification's one dependency decided ({@link decide}) on what the resolve stage found: the version the registry
 * points to (`notificationTarget`: the notified one, or the registry's newer allowed one; `unverified` when the
 * registry does not list it or cannot be asked), with the registry that answered and the newest stable version it
 * lists, for the run's record. A requirement without a lockfile entry is decided against the version it resolves to on
 * the registry (`versionInUse`; the reason says so), and is `skipped`, saying why, when it resolves to none (the
 * registry cannot be asked, or lists no version it allows), never compared with its lowest version.
 * `found` undefined: the config does not use the dependency (`not-used`).
 */
export function decideRelease(
  target: ReadableTarget,
  scope: Extract<RunScope, { kind: 'one-dependency' }>,
  found: { use: DependencyUse; resolved: Resolved; advisories: readonly AffectedPackage[] } | undefined,
): ScanDecision {
  const release = { name: scope.name, version: scope.version };
  if (!found) return { decision: decide({ target, release, dependency: undefined, advisories: [] }) };
  const { resolved, advisories } = found;
  const asked = registryAnswerOf(resolved, scope);
  const seen = { registry: asked.registry, latest: asked.latest };
  const inUse = versionInUse(target.ecosystem, found.use, asked.answer);
  if ('unresolved' in inUse) return { decision: { outcome: 'skipped', reason: inUse.unresolved }, dependency: found.use, ...seen };
  const { use, note } = inUse;
  const chosen = notificationTarget(target.ecosystem, use, scope.version, asked.answer, target.config, advisories);
  const decision = decide({
    target,
    release: { ...release, version: chosen.version, unverified: chosen.unverified, note: chosen.note },
    dependency: use,
    advisories,
  });
  return { decision: note ? { ...decision, reason: `${decision.reason}; ${note}` } : decision, dependency: use, ...seen };
}

/** What the registries said of a notification's package, as `notificationTarget` reads it, and which registry said it. */
function registryAnswerOf(
  resolved: Resolved,
  { packageManager, name }: { packageManager: ReadableTarget['ecosystem']['packageManager']; name: string },
): { answer: RegistryAnswer; registry: string | null; latest: string | null } {
  if ('noRegistry' in resolved) return { answer: { missing: `no registry is known for ${packageManager}` }, registry: null, latest: null };
  if ('notFound' in resolved) {
    return {
      answer: { missing: `${name} is not on ${resolved.notFound.join(' nor on ')}` },
      registry: resolved.notFound.at(-1) ?? null,
      latest: null,
    };
  }
  if ('failed' in resolved) {
    const error = resolved.failed;
    return {
      answer: { missing: `the registry could not be asked (${error.kind}): ${error.message}` },
      registry: new URL(error.url).origin,
      latest: null,
    };
  }
  const { package: found, registry } = resolved.found;
  return {
    answer: { versions: found.versions, latest: found.latest },
    registry,
    latest: newestStable(packageManager, found.versions, found.latest),
  };
}

/**
 * A dependency of a run of every dependency as the decide stage sees it: its outcome and reason (for the run's record),
 * the registry that answered, the newest version a user would call the latest and the newest allowed; the job's
 * attributes when it is an update (the record stage may still find the job recorded before, or the run's job limit
 * reached).
 */
export interface DependencyDecision {
  outcome: DependencyCheckOutcome;
  reason: string;
  errorKind: UpdateRunErrorKind | null;
  registry: string | null;
  latest: string | null;
  latestAllowed: string | null;
  job?: JobAttributes;
  /** Whether the job's update is within the manifest's requirement (the `in_range` automerge rule). */
  inRange?: boolean;
  /**
   * The dependency as decided, when the registry answered: its version in use resolved from its requirement when the
   * files did not lock one (`versionInUse`), which the run records as `version-in-use`.
   */
  dependency?: DependencyUse;
}

/**
 * Decides one dependency of a run of every dependency on what the resolve stage found: a registry that failed or does
 * not know the package is the dependency's `error` (with its kind); else the version {@link chooseTarget} chooses by the
 * config's rules (its ignore rules among them), an update (with its job) or why not (`up-to-date`, `skipped`; a
 * dependency the config's allow rules leave out is `skipped` unless the update fixes an advisory). The version in use is the files' own,
 * or, for a requirement without a lockfile entry, what it resolves to among the registry's versions (`versionInUse`:
 * the reason says it was resolved; `skipped` when nothing listed is allowed), never the requirement's lowest version.
 */
export function decideDependency(
  target: ReadableTarget,
  use: DependencyUse,
  resolved: Resolved,
  advisories: readonly AffectedPackage[],
  updateRunId: string,
): DependencyDecision {
  const { ecosystem } = target;
  const none = { latest: null, latestAllowed: null } as const;
  if ('failed' in resolved) {
    const registry = new URL(resolved.failed.url).origin;
    return {
      ...none,
      outcome: 'error',
      reason: registryFailure(registry, resolved.failed),
      errorKind: registryErrorKind(resolved.failed),
      registry,
    };
  }
  if ('noRegistry' in resolved || 'notFound' in resolved) {
    const asked = 'notFound' in resolved ? resolved.notFound : [];
    return {
      ...none,
      outcome: 'error',
      reason:
        'notFound' in resolved
          ? `${use.name} is not on ${asked.join(' nor on ')}${asked.length === 1 ? ' (the account has no registry credentials for this package manager)' : ''}`
          : `no registry is known for ${ecosystem.packageManager}`,
      errorKind: 'package_not_found',
      registry: asked.at(-1) ?? null,
    };
  }
  const { package: found, registry } = resolved.found;
  const inUse = versionInUse(ecosystem, use, { versions: found.versions });
  if ('unresolved' in inUse) {
    const latest = newestStable(ecosystem.packageManager, found.versions, found.latest);
    return { errorKind: null, registry, latest, latestAllowed: null, outcome: 'skipped', reason: inUse.unresolved, dependency: use };
  }
  const { use: decided, note } = inUse;
  const noted = (reason: string) => (note ? `${reason}; ${note}` : reason);
  const rules = { ...(target.config.settings ?? DEFAULT_UPDATE_CONFIG_SETTINGS), held: target.config.held ?? [] };
  const ignored = (version: string) => ignoredBy(rules, ecosystem, decided, version);
  const choice = chooseTarget(ecosystem, decided, found.versions, { ...target.config, ignored }, advisories, found.latest);
  const refused = choice.target !== null && choice.fixes.length === 0 ? notAllowed(rules, decided) : null;
  if (refused !== null) {
    return {
      errorKind: null,
      registry,
      latest: choice.latest,
      latestAllowed: null,
      outcome: 'skipped',
      reason: noted(refused),
      dependency: decided,
    };
  }
  const seen = { errorKind: null, registry, latest: choice.latest, dependency: decided } as const;
  if (choice.target === null || decided.version === null) {
    return {
      ...seen,
      latestAllowed: null,
      outcome: choice.target === null ? choice.outcome : 'up-to-date',
      reason: noted(choice.reason),
    };
  }
  const job = jobOf(target, decided, {
    versionInUse: decided.version,
    targetVersion: choice.target,
    kind: choice.kind,
    inRange: choice.inRange,
    securityFix: choice.fixes.length > 0,
    unverified: false,
    updateRunId,
  });
  return { ...seen, latestAllowed: choice.target, outcome: 'job-recorded', reason: noted(choice.reason), job, inRange: choice.inRange };
}

/**
 * Whether updating `use` to `version` stays within the manifest's requirement, by the ecosystem's rules
 * (`assessUpdate`); false when the package manager has no ecosystem or the dependency is not known.
 */
export function updateInRange(packageManager: PackageManager, use: DependencyUse | undefined, version: string): boolean {
  const ecosystem = ecosystemFor(packageManager);
  return ecosystem !== undefined && use !== undefined && assessUpdate(ecosystem, use, version).inRange;
}

/** The error kind of a registry failure. */
function registryErrorKind(error: RegistryError): UpdateRunErrorKind {
  switch (error.kind) {
    case 'auth_failed':
      return 'registry_auth_failed';
    case 'unreachable':
      return 'registry_unreachable';
    case 'bad_response':
      return 'registry_bad_response';
  }
}

/** A registry failure in words, e.g. `the registry http://127.0.0.1:8091 refused the credentials: 401 …`. */
function registryFailure(registry: string, error: RegistryError): string {
  const what = {
    auth_failed: 'refused the credentials',
    unreachable: 'could not be reached',
    bad_response: 'answered something unreadable',
  }[error.kind];
  return `the registry ${registry} ${what}: ${error.message}`;
}

/**
 * Whether a recorded job is merged automatically under its config's automerge rules now ({@link automergeAllowed} with
 * the rule of the dependency's type); a group's job (`updates` its updates) when the rule of each update's type allows
 * that update: a group is merged as a whole or not at all.
 */
export function jobAutomergeAllowed(
  config: Pick<KnownUpdateConfig, 'automergeRuleRuntimeDeps' | 'automergeRuleDevelopmentDeps'>,
  job: { dependency_type: 'runtime' | 'development'; update_kind: UpdateKind; in_range: boolean; security_fix: boolean },
  updates?: readonly { dependency_type: 'runtime' | 'development'; update_kind: UpdateKind; in_range: boolean }[],
): boolean {
  const rule = (type: 'runtime' | 'development') =>
    type === 'runtime' ? config.automergeRuleRuntimeDeps : config.automergeRuleDevelopmentDeps;
  if (updates === undefined) return automergeAllowed(rule(job.dependency_type), job.update_kind, job.in_range, job.security_fix);
  return (
    updates.length > 0 &&
    updates.every((update) => automergeAllowed(rule(update.dependency_type), update.update_kind, update.in_range, job.security_fix))
  );
}
