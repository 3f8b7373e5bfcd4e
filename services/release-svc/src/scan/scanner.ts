import { type CodeHost, CodeHostError } from '@switchyard/code-host';
import type { AutomergeRule, PackageManager, PullRequestJobCreated, ScanOutcome, ScanRequested } from '@switchyard/contracts';
import { assessUpdate, type Ecosystem, ecosystemFor, ManifestParseError } from '@switchyard/ecosystems';
import type { Logger } from '@switchyard/service-kit';
import { type Kysely, sql } from 'kysely';
import { assessSecurity } from '../advisories/advisory-match.ts';
import type { NotificationRow, ReleaseDatabase, UpdateConfigRow } from '../db/schema.ts';
import { appendEvents, releaseEvent } from '../events.ts';
import { insertJobOnce } from '../jobs/job.repository.ts';
import { completeIfScanned, findNotification } from '../notifications/notification.repository.ts';
import { readManifestFiles } from './manifest-files.ts';
import { automergeAllowed } from './policies.ts';

type Db = Kysely<ReleaseDatabase>;

/** What the scanner needs: the database, the code host and the worker's own token for it. */
export interface ScannerDeps {
  db: Db;
  codeHost: CodeHost;
  token: string;
  logger: Logger;
  /** Configs scanned at once within a batch. */
  concurrency: number;
}

/** A config's final result, and the job when one is due. */
interface Decision {
  outcome: ScanOutcome;
  reason: string;
  job?: Omit<PullRequestJobCreated, 'id' | 'notificationId'>;
}

type Target = UpdateConfigRow & { full_name: string | null; default_branch: string | null };

/** Raised when some configs of a batch met a code-host failure that a later attempt may not meet. */
export class TransientScanError extends Error {
  constructor(count: number, cause: unknown) {
    super(`${count} update config(s) could not be scanned yet: ${cause instanceof Error ? cause.message : String(cause)}`, { cause });
    this.name = 'TransientScanError';
  }
}

function transient(error: unknown): boolean {
  return error instanceof CodeHostError && (error.kind === 'unavailable' || error.kind === 'rate_limited');
}

/**
 * Scans one batch of a notification: for each update config not yet decided, reads its manifest and
 * lockfiles through the code host, finds the dependency, compares versions by the ecosystem's rules,
 * applies the config's policies, and records the result (and a job, once per config, dependency and
 * target version, with its `pull_request_job.created` event) in one transaction per config. A config
 * whose files cannot be read because the code host is down is left undecided and the batch throws
 * {@link TransientScanError} so the bus delivers it again later; on the last attempt (`lastAttempt`)
 * such configs are recorded as failed instead, so a notification always finishes.
 */
export async function scanBatch(deps: ScannerDeps, request: ScanRequested, lastAttempt: boolean): Promise<void> {
  const { db } = deps;
  const notification = await findNotification(db, request.notificationId);
  if (!notification || notification.status === 'done') return;
  const decided = new Set(
    (
      await db
        .selectFrom('scan_result')
        .select('update_config_id')
        .where('notification_id', '=', notification.id)
        .where('update_config_id', 'in', request.updateConfigIds)
        .execute()
    ).map((r) => r.update_config_id),
  );
  const targets: Target[] = await db
    .selectFrom('update_config')
    .leftJoin('repo', 'repo.id', 'update_config.repo_id')
    .selectAll('update_config')
    .select(['repo.full_name', 'repo.default_branch'])
    .where('update_config.id', 'in', request.updateConfigIds)
    .execute();
  const byId = new Map(targets.map((t) => [t.id, t]));
  const ecosystem = ecosystemFor(notification.package_manager as PackageManager);

  const queue = request.updateConfigIds.filter((id) => !decided.has(id));
  const postponed: unknown[] = [];
  const work = async () => {
    for (let id = queue.shift(); id !== undefined; id = queue.shift()) {
      const target = byId.get(id);
      try {
        const decision = await decide(deps, notification, target, ecosystem);
        await record(db, notification, id, target, decision, ecosystem);
      } catch (error) {
        if (!transient(error)) throw error;
        if (lastAttempt)
          await record(
            db,
            notification,
            id,
            target,
            {
              outcome: 'failed',
              reason: `the code host did not answer: ${(error as Error).message}`,
            },
            ecosystem,
          );
        else postponed.push(error);
      }
    }
  };
  await Promise.all(Array.from({ length: Math.min(deps.concurrency, queue.length) }, work));
  await completeIfScanned(db, notification.id);
  if (postponed.length > 0) throw new TransientScanError(postponed.length, postponed[0]);
}

