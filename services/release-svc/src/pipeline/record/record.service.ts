import { PullRequestJobCreatedEvent } from '@switchyard/contracts';
import { type DependencyUse, ecosystemFor } from '@switchyard/ecosystems';
import type { Insertable, Kysely } from 'kysely';
import { releaseOutbox } from '../../db/outbox.ts';
import type { ReleaseDatabase } from '../../db/schema.ts';
import { insertJobOnce } from '../../jobs/job.repository.ts';
import type { ScanTarget } from '../../read-model/scan-target.model.ts';
import { requestRun } from '../../runs/run-request.service.ts';
import {
  type FinishedRun,
  insertDependencyOnce,
  insertFinishedRunsOnce,
  insertRunDependencies,
  linkRunJob,
  lockRunJobs,
  noteRunDependencyGrouped,
  noteRunJobExisted,
} from '../../runs/update-run.repository.ts';
import type { GroupedUpdate, UpdateRunDependencyTable } from '../../runs/update-run.table.ts';
import { type DependencyDecision, type ScanDecision, updateInRange } from '../decide/decide.policy.ts';
import { groupOf } from '../decide/group.policy.ts';
import type { RunScope } from '../read/target.policy.ts';
import { replaceConfigDependencies } from './config-dependency.repository.ts';
import { earlierJobOutcome } from './earlier-job.policy.ts';
import { recordJobBase } from './job-base.repository.ts';
import { appendToReason, insertResultsOnce } from './scan-result.repository.ts';

type Db = Kysely<ReleaseDatabase>;

/**
 * The record stage of the pipeline: what the decide stage decided, written once, with each new job's
 * `pull_request_job.created` event in the same transaction (the transactional outbox), which the deliver stage takes. A
 * job is unique per update config, dependency and target version ({@link insertJobOnce}), so a redelivered message, a
 * killed worker or a repeated notification never records one twice.
 */

/** One config of a notification's fan-out batch as the pipeline decided it; `target` undefined when the read model no longer knows it. */
export interface DecidedConfig {
  configId: number;
  target: ScanTarget | undefined;
  scanned: ScanDecision;
  /** The commit of the target branch its files were read at, recorded on its job (`base_sha`) when there is one. */
  baseSha?: string | undefined;
}

/**
 * Records what a fan-out batch decided, in one transaction: every config's result (a config that has one for the
 * notification already is left as it is: results are final, so a redelivered batch records nothing twice), the update
 * run of each config the read model knows (`notification:<id>`, finished, with the notified dependency as it checked it),
 * and for each `job-recorded` decision its job with its event (for an update a dependency group of the config takes, a
 * run of every dependency of the config instead, which makes the group's pull request again with it). Results and runs go in one statement each, whatever the
 * batch's size, so a batch costs a few round trips to PostgreSQL instead of six per config. Jobs are recorded in
 * update-config order, so two transactions that take the same jobs' advisory locks take them in the same order.
 * @throws the database's errors (nothing of the batch is then recorded)
 */
