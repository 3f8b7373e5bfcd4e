import { type CodeHost, type CodeHostError, transientCodeHostError } from '@switchyard/code-host';
import { PullRequestJobCreatedEvent, type UpdateRunErrorKind } from '@switchyard/contracts';
import type { DependencyUse } from '@switchyard/ecosystems';
import type { RegistryError } from '@switchyard/registries';
import type { Logger } from '@switchyard/service-kit';
import type { Kysely } from 'kysely';
import type { AdvisoryLookup } from '../advisories/advisory-source.ts';
import type { ReleaseDatabase, UpdateRunRow } from '../db/schema.ts';
import { insertJobOnce } from '../jobs/job.repository.ts';
import { releaseOutbox } from '../outbox.ts';
import { findScanTargets } from '../read-model/read-model.repository.ts';
import { automergeAllowed, type ReadableTarget, readableTarget } from '../scan/decide.ts';
import { readAndParse } from '../scan/manifest-files.ts';
import { runPool } from '../scan/pool.ts';
import { chooseTarget } from './choose-target.ts';
import { isRegistryError, type RegistryAccess } from './registry-access.ts';
import {
  decidedDependencies,
  findRun,
  finishRun,
  hadEarlierRun,
  insertDependencyOnce,
  lockRunJobs,
  replaceConfigDependencies,
  startRun,
} from './update-run.repository.ts';

type Db = Kysely<ReleaseDatabase>;

/**
 * Jobs a config's first run records at most when its account sets `limit-initial-update-runs` (Dependabot Preview's
 * account setting: a repo's first run opened a handful of pull requests rather than one per outdated dependency). The
 * dependencies past the limit are recorded `skipped`, saying so; the next run takes them.
 */
export const INITIAL_RUN_JOB_LIMIT = 5;

export type { AdvisoryLookup };

/** What an update run needs. */
export interface UpdateRunDeps {
  db: Db;
  codeHost: CodeHost;
  /** The worker's own code-host token. */
  token: string;
  registries: RegistryAccess;
  advisories: AdvisoryLookup;
  logger: Logger;
  /** Dependencies checked at once within a run. */
  concurrency: number;
}