async function decide(
  deps: ScannerDeps,
  notification: NotificationRow,
  target: Target | undefined,
  ecosystem: Ecosystem | undefined,
): Promise<Decision> {
  if (!target) return { outcome: 'skipped', reason: 'the update config or its repo is no longer known' };
  if (target.deleted) return { outcome: 'skipped', reason: 'the update config was deleted' };
  if (!ecosystem) return { outcome: 'skipped', reason: `package manager ${notification.package_manager} is not supported yet` };
  if (target.full_name === null || target.default_branch === null)
    return { outcome: 'skipped', reason: `repo ${target.repo_id} is not known to the service yet` };
  const branch = target.target_branch ?? target.default_branch;
  let read: Awaited<ReturnType<typeof readManifestFiles>>;
  try {
    read = await readManifestFiles(deps.codeHost, deps.token, target.full_name, target.directory, branch, ecosystem);
  } catch (error) {
    if (error instanceof CodeHostError && !transient(error))
      return { outcome: 'failed', reason: `the code host refused to give the files: ${error.message}` };
    throw error;
  }
  if ('missing' in read) return { outcome: 'failed', reason: read.missing };
  let use: ReturnType<Ecosystem['findDependency']>;
  try {
    use = ecosystem.findDependency(read.files, notification.name);
  } catch (error) {
    if (error instanceof ManifestParseError) return { outcome: 'failed', reason: error.message };
    throw error;
  }
  if (!use) return { outcome: 'not-used', reason: `${notification.name} is not a dependency in ${target.directory}` };
  const assessment = assessUpdate(ecosystem, use, notification.version);
  if (!assessment.outdated || !assessment.kind || !use.version) {
    return {
      outcome: 'up-to-date',
      reason: assessment.reason ?? `uses ${use.version ?? 'an unknown version'}, not older than ${notification.version}`,
    };
  }
  if (target.lockfile_only && !assessment.inRange) {
    return {
      outcome: 'skipped',
      reason:
        `${notification.version} is outside the manifest's requirement ${use.requirement ?? ''} and the config is lockfile-only`.replace(
          '  ',
          ' ',
        ),
    };
  }
  const security = await assessSecurity(deps.db, ecosystem, use.name, use.version, notification.version);
  if (target.security_updates_only && !security.fixes) {
    return {
      outcome: 'skipped',
      reason: `no known advisory for ${use.name} ${use.version} is fixed by ${notification.version} and the config takes security updates only`,
    };
  }
  const rule = (use.type === 'runtime' ? target.automerge_rule_runtime_deps : target.automerge_rule_development_deps) as AutomergeRule;
  return {
    outcome: 'job-recorded',
    reason: security.fixes
      ? `${use.version} → ${notification.version} (${assessment.kind}), fixes ${security.advisories.join(', ')}`
      : `${use.version} → ${notification.version} (${assessment.kind})`,
    job: {
      updateConfigId: target.id,
      repoId: target.repo_id,
      accountId: target.account_id,
      packageManager: notification.package_manager as PackageManager,
      dependencyName: use.name,
      dependencyType: use.type,
      versionInUse: use.version,
      targetVersion: notification.version,
      updateKind: assessment.kind,
      automerge: automergeAllowed(rule, assessment.kind, assessment.inRange, security.fixes),
      securityFix: security.fixes,
      targetBranch: branch,
      directory: target.directory,
    },
  };
}

/** Records a config's result, and its job with the job's event when it is new, in one transaction. */
async function record(
  db: Db,
  notification: NotificationRow,
  configId: number,
  target: Target | undefined,
  decision: Decision,
  ecosystem: Ecosystem | undefined,
): Promise<void> {
  await db.transaction().execute(async (trx) => {
    const inserted = await trx
      .insertInto('scan_result')
      .values({
        notification_id: notification.id,
        update_config_id: configId,
        repo_id: target?.repo_id ?? 0,
        account_id: target?.account_id ?? 0,
        outcome: decision.outcome,
        reason: decision.reason,
      })
      .onConflict((oc) => oc.columns(['notification_id', 'update_config_id']).doNothing())
      .returning('update_config_id')
      .executeTakeFirst();
    if (!inserted || !decision.job) return;
    const j = decision.job;
    const job = await insertJobOnce(trx, ecosystem?.versions, {
      notification_id: notification.id,
      update_config_id: j.updateConfigId,
      repo_id: j.repoId,
      account_id: j.accountId,
      package_manager: j.packageManager,
      dependency_name: j.dependencyName,
      dependency_type: j.dependencyType,
      version_in_use: j.versionInUse,
      target_version: j.targetVersion,
      update_kind: j.updateKind,
      automerge: j.automerge,
      security_fix: j.securityFix,
      target_branch: j.targetBranch,
      directory: j.directory,
    });
    if (!job) {
      await trx
        .updateTable('scan_result')
        .set({ reason: sql<string>`reason || ${' (job already recorded by an earlier notification)'}` })
        .where('notification_id', '=', notification.id)
        .where('update_config_id', '=', configId)
        .execute();
      return;
    }
    const data: PullRequestJobCreated = { id: job.id, notificationId: notification.id, ...j };
    await appendEvents(trx, [releaseEvent('pull_request_job.created', data)]);
  });
}