export async function recordFanOut(
  db: Db,
  scope: Extract<RunScope, { kind: 'one-dependency' }>,
  decided: readonly DecidedConfig[],
): Promise<void> {
  if (decided.length === 0) return;
  await db.transaction().execute(async (trx) => {
    const stored = await insertResultsOnce(
      trx,
      decided.map(({ configId, target, scanned: { decision } }) => ({
        notificationId: scope.notificationId,
        updateConfigId: configId,
        repoId: target?.config.repoId ?? 0,
        accountId: target?.config.accountId ?? 0,
        outcome: decision.outcome,
        reason: decision.reason,
      })),
    );
    const fresh = decided.filter(({ configId }) => stored.has(configId));
    const runs = await recordFinishedRuns(trx, scope, fresh);
    const versions = ecosystemFor(scope.packageManager)?.versions;
    const events = [];
    for (const { configId, target, scanned, baseSha } of [...fresh].sort((a, b) => a.configId - b.configId)) {
      const { decision, dependency } = scanned;
      if (decision.outcome !== 'job-recorded') continue;
      const runId = runs.get(configId);
      const group = target ? groupOf(target.config.settings?.groups ?? [], { name: decision.job.dependencyName, ...decision.job }) : null;
      if (group !== null && target) {
        // A grouped dependency's release updates its group's pull request: a run of every dependency makes it again.
        const groupRun = await requestRun(trx, {
          updateConfigId: configId,
          repoId: target.config.repoId,
          accountId: target.config.accountId,
          trigger: 'notification',
          triggerKey: `notification:${scope.notificationId}:group`,
          notificationId: scope.notificationId,
        });
        const note = `in the ${group} group: ${groupRun ? `run ${groupRun.id}` : "the config's run"} updates the group's pull request`;
        await appendToReason(trx, scope.notificationId, configId, ` (${note})`);
        if (runId && dependency) await noteRunDependencyGrouped(trx, runId, dependency.name, group, note);
        continue;
      }
      const data = { notificationId: scope.notificationId, ...decision.job, updateRunId: runId ?? null };
      const inRange = updateInRange(scope.packageManager, dependency, data.targetVersion);
      const recording = await insertJobOnce(trx, versions, data, inRange);
      if ('blockedBy' in recording) {
        const earlier = earlierJobOutcome(recording.blockedBy);
        await appendToReason(trx, scope.notificationId, configId, ` (job already recorded: ${earlier.note})`);
        if (runId && dependency)
          await noteRunJobExisted(trx, runId, { name: dependency.name }, { ...earlier, jobId: recording.blockedBy.id });
        continue;
      }
      const job = recording.recorded;
      await recordJobBase(trx, job.id, baseSha);
      if (runId && dependency) await linkRunJob(trx, runId, { name: dependency.name }, job.id);
      events.push(releaseOutbox.event(PullRequestJobCreatedEvent, { id: job.id, ...data }));
    }
    if (events.length > 0) await releaseOutbox.append(trx, events);
  });
}

/**
 * The runs a fan-out batch's configs that the read model knows are (`notification:<id>`, once per config), recorded
 * finished in two statements: each config's run, and the notified dependency as the run checked it (none when the
 * config does not use it), or the reason the files could not be read (`failed`). `GET /update_runs` shows them beside
 * scheduled and manual runs.
 * @returns the new runs' ids by update config id (a config whose run was recorded before is not in it)
 */
async function recordFinishedRuns(
  trx: Db,
  scope: Extract<RunScope, { kind: 'one-dependency' }>,
  decided: readonly DecidedConfig[],
): Promise<Map<number, string>> {
  const known = decided.flatMap(({ target, scanned }) => (target ? [{ target, scanned }] : []));
  const runs = await insertFinishedRunsOnce(
    trx,
    known.map(({ target, scanned: { decision, dependency } }): FinishedRun => {
      const failed = decision.outcome === 'failed' || (decision.outcome === 'skipped' && !dependency);
      const checked = dependency ? 1 : 0;
      return {
        update_config_id: target.config.id,
        repo_id: target.config.repoId,
        account_id: target.config.accountId,
        trigger: 'notification',
        trigger_key: `notification:${scope.notificationId}`,
        status: failed ? 'failed' : 'done',
        slot: null,
        notification_id: scope.notificationId,
        requested_by: null,
        job_limit: null,
        dependencies_total: checked,
        dependencies_checked: checked,
        error: failed || !dependency ? decision.reason : null,
        error_kind: decision.outcome === 'failed' ? 'manifest_unreadable' : null,
      };
    }),
  );
  await insertRunDependencies(
    trx,
    known.flatMap(({ target, scanned: { decision, dependency, registry, latest } }): Insertable<UpdateRunDependencyTable>[] => {
      const runId = runs.get(target.config.id);
      if (!runId || !dependency) return [];
      return [
        {
          run_id: runId,
          position: 0,
          name: dependency.name,
          dependency_type: dependency.type,
          requirement: dependency.requirement,
          version_in_use: dependency.version,
          latest_version: latest ?? null,
          latest_allowed_version: decision.outcome === 'job-recorded' ? decision.job.targetVersion : null,
          outcome: decision.outcome === 'job-recorded' ? 'job-recorded' : decision.outcome === 'skipped' ? 'skipped' : 'up-to-date',
          reason: decision.reason,
          error_kind: null,
          registry: registry ?? null,
          job_id: null,
        },
      ];
    }),
  );
  return runs;
}

