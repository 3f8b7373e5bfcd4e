import { type Kysely, sql } from 'kysely';
import type { ReleaseDatabase } from '../db/schema.ts';
import type { RepoUpgradeRow } from './upgrade.table.ts';

type Db = Kysely<ReleaseDatabase>;

/** Asks for repo `repoId`'s upgrade pull request: a new request, or the stored one asked again (pending, due now). */
export async function requestUpgrade(db: Db, request: { repoId: number; accountId: number; requestedBy: number }): Promise<RepoUpgradeRow> {
  const now = new Date();
  const values = {
    account_id: request.accountId,
    requested_by: request.requestedBy,
    requested_at: now,
    due_at: now,
    status: 'pending' as const,
    reason: null,
    updated_at: now,
  };
  return db
    .insertInto('repo_upgrade')
    .values({ repo_id: request.repoId, ...values, pull_request_number: null, pull_request_url: null })
    .onConflict((oc) => oc.column('repo_id').doUpdateSet({ ...values, attempts: 0 }))
    .returningAll()
    .executeTakeFirstOrThrow();
}

/** Repo `repoId`'s upgrade, or undefined. */
export function findUpgrade(db: Db, repoId: number): Promise<RepoUpgradeRow | undefined> {
  return db.selectFrom('repo_upgrade').selectAll().where('repo_id', '=', repoId).executeTakeFirst();
}

/** Up to `limit` pending upgrades that are due, each leased `leaseMs` (`FOR UPDATE SKIP LOCKED`: another worker takes others). */
export async function claimUpgrades(db: Db, limit: number, leaseMs: number): Promise<RepoUpgradeRow[]> {
  return db.transaction().execute(async (trx) => {
    const due = await trx
      .selectFrom('repo_upgrade')
      .selectAll()
      .where('status', '=', 'pending')
      .where('due_at', '<=', sql<Date>`now()`)
      .orderBy('due_at')
      .limit(limit)
      .forUpdate()
      .skipLocked()
      .execute();
    if (due.length === 0) return [];
    await trx
      .updateTable('repo_upgrade')
      .set({ due_at: new Date(Date.now() + leaseMs), attempts: sql`attempts + 1` })
      .where(sql<boolean>`repo_id = any(${sql.val(due.map((u) => u.repo_id))}::bigint[])`)
      .execute();
    return due;
  });
}

/** Records how an upgrade ended (unless it was asked again meanwhile: then it stays pending). */
export async function finishUpgrade(
  db: Db,
  upgrade: RepoUpgradeRow,
  result: { status: 'opened' | 'failed'; reason: string | null; number?: number; url?: string },
): Promise<void> {
  await db
    .updateTable('repo_upgrade')
    .set({
      status: result.status,
      reason: result.reason,
      pull_request_number: result.number ?? null,
      pull_request_url: result.url ?? null,
      updated_at: new Date(),
    })
    .where('repo_id', '=', upgrade.repo_id)
    .where('requested_at', '=', upgrade.requested_at)
    .execute();
}

/** Puts an upgrade whose code-host work failed back, due after `delayMs`. */
export async function retryUpgradeLater(db: Db, upgrade: RepoUpgradeRow, delayMs: number, reason: string): Promise<void> {
  await db
    .updateTable('repo_upgrade')
    .set({ due_at: new Date(Date.now() + delayMs), reason: reason.slice(0, 2_000), updated_at: new Date() })
    .where('repo_id', '=', upgrade.repo_id)
    .where('requested_at', '=', upgrade.requested_at)
    .execute();
}
