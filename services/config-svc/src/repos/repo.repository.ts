import type { CodeHostRepo } from '@switchyard/code-host';
import { type Kysely, sql } from 'kysely';
import type { ConfigDatabase } from '../db/schema.ts';
import type { RepoRow } from './repo.table.ts';

type Db = Kysely<ConfigDatabase>;

/** Rows per INSERT: 12 parameters a row stays well under PostgreSQL's 65,535 parameters a statement. */
const CHUNK = 1_000;

const facts = ['name', 'full_name', 'private', 'fork', 'archived', 'html_url', 'language', 'default_branch', 'account_id'] as const;

/**
 * Records repos as the code host describes them: new ones inserted, changed ones updated (revision + 1),
 * unchanged ones untouched. Their accounts must already be stored.
 * @returns only the rows that were inserted or changed
 */
export async function syncRepos(db: Db, repos: readonly CodeHostRepo[]): Promise<RepoRow[]> {
  const changed: RepoRow[] = [];
  for (let start = 0; start < repos.length; start += CHUNK) {
    const rows = await db
      .insertInto('repo')
      .values(
        repos.slice(start, start + CHUNK).map((r) => ({
          id: r.id,
          account_id: r.owner.id,
          name: r.name,
          full_name: r.fullName,
          private: r.private,
          fork: r.fork,
          archived: r.archived,
          html_url: r.htmlUrl,
          language: r.language,
          default_branch: r.defaultBranch,
        })),
      )
      .onConflict((oc) =>
        oc
          .column('id')
          .doUpdateSet((eb) => ({
            ...Object.fromEntries(facts.map((column) => [column, eb.ref(`excluded.${column}`)])),
            revision: sql`repo.revision + 1`,
            updated_at: sql`now()`,
          }))
          .where((eb) => eb.or(facts.map((column) => eb(`repo.${column}`, 'is distinct from', eb.ref(`excluded.${column}`))))),
      )
      .returningAll()
      .execute();
    changed.push(...rows);
  }
  return changed;
}

/** The stored repo with `id`, or undefined. */
export function findRepo(db: Db, id: number): Promise<RepoRow | undefined> {
  return db.selectFrom('repo').selectAll().where('id', '=', id).executeTakeFirst();
}