/**
 * Records one dependency of a run of every dependency as decided, in one transaction (the run's progress shows as
 * `dependencies-checked`), unless it was recorded already: an update becomes a job with its event, unless the run's job
 * limit is reached (`skipped`, saying so: the dependencies of a limited run are recorded one at a time, in the
 * manifests' order) or an earlier job to that version stands in the way (`pr-open` while it is under way, `skipped` when a
 * person ignored that version or it failed; `earlierJobOutcome`). An update decided into a dependency group (`group`,
 * `groupOf`) is recorded with its group and no job: the run records the group's one job at its end. `baseSha`, the
 * commit the run read the files at, is recorded on the job (`recordJobBase`): its pull request is made on it.
 * @throws Error when the same dependency of the run was recorded twice at once (a bug: one execution holds a run);
 *   the database's errors
 */
export async function recordDependency(
  db: Db,
  run: { id: string; notificationId: string | null },
  use: DependencyUse,
  position: number,
  decided: DependencyDecision,
  group: string | null = null,
  baseSha?: string,
): Promise<void> {
  const row: Insertable<UpdateRunDependencyTable> = {
    run_id: run.id,
    position,
    name: use.name,
    dependency_type: use.type,
    requirement: use.requirement,
    version_in_use: use.version,
    latest_version: decided.latest,
    latest_allowed_version: decided.latestAllowed,
    outcome: decided.outcome,
    reason: decided.reason,
    error_kind: decided.errorKind,
    registry: decided.registry,
    job_id: null,
  };
  const { job } = decided;
  if (!job) {
    await db.transaction().execute((trx) => insertDependencyOnce(trx, row));
    return;
  }
  if (group !== null) {
    // The group's one job is recorded at the run's end, with every update decided into it (`recordGroupJobs`).
    const update: GroupedUpdate = {
      dependencyType: job.dependencyType,
      versionInUse: job.versionInUse,
      targetVersion: job.targetVersion,
      updateKind: job.updateKind,
      inRange: decided.inRange ?? false,
      automerge: job.automerge,
      securityFix: job.securityFix,
      unverified: job.unverified,
    };
    await db.transaction().execute((trx) =>
      insertDependencyOnce(trx, {
        ...row,
        reason: `${decided.reason}; in the ${group} group's pull request`,
        group_name: group,
        group_update: JSON.stringify(update),
      }),
    );
    return;
  }
  await db.transaction().execute(async (trx) => {
    const limits = await lockRunJobs(trx, run.id);
    if (limits.jobLimit !== null && limits.jobsRecorded >= limits.jobLimit) {
      await insertDependencyOnce(trx, {
        ...row,
        outcome: 'skipped',
        reason: `${decided.reason}; not recorded: the account limits a config's first run to ${limits.jobLimit} jobs`,
      });
      return;
    }
    const data = { notificationId: run.notificationId, ...job };
    const recording = await insertJobOnce(trx, ecosystemFor(job.packageManager)?.versions, data, decided.inRange ?? false);
    if ('blockedBy' in recording) {
      const earlier = earlierJobOutcome(recording.blockedBy);
      await insertDependencyOnce(trx, {
        ...row,
        outcome: earlier.outcome,
        reason: `${decided.reason}; a job to ${job.targetVersion} was already recorded: ${earlier.note}`,
        job_id: earlier.outcome === 'pr-open' ? recording.blockedBy.id : null,
      });
      return;
    }
    const recorded = recording.recorded;
    await recordJobBase(trx, recorded.id, baseSha);
    if (!(await insertDependencyOnce(trx, { ...row, job_id: recorded.id }))) {
      throw new Error(`dependency ${use.name} of run ${run.id} was decided twice at once`);
    }
    await releaseOutbox.append(trx, [releaseOutbox.event(PullRequestJobCreatedEvent, { id: recorded.id, ...data })]);
  });
}

/** Records the dependencies a config's run found (`config_dependency`: what the registry watch polls for `live` configs). */
export async function recordDependenciesUsed(db: Db, updateConfigId: number, uses: readonly DependencyUse[]): Promise<void> {
  await db.transaction().execute((trx) =>
    replaceConfigDependencies(
      trx,
      updateConfigId,
      uses.map((use) => use.name),
    ),
  );
}
