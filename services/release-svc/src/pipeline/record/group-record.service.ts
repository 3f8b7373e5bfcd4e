import { PullRequestJobCreatedEvent } from '@switchyard/contracts';
import type { Kysely } from 'kysely';
import { releaseOutbox } from '../../db/outbox.ts';
import type { ReleaseDatabase } from '../../db/schema.ts';
import { insertJobOnce, type NewJob } from '../../jobs/job.repository.ts';
import { insertJobUpdates } from '../../jobs/job-update.repository.ts';
import { findGroupedDependencies, linkRunJob, lockRunJobs, noteRunJobExisted } from '../../runs/update-run.repository.ts';
import type { GroupedUpdate, UpdateRunDependencyRow, UpdateRunRow } from '../../runs/update-run.table.ts';
import { groupDigest, largestKind } from '../decide/group.policy.ts';
import type { ReadableTarget } from '../read/target.policy.ts';
import { earlierJobOutcome } from './earlier-job.policy.ts';
import { recordJobBase } from './job-base.repository.ts';

type Db = Kysely<ReleaseDatabase>;

/** One dependency a run decided into a group, with its update. */
type Grouped = UpdateRunDependencyRow & { group_name: string; group_update: GroupedUpdate };

/**
 * The record stage's end of a run of every dependency: for each group the run decided updates into (`recordDependency`
 * with a group), one job for all of them, in one transaction per group: its updates (`pull_request_job_update`, in the
 * manifests' order), the run's dependencies linked to it, its `pull_request_job.created` event (the transactional
 * outbox). The job is the group's (`groupName`; `dependencyName` the group's name), its versions digests of its updates
 * (`groupDigest`: the same updates found again record nothing, and the earlier job says why, as for one dependency), of
 * the largest update kind, `runtime` when any update is, automerged when every update's rule allows it, in range when
 * every update is. A run whose initial job limit is reached records the group `skipped`. A run delivered again records
 * only the groups it has not. The commit the run read the files at (`baseSha`) is recorded on the job (`recordJobBase`).
 * @throws the database's errors
 */
export async function recordGroupJobs(db: Db, run: UpdateRunRow, target: ReadableTarget, baseSha?: string): Promise<void> {
  const rows = (await findGroupedDependencies(db, run.id)).filter(
    (row): row is Grouped => row.group_name !== null && row.group_update !== null,
  );
  const groups = new Map<string, Grouped[]>();
  for (const row of rows) groups.set(row.group_name, [...(groups.get(row.group_name) ?? []), row]);
  for (const [group, members] of groups) {
    await db.transaction().execute(async (trx) => {
      const limits = await lockRunJobs(trx, run.id);
      if (limits.jobLimit !== null && limits.jobsRecorded >= limits.jobLimit) {
        await noteRunJobExisted(
          trx,
          run.id,
          { group },
          {
            outcome: 'skipped',
            note: `not recorded: the account limits a config's first run to ${limits.jobLimit} jobs`,
            jobId: null,
          },
        );
        return;
      }
      const updates = members.map((row) => ({ name: row.name, ...row.group_update }));
      const job: NewJob = {
        notificationId: run.notification_id,
        updateRunId: run.id,
        unverified: updates.some((update) => update.unverified),
        updateConfigId: target.config.id,
        repoId: target.config.repoId,
        accountId: target.config.accountId,
        packageManager: target.ecosystem.packageManager,
        dependencyName: group,
        dependencyType: updates.some((update) => update.dependencyType === 'runtime') ? 'runtime' : 'development',
        versionInUse: groupDigest(updates.map(({ name, versionInUse }) => ({ name, version: versionInUse }))),
        targetVersion: groupDigest(updates.map(({ name, targetVersion }) => ({ name, version: targetVersion }))),
        updateKind: largestKind(updates.map((update) => update.updateKind)),
        automerge: updates.every((update) => update.automerge),
        securityFix: updates.some((update) => update.securityFix),
        targetBranch: target.branch,
        directory: target.config.directory,
        groupName: group,
      };
      const recording = await insertJobOnce(
        trx,
        undefined,
        job,
        updates.every((update) => update.inRange),
      );
      if ('blockedBy' in recording) {
        const earlier = earlierJobOutcome(recording.blockedBy);
        await noteRunJobExisted(
          trx,
          run.id,
          { group },
          {
            ...earlier,
            note: `the ${group} group's job: ${earlier.note}`,
            jobId: recording.blockedBy.id,
          },
        );
        return;
      }
      const recorded = recording.recorded;
      await recordJobBase(trx, recorded.id, baseSha);
      await insertJobUpdates(
        trx,
        updates.map((update, position) => ({
          job_id: recorded.id,
          position,
          dependency_name: update.name,
          dependency_type: update.dependencyType,
          version_in_use: update.versionInUse,
          target_version: update.targetVersion,
          update_kind: update.updateKind,
          in_range: update.inRange,
        })),
      );
      await linkRunJob(trx, run.id, { group }, recorded.id);
      await releaseOutbox.append(trx, [releaseOutbox.event(PullRequestJobCreatedEvent, { ...job, id: recorded.id })]);
    });
  }
}
