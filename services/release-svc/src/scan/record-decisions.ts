import { PullRequestJobCreatedEvent } from '@switchyard/contracts';
import { ecosystemFor } from '@switchyard/ecosystems';
import type { Kysely } from 'kysely';
import type { NotificationRow, ReleaseDatabase } from '../db/schema.ts';
import { insertJobOnce } from '../jobs/job.repository.ts';
import { releaseOutbox } from '../outbox.ts';
import type { ScanTarget } from '../read-model/read-model.repository.ts';
import { linkRunJob, noteRunJobExisted, recordNotificationRuns, type ScannedConfig } from '../update-runs/notification-run.ts';
import type { ScanDecision } from './decide.ts';
import { appendToReason, insertResultsOnce } from './scan-result.repository.ts';

type Db = Kysely<ReleaseDatabase>;

/** One config of a scan batch as the scan decided it; `target` undefined when the read model no longer knows it. */
export interface DecidedConfig {
  configId: number;
  target: ScanTarget | undefined;
  scanned: ScanDecision;
}

/**
 * Records what a scan batch decided, in one transaction: every config's result (a config that has one for the
 * notification already is left as it is: results are final, so a redelivered batch records nothing twice), the update
 * run of each config the read model knows (`notification:<id>`, once), and for each `job-recorded` decision its job
 * (once per config, dependency and target version: {@link insertJobOnce}) with its `pull_request_job.created` event in
 * the transactional outbox. Results and runs go in one statement each, whatever the batch's size, so a batch costs a
 * few round trips to PostgreSQL instead of six per config. Jobs are recorded in update-config order, so two
 * transactions that take the same jobs' advisory locks take them in the same order.
 * @throws the database's errors (nothing of the batch is then recorded)
 */
export async function recordDecisions(db: Db, notification: NotificationRow, decided: readonly DecidedConfig[]): Promise<void> {
  if (decided.length === 0) return;
  await db.transaction().execute(async (trx) => {
    const stored = await insertResultsOnce(
      trx,
      decided.map(({ configId, target, scanned: { decision } }) => ({
        notificationId: notification.id,
        updateConfigId: configId,
        repoId: target?.config.repoId ?? 0,
        accountId: target?.config.accountId ?? 0,
        outcome: decision.outcome,
        reason: decision.reason,
      })),
    );
    const fresh = decided.filter(({ configId }) => stored.has(configId));
    const known = fresh.flatMap(({ target, scanned }): ScannedConfig[] => (target ? [{ target, scanned }] : []));
    const runs = await recordNotificationRuns(trx, notification, known);
    const versions = ecosystemFor(notification.package_manager)?.versions;
    const events = [];
    for (const { configId, scanned } of [...fresh].sort((a, b) => a.configId - b.configId)) {
      const { decision, dependency } = scanned;
      if (decision.outcome !== 'job-recorded') continue;
      const runId = runs.get(configId);
      const data = { notificationId: notification.id, ...decision.job, updateRunId: runId ?? null };
      const job = await insertJobOnce(trx, versions, data);
      if (!job) {
        await appendToReason(trx, notification.id, configId, ' (job already recorded by an earlier notification)');
        if (runId && dependency) await noteRunJobExisted(trx, runId, dependency.name);
        continue;
      }
      if (runId && dependency) await linkRunJob(trx, runId, dependency.name, job.id);
      events.push(releaseOutbox.event(PullRequestJobCreatedEvent, { id: job.id, ...data }));
    }
    if (events.length > 0) await releaseOutbox.append(trx, events);
  });
}
