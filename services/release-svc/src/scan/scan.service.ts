import { type CodeHost, transientCodeHostError } from '@switchyard/code-host';
import { type ReleaseNotificationReceived, type ScanRequested, ScanRequestedEvent } from '@switchyard/contracts';
import type { DependencyUse } from '@switchyard/ecosystems';
import type { Logger } from '@switchyard/service-kit';
import type { Kysely } from 'kysely';
import type { AffectedPackage } from '../advisories/advisory-match.ts';
import type { AdvisoryLookup as SourceLookup } from '../advisories/advisory-source.ts';
import type { NotificationRow, ReleaseDatabase } from '../db/schema.ts';
import { completeIfScanned, findNotification, markPlanned } from '../notifications/notification.repository.ts';
import { releaseOutbox } from '../outbox.ts';
import { findScanTargets, listConfigIdsToScan, type ScanTarget } from '../read-model/read-model.repository.ts';
import { notificationTarget, type RegistryAnswer } from '../update-runs/choose-target.ts';
import { isRegistryError, type RegistryAccess } from '../update-runs/registry-access.ts';
import { newestStable } from '../update-runs/registry-watch.ts';
import { decide, type ReadableTarget, readableTarget, type ScanDecision } from './decide.ts';
import { readAndParse } from './manifest-files.ts';
import { runPool } from './pool.ts';
import { type DecidedConfig, recordDecisions } from './record-decisions.ts';
import { findDecidedConfigIds } from './scan-result.repository.ts';

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

/** What the scanner needs: the database, the code host and the worker's own token for it, the registries. */
export interface ScannerDeps {
  db: Db;
  codeHost: CodeHost;
  token: string;
  /** The registries a notification's run asks for the latest version (the account's private one first). */
  registries: RegistryAccess;
  /** The advisories about a package (imported OSV records and the code host's). */
  advisories: SourceLookup;
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

/**
 * Scans one batch of a notification: for each update config not yet decided, reads its manifest and
 * lockfiles through the code host, finds the dependency, {@link decide}s, `deps.concurrency` configs at a time;
 * then records every result (and a job, once per config, dependency and target version, with its
 * `pull_request_job.created` event) in one transaction for the batch ({@link recordDecisions}). A config whose files cannot be read because
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
  const advisories = advisoriesOnce(deps.advisories);
  const registry = registryOnce(deps.registries, notification);
  const postponed: unknown[] = [];
  const scanned: DecidedConfig[] = [];
  const pending = request.updateConfigIds.filter((id) => !decided.has(id));
  try {
    await runPool(pending, deps.concurrency, async (id) => {
      const target = targets.get(id);
      try {
        scanned.push({ configId: id, target, scanned: await scanConfig(deps, notification, target, advisories, registry) });
      } catch (error) {
        const unavailable = transientCodeHostError(error);
        if (!unavailable) throw error;
        if (lastAttempt) {
          const reason = `the code host did not answer: ${unavailable.message}`;
          scanned.push({ configId: id, target, scanned: { decision: { outcome: 'failed', reason } } });
        } else postponed.push(unavailable);
      }
    });
  } finally {
    // What was decided is kept even when a config's scan threw: a redelivery then scans only the rest.
    await recordDecisions(db, notification, scanned);
  }
  await completeIfScanned(db, notification.id);
  if (postponed.length > 0) throw new TransientScanError(postponed.length, postponed[0]);
}

type AdvisoryLookup = SourceLookup;

/** Looks the advisories of a package up once per batch (a batch is about one dependency). */
function advisoriesOnce(source: SourceLookup): AdvisoryLookup {
  const found = new Map<string, Promise<readonly AffectedPackage[]>>();
  return (ecosystem, name) => {
    const key = ecosystem.normaliseName(name);
    let lookup = found.get(key);
    if (!lookup) {
      lookup = source(ecosystem, name);
      found.set(key, lookup);
    }
    return lookup;
  };
}

/** What the registries said of a package, asked once per batch and account (a batch is about one dependency). */
type RegistryLookup = (accountId: number) => Promise<{ answer: RegistryAnswer; registry: string | null; latest: string | null }>;

/** Asks the registries about the notification's package once per account within a batch. */
function registryOnce(registries: RegistryAccess, notification: NotificationRow): RegistryLookup {
  const asked = new Map<number, ReturnType<RegistryLookup>>();
  return (accountId) => {
    let answer = asked.get(accountId);
    if (!answer) {
      answer = registries.fetch(accountId, notification.package_manager, notification.name).then(
        (found) => {
          if (!found)
            return { answer: { missing: `no registry is known for ${notification.package_manager}` }, registry: null, latest: null };
          if ('notFound' in found) {
            return {
              answer: { missing: `${notification.name} is not on ${found.registries.join(' nor on ')}` },
              registry: found.registries.at(-1) ?? null,
              latest: null,
            };
          }
          return {
            answer: { versions: found.package.versions, latest: found.package.latest },
            registry: found.registry,
            latest: newestStable(notification.package_manager, found.package.versions, found.package.latest),
          };
        },
        (error: unknown) => {
          if (!isRegistryError(error)) throw error;
          return {
            answer: { missing: `the registry could not be asked (${error.kind}): ${error.message}` },
            registry: new URL(error.url).origin,
            latest: null,
          };
        },
      );
      asked.set(accountId, answer);
    }
    return answer;
  };
}

/**
 * Decides one config: skipped without reading when {@link readableTarget} says so; failed when its files are
 * missing, too large, refused or do not parse; else what {@link decide} says of the version the registry points to
 * (`notificationTarget`: the notified one, or the registry's newer allowed one; `unverified` when the registry does not
 * list it).
 * @throws CodeHostError when the code host is down or rate-limited (the config stays undecided)
 */
async function scanConfig(
  deps: ScannerDeps,
  notification: NotificationRow,
  target: ScanTarget | undefined,
  advisories: AdvisoryLookup,
  registry: RegistryLookup,
): Promise<ScanDecision> {
  const readable = readableTarget(target, notification.package_manager);
  if ('skipped' in readable) return { decision: readable.skipped };
  const read = await readDependency(deps, readable, notification.name);
  if ('failed' in read) return { decision: { outcome: 'failed', reason: read.failed } };
  const { dependency } = read;
  if (!dependency) {
    return {
      decision: decide({
        target: readable,
        release: { name: notification.name, version: notification.version },
        dependency,
        advisories: [],
      }),
    };
  }
  const affected = await advisories(readable.ecosystem, dependency.name);
  const asked = await registry(readable.config.accountId);
  const chosen = notificationTarget(readable.ecosystem, dependency, notification.version, asked.answer, readable.config, affected);
  return {
    decision: decide({
      target: readable,
      release: { name: notification.name, version: chosen.version, unverified: chosen.unverified, note: chosen.note },
      dependency,
      advisories: affected,
    }),
    dependency,
    registry: asked.registry,
    latest: asked.latest,
  };
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
  const read = await readAndParse(
    deps.codeHost,
    deps.token,
    { repoFullName: repo.fullName, directory: config.directory, branch, ecosystem },
    (files) => ecosystem.findDependency(files, name),
  );
  return 'failed' in read ? read : { dependency: read.parsed };
}
