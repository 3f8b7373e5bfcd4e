import { type CodeHost, CodeHostError } from '@switchyard/code-host';
import {
  PullRequestJobCreatedEvent,
  type ReleaseNotificationReceived,
  type ScanRequested,
  ScanRequestedEvent,
} from '@switchyard/contracts';
import { type DependencyUse, type Ecosystem, ecosystemFor, ManifestParseError } from '@switchyard/ecosystems';
import type { Logger } from '@switchyard/service-kit';
import type { Kysely } from 'kysely';
import { findAffectedPackages } from '../advisories/advisory.repository.ts';
import type { AffectedPackage } from '../advisories/advisory-match.ts';
import type { NotificationRow, ReleaseDatabase } from '../db/schema.ts';
import { insertJobOnce } from '../jobs/job.repository.ts';
import { completeIfScanned, findNotification, markPlanned } from '../notifications/notification.repository.ts';
import { releaseOutbox } from '../outbox.ts';
import { findScanTargets, listConfigIdsToScan, type ScanTarget } from '../read-model/read-model.repository.ts';
import { type Decision, decide, type ReadableTarget, readableTarget } from './decide.ts';
import { readManifestFiles } from './manifest-files.ts';
import { runPool } from './pool.ts';
import { appendToReason, findDecidedConfigIds, insertResultOnce } from './scan-result.repository.ts';

type Db = Kysely<ReleaseDatabase>;

/**
 * The release scan: a notification planned into batches ({@link planScan}), and each batch scanned config by config
 * ({@link scanBatch}): the config's manifests read through the code host, the update rules of `decide.ts` applied,
 * the result recorded with its job and the job's event.
 */

/**
 * Plans a notification's scan, in the caller's transaction: every update config of the notified package
 * manager in the notification's organisations (as the read model knows them now; of those, only the ids in `only`
 * when given: the configs config-svc's checkpoint listed), cut into batches of `batchSize`, each written as a
 * `release_notification.scan_requested` event that any worker may take. A notification with nothing to scan is done
 * at once.
 * @returns how many configs the scan covers
 */
export async function planScan(
  trx: Db,
  notification: ReleaseNotificationReceived,
  batchSize: number,
  only?: ReadonlySet<number>,
): Promise<number> {
  const candidates = await listConfigIdsToScan(trx, notification.packageManager, notification.accountIds);
  const configIds = only ? candidates.filter((id) => only.has(id)) : candidates;
  await markPlanned(trx, notification.id, configIds.length);
  const batches = [];
  for (let start = 0; start < configIds.length; start += batchSize) {
    batches.push(
      releaseOutbox.event(ScanRequestedEvent, {
        notificationId: notification.id,
        batch: batches.length,
        updateConfigIds: configIds.slice(start, start + batchSize),
      }),
    );
  }
  await releaseOutbox.append(trx, batches);
  if (configIds.length === 0) await completeIfScanned(trx, notification.id);
  return configIds.length;
}

/** What the scanner needs: the database, the code host and the worker's own token for it. */
export interface ScannerDeps {
  db: Db;
  codeHost: CodeHost;
  token: string;
  logger: Logger;
  /** Configs scanned at once within a batch. */
  concurrency: number;
}

/** Raised when some configs of a batch met a code-host failure that a later attempt may not meet. */
export class TransientScanError extends Error {
  constructor(count: number, cause: unknown) {
    super(`${count} update config(s) could not be scanned yet: ${cause instanceof Error ? cause.message : String(cause)}`, { cause });
    this.name = 'TransientScanError';
  }
}

/** `error` when it says the code host is down or rate-limited (a later attempt may get the files), else undefined. */
function transientError(error: unknown): CodeHostError | undefined {
  return error instanceof CodeHostError && (error.kind === 'unavailable' || error.kind === 'rate_limited') ? error : undefined;
}

/**
 * Scans one batch of a notification: for each update config not yet decided, reads its manifest and
 * lockfiles through the code host, finds the dependency, {@link decide}s, and records the result (and a job,
 * once per config, dependency and target version, with its `pull_request_job.created` event) in one
 * transaction per config, `deps.concurrency` configs at a time. A config whose files cannot be read because
 * the code host is down is left undecided and the batch throws {@link TransientScanError} so the bus delivers
 * it again later; on the last attempt (`lastAttempt`) such configs are recorded as failed instead, so a
 * notification always finishes. A config with a file over the code host client's size limit is recorded as failed
 * at once, naming the file and the limit (asking again would get the same answer), and the others go on.
 * @throws TransientScanError when configs were left undecided; the database's errors
 */
