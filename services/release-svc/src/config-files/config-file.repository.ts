import type { RepoConfigFileRead } from '@switchyard/contracts';
import { type Kysely, type Selectable, sql } from 'kysely';
import type { ReleaseDatabase } from '../db/schema.ts';
import type { ConfigFileCheckTable, ConfigFileIssueTable } from './config-file.table.ts';

type Db = Kysely<ReleaseDatabase>;

/** A claimed request to read a repository's config files. */
export type ConfigFileCheck = Selectable<ConfigFileCheckTable>;
/** The issue about a repository's invalid config file. */
export type ConfigFileIssue = Selectable<ConfigFileIssueTable>;

/**
 * Asks for repository `repository.id`'s config files to be read: a new request, or the one waiting made due now
 * (with the latest description of the repository). Idempotent: one row a repository.
 */
export async function requestConfigFileCheck(trx: Db, repository: RepoConfigFileRead['repo']): Promise<void> {
  const now = new Date();
  const values = { repository: JSON.stringify(repository), requested_at: now, due_at: now };
  await trx
    .insertInto('config_file_check')
    .values({ repo_id: repository.id, ...values })
    .onConflict((oc) => oc.column('repo_id').doUpdateSet({ ...values, attempts: 0, last_error: null }))
    .execute();
}

/**
 * Asks for repo `repoId`'s config files to be read again when they were last read more than `maxAgeMs` ago (or never),
 * without the repository's description (the worker asks the code host for it); a request waiting already is left as
 * it is. A run does this, so a missed push heals within a day.
 * @returns whether a request was made
 */
export async function requestStaleConfigFileCheck(trx: Db, repoId: number, maxAgeMs: number): Promise<boolean> {
  const read = await trx.selectFrom('config_file_read').select('read_at').where('repo_id', '=', repoId).executeTakeFirst();
  if (read && Date.now() - read.read_at.getTime() < maxAgeMs) return false;
  const inserted = await trx
    .insertInto('config_file_check')
    .values({ repo_id: repoId, repository: null })
    .onConflict((oc) => oc.column('repo_id').doNothing())
    .executeTakeFirst();
  return Number(inserted.numInsertedOrUpdatedRows ?? 0) > 0;
}

/** Records that repo `repoId`'s config files were read now. */
export async function recordConfigFileRead(trx: Db, repoId: number): Promise<void> {
  await trx
    .insertInto('config_file_read')
    .values({ repo_id: repoId, read_at: new Date() })
    .onConflict((oc) => oc.column('repo_id').doUpdateSet({ read_at: new Date() }))
    .execute();
}

/**
 * Up to `limit` due requests, oldest first, each locked for this transaction (`FOR UPDATE SKIP LOCKED`: another
 * worker takes others) and pushed `leaseMs` into the future, so that a worker that dies while reading leaves it due
 * again after the lease.
 */
export async function claimConfigFileChecks(db: Db, limit: number, leaseMs: number): Promise<ConfigFileCheck[]> {
  return db.transaction().execute(async (trx) => {
    const due = await trx
      .selectFrom('config_file_check')
      .selectAll()
      .where('due_at', '<=', sql<Date>`now()`)
      .orderBy('due_at')
      .limit(limit)
      .forUpdate()
      .skipLocked()
      .execute();
    if (due.length === 0) return [];
    await trx
      .updateTable('config_file_check')
      .set({ due_at: new Date(Date.now() + leaseMs) })
      .where(sql<boolean>`repo_id = any(${sql.val(due.map((c) => c.repo_id))}::bigint[])`)
      .execute();
    return due;
  });
}

/** Removes the request once handled, unless it was made again meanwhile (a later push: it stays, to read again). */
export async function finishConfigFileCheck(trx: Db, check: ConfigFileCheck): Promise<void> {
  await trx.deleteFrom('config_file_check').where('repo_id', '=', check.repo_id).where('requested_at', '=', check.requested_at).execute();
}

/**
 * Puts a request whose read failed back, due after a delay that doubles with each attempt (30 s, 1 min, … at most
 * 1 h); after `maxAttempts` it is dropped (the next push or run asks again).
 * @returns whether it was kept
 */
export async function retryConfigFileCheck(db: Db, check: ConfigFileCheck, error: string, maxAttempts: number): Promise<boolean> {
  const attempts = check.attempts + 1;
  if (attempts >= maxAttempts) {
    await finishConfigFileCheck(db, check);
    return false;
  }
  const delayMs = Math.min(3_600_000, 30_000 * 2 ** (attempts - 1));
  await db
    .updateTable('config_file_check')
    .set({ attempts, last_error: error.slice(0, 2_000), due_at: new Date(Date.now() + delayMs) })
    .where('repo_id', '=', check.repo_id)
    .where('requested_at', '=', check.requested_at)
    .execute();
  return true;
}

/** The issue recorded about repo `repoId`'s config file, or undefined. */
export function findConfigFileIssue(db: Db, repoId: number): Promise<ConfigFileIssue | undefined> {
  return db.selectFrom('config_file_issue').selectAll().where('repo_id', '=', repoId).executeTakeFirst();
}

/** Records the issue about repo `repoId`'s config file as it now is. */
export async function saveConfigFileIssue(db: Db, issue: Omit<ConfigFileIssue, 'updated_at'>): Promise<void> {
  const values = { path: issue.path, issue_number: issue.issue_number, body: issue.body, open: issue.open, updated_at: new Date() };
  await db
    .insertInto('config_file_issue')
    .values({ repo_id: issue.repo_id, ...values })
    .onConflict((oc) => oc.column('repo_id').doUpdateSet(values))
    .execute();
}