/** Raised when the code host is down or rate-limited: the run is delivered again later. */
export class TransientRunError extends Error {
  constructor(cause: CodeHostError) {
    super(`the code host did not answer: ${cause.message}`, { cause });
    this.name = 'TransientRunError';
  }
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
 * Carries out one update run: reads the config's manifests and lockfiles through the code host, lists every direct
 * dependency (`Ecosystem.listDependencies`), asks the registries (the account's private one first) for each,
 * `deps.concurrency` at a time, chooses the target version ({@link chooseTarget}) and records each dependency's
 * decision, with its job and the job's `pull_request_job.created` event when it is an update, in one transaction per
 * dependency (progress shows as `dependencies-checked`). A run delivered again goes on from the dependencies it has not
 * decided. The run fails, saying why, when the config is gone or its files cannot be read or parsed. A registry that
 * fails is that dependency's error (`registry_unreachable`, `registry_auth_failed`, …), not the run's.
 * @throws TransientRunError when the code host is down or rate-limited (the run stays `running`; delivered again)
 */
export async function executeRun(deps: UpdateRunDeps, runId: string, lastAttempt: boolean): Promise<void> {
  const { db } = deps;
  const run = await findRun(db, runId);
  if (!run || run.status === 'done' || run.status === 'failed') return;
  const target = (await findScanTargets(db, [run.update_config_id])).get(run.update_config_id);
  const readable = target ? readableTarget(target, target.config.packageManager) : undefined;
  if (!readable || 'skipped' in readable) {
    await finishRun(db, run.id, {
      error: readable && 'skipped' in readable ? readable.skipped.reason : 'the update config is no longer known',
      kind: null,
    });
    return;
  }
  let uses: DependencyUse[];
  try {
    const read = await readFiles(deps, readable);
    if ('failed' in read) {
      await finishRun(db, run.id, { error: read.failed, kind: 'manifest_unreadable' });
      return;
    }
    uses = read.uses;
  } catch (error) {
    const unavailable = transientCodeHostError(error);
    if (!unavailable) throw error;
    if (lastAttempt) {
      await finishRun(db, run.id, { error: `the code host did not answer: ${unavailable.message}`, kind: null });
      return;
    }
    throw new TransientRunError(unavailable);
  }
  const jobLimit = (await initialRunLimit(db, run)) ?? null;
  await startRun(db, run.id, uses.length, jobLimit);
  await db.transaction().execute((trx) =>
    replaceConfigDependencies(
      trx,
      run.update_config_id,
      uses.map((use) => use.name),
    ),
  );
  const decided = await decidedDependencies(db, run.id);
  const positions = new Map(uses.map((use, i) => [use.name, i]));
  try {
    // A run with a job limit decides in the manifests' order, so which dependencies get the limited jobs is not a race.
    await runPool(
      uses.filter((use) => !decided.has(use.name)),
      jobLimit === null ? deps.concurrency : 1,
      (use) => checkDependency(deps, run, readable, use, positions.get(use.name) ?? 0),
    );
  } catch (error) {
    // The code host's advisories could not be read: the dependencies decided so far stay, the rest wait for a later attempt.
    const unavailable = transientCodeHostError(error);
    if (!unavailable) throw error;
    if (!lastAttempt) throw new TransientRunError(unavailable);
    await finishRun(db, run.id, { error: `the code host did not answer: ${unavailable.message}`, kind: null });
    return;
  }
  await finishRun(db, run.id);
}

/** The job limit of the config's first run when its account limits initial runs, else undefined. */
async function initialRunLimit(db: Db, run: UpdateRunRow): Promise<number | undefined> {
  const account = await db.selectFrom('account').select('limit_initial_update_runs').where('id', '=', run.account_id).executeTakeFirst();
  if (!account?.limit_initial_update_runs) return undefined;
  return (await hadEarlierRun(db, run.update_config_id, run.id)) ? undefined : INITIAL_RUN_JOB_LIMIT;
}

/**
 * The config's direct dependencies, or why its files cannot be read (missing, too large, refused, not parseable).
 * @throws CodeHostError when the code host is down or rate-limited
 */
async function readFiles(
  deps: UpdateRunDeps,
  { config, repo, ecosystem, branch }: ReadableTarget,
): Promise<{ uses: DependencyUse[] } | { failed: string }> {
  const read = await readAndParse(
    deps.codeHost,
    deps.token,
    { repoFullName: repo.fullName, directory: config.directory, branch, ecosystem },
    (files) => ecosystem.listDependencies(files),
  );
  return 'failed' in read ? read : { uses: read.parsed };
}

/** Decides one dependency of a run and records the decision (and its job). */
async function checkDependency(
  deps: UpdateRunDeps,
  run: UpdateRunRow,
  target: ReadableTarget,
  use: DependencyUse,
  position: number,
): Promise<void> {
  const { config, ecosystem, branch } = target;
  const base = {
    run_id: run.id,
    position,
    name: use.name,
    dependency_type: use.type,
    requirement: use.requirement,
    version_in_use: use.version,
    latest_version: null,
    latest_allowed_version: null,
    error_kind: null,
    registry: null,
    job_id: null,
  } as const;
  let found: Awaited<ReturnType<RegistryAccess['fetch']>>;
  try {
    found = await deps.registries.fetch(config.accountId, ecosystem.packageManager, use.name);
  } catch (error) {
    if (!isRegistryError(error)) throw error;
    const registry = new URL(error.url).origin;
    await deps.db.transaction().execute((trx) =>
      insertDependencyOnce(trx, {
        ...base,
        outcome: 'error',
        reason: registryFailure(registry, error),
        error_kind: registryErrorKind(error),
        registry,
      }),
    );
    return;
  }
  if (!found || 'notFound' in found) {
    const asked = found ? found.registries : [];
    await deps.db.transaction().execute((trx) =>
      insertDependencyOnce(trx, {
        ...base,
        outcome: 'error',
        reason: found
          ? `${use.name} is not on ${asked.join(' nor on ')}${asked.length === 1 ? ' (the account has no registry credentials for this package manager)' : ''}`
          : `no registry is known for ${ecosystem.packageManager}`,
        error_kind: 'package_not_found',
        registry: asked.at(-1) ?? null,
      }),
    );
    return;
  }
  const advisories = use.version ? await deps.advisories(ecosystem, use.name) : [];
  const choice = chooseTarget(ecosystem, use, found.package.versions, config, advisories, found.package.latest);
  const seen = { ...base, latest_version: choice.latest, registry: found.registry };
  if (choice.target === null || use.version === null) {
    await deps.db
      .transaction()
      .execute((trx) =>
        insertDependencyOnce(trx, { ...seen, outcome: choice.target === null ? choice.outcome : 'up-to-date', reason: choice.reason }),
      );
    return;
  }
  const securityFix = choice.fixes.length > 0;
  const rule = use.type === 'runtime' ? config.automergeRuleRuntimeDeps : config.automergeRuleDevelopmentDeps;
  const versionInUse = use.version;
  await deps.db.transaction().execute(async (trx) => {
    const limits = await lockRunJobs(trx, run.id);
    const decided = { ...seen, latest_allowed_version: choice.target };
    if (limits.jobLimit !== null && limits.jobsRecorded >= limits.jobLimit) {
      await insertDependencyOnce(trx, {
        ...decided,
        outcome: 'skipped',
        reason: `${choice.reason}; not recorded: the account limits a config's first run to ${limits.jobLimit} jobs`,
      });
      return;
    }
    const data = {
      notificationId: run.notification_id,
      updateRunId: run.id,
      unverified: false,
      updateConfigId: config.id,
      repoId: config.repoId,
      accountId: config.accountId,
      packageManager: ecosystem.packageManager,
      dependencyName: use.name,
      dependencyType: use.type,
      versionInUse,
      targetVersion: choice.target,
      updateKind: choice.kind,
      automerge: automergeAllowed(rule, choice.kind, choice.inRange, securityFix),
      securityFix,
      targetBranch: branch,
      directory: config.directory,
    };
    const job = await insertJobOnce(trx, ecosystem.versions, data);
    if (!job) {
      await insertDependencyOnce(trx, {
        ...decided,
        outcome: 'up-to-date',
        reason: `${choice.reason}; a job to ${choice.target} was already recorded`,
      });
      return;
    }
    if (!(await insertDependencyOnce(trx, { ...decided, outcome: 'job-recorded', reason: choice.reason, job_id: job.id }))) {
      throw new Error(`dependency ${use.name} of run ${run.id} was decided twice at once`);
    }
    await releaseOutbox.append(trx, [releaseOutbox.event(PullRequestJobCreatedEvent, { id: job.id, ...data })]);
  });
}