export async function scanBatch(deps: ScannerDeps, request: ScanRequested, lastAttempt: boolean): Promise<void> {
  const { db } = deps;
  const notification = await findNotification(db, request.notificationId);
  if (!notification || notification.status === 'done') return;
  const decided = await findDecidedConfigIds(db, notification.id, request.updateConfigIds);
  const targets = await findScanTargets(db, request.updateConfigIds);
  const advisories = advisoriesOnce(db);
  const postponed: unknown[] = [];
  const pending = request.updateConfigIds.filter((id) => !decided.has(id));
  await runPool(pending, deps.concurrency, async (id) => {
    const target = targets.get(id);
    try {
      await record(db, notification, id, target, await scanConfig(deps, notification, target, advisories));
    } catch (error) {
      const unavailable = transientError(error);
      if (!unavailable) throw error;
      if (lastAttempt) {
        await record(db, notification, id, target, { outcome: 'failed', reason: `the code host did not answer: ${unavailable.message}` });
      } else postponed.push(unavailable);
    }
  });
  await completeIfScanned(db, notification.id);
  if (postponed.length > 0) throw new TransientScanError(postponed.length, postponed[0]);
}

type AdvisoryLookup = (ecosystem: Ecosystem, name: string) => Promise<readonly AffectedPackage[]>;

/** Looks the advisories of a package up once per batch (a batch is about one dependency). */
function advisoriesOnce(db: Db): AdvisoryLookup {
  const found = new Map<string, Promise<AffectedPackage[]>>();
  return (ecosystem, name) => {
    const key = ecosystem.normaliseName(name);
    let lookup = found.get(key);
    if (!lookup) {
      lookup = findAffectedPackages(db, ecosystem, name);
      found.set(key, lookup);
    }
    return lookup;
  };
}

/**
 * Decides one config: skipped without reading when {@link readableTarget} says so; failed when its files are
 * missing, too large, refused or do not parse; else what {@link decide} says.
 * @throws CodeHostError when the code host is down or rate-limited (the config stays undecided)
 */
async function scanConfig(
  deps: ScannerDeps,
  notification: NotificationRow,
  target: ScanTarget | undefined,
  advisories: AdvisoryLookup,
): Promise<Decision> {
  const readable = readableTarget(target, notification.package_manager);
  if ('skipped' in readable) return readable.skipped;
  const read = await readDependency(deps, readable, notification.name);
  if ('failed' in read) return { outcome: 'failed', reason: read.failed };
  const { dependency } = read;
  return decide({
    target: readable,
    release: { name: notification.name, version: notification.version },
    dependency,
    advisories: dependency ? await advisories(readable.ecosystem, dependency.name) : [],
  });
}

/**
 * Reads the config's files and finds the dependency `name` in them, or why that failed: a file missing, a file
 * over the code host client's size limit, the code host refusing the files, a file that does not parse.
 * @throws CodeHostError when the code host is down or rate-limited
 */
async function readDependency(
  deps: ScannerDeps,
  { config, repo, ecosystem, branch }: ReadableTarget,
  name: string,
): Promise<{ dependency: DependencyUse | undefined } | { failed: string }> {
  let read: Awaited<ReturnType<typeof readManifestFiles>>;
  try {
    read = await readManifestFiles(deps.codeHost, deps.token, repo.fullName, config.directory, branch, ecosystem);
  } catch (error) {
    if (error instanceof CodeHostError && !transientError(error))
      return { failed: `the code host refused to give the files: ${error.message}` };
    throw error;
  }
  if ('missing' in read) return { failed: read.missing };
  if ('tooLarge' in read) return { failed: read.tooLarge };
  try {
    return { dependency: ecosystem.findDependency(read.files, name) };
  } catch (error) {
    if (error instanceof ManifestParseError) return { failed: error.message };
    throw error;
  }
}

/** Records a config's result, and its job with the job's event when it is new, in one transaction. */
async function record(
  db: Db,
  notification: NotificationRow,
  configId: number,
  target: ScanTarget | undefined,
  decision: Decision,
): Promise<void> {
  await db.transaction().execute(async (trx) => {
    const stored = await insertResultOnce(trx, {
      notificationId: notification.id,
      updateConfigId: configId,
      repoId: target?.config.repoId ?? 0,
      accountId: target?.config.accountId ?? 0,
      outcome: decision.outcome,
      reason: decision.reason,
    });
    if (!stored || decision.outcome !== 'job-recorded') return;
    const data = { notificationId: notification.id, ...decision.job };
    const job = await insertJobOnce(trx, ecosystemFor(notification.package_manager)?.versions, data);
    if (!job) {
      await appendToReason(trx, notification.id, configId, ' (job already recorded by an earlier notification)');
      return;
    }
    await releaseOutbox.append(trx, [releaseOutbox.event(PullRequestJobCreatedEvent, { id: job.id, ...data })]);
  });
}
