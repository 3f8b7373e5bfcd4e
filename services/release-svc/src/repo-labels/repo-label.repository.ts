import { type Kysely, sql } from 'kysely';
import type { ReleaseDatabase } from '../db/schema.ts';
import type {} from './repo-label.table.ts';

type Db = Kysely<ReleaseDatabase>;

/** Which of `names` (lower-cased) repository `repoId` is recorded to have. */
export async function findMadeLabels(db: Db, repoId: number, names: readonly string[]): Promise<Set<string>> {
  if (names.length === 0) return new Set();
  const rows = await db
    .selectFrom('repo_label')
    .select('name')
    .where('repo_id', '=', repoId)
    .where('name', 'in', [...names])
    .execute();
  return new Set(rows.map((row) => row.name));
}

/** Records `names` (lower-cased) as made in repository `repoId`. */
export async function recordMadeLabels(db: Db, repoId: number, names: readonly string[]): Promise<void> {
  if (names.length === 0) return;
  await db
    .insertInto('repo_label')
    .values(names.map((name) => ({ repo_id: repoId, name })))
    .onConflict((oc) => oc.columns(['repo_id', 'name']).doNothing())
    .execute();
}

/**
 * Claims the making of repository `repoId`'s labels: true when no other worker holds the claim, or its claim is older
 * than `leaseMs` ms (that worker stopped).
 */
export async function claimLabelMaking(db: Db, repoId: number, leaseMs: number): Promise<boolean> {
  const claimed = await db
    .insertInto('repo_label_claim')
    .values({ repo_id: repoId })
    .onConflict((oc) =>
      oc
        .column('repo_id')
        .doUpdateSet({ claimed_at: sql`now()` })
        .where('repo_label_claim.claimed_at', '<', sql<Date>`now() - ${sql.lit(leaseMs)} * interval '1 millisecond'`),
    )
    .returning('repo_id')
    .executeTakeFirst();
  return claimed !== undefined;
}

/** Gives up the claim on repository `repoId`'s labels. */
export async function releaseLabelMaking(db: Db, repoId: number): Promise<void> {
  await db.deleteFrom('repo_label_claim').where('repo_id', '=', repoId).execute();
}
