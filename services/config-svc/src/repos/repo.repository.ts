import type { CodeHostRepo } from '@switchyard/code-host';
import type { ConfigFileState } from '@switchyard/contracts';
import { type Kysely, sql } from 'kysely';
import { type AccountSchedule, scheduleOf } from '../accounts/account.policy.ts';
import type {} from '../accounts/account.table.ts';
import type { ConfigDatabase } from '../db/schema.ts';
import type { RepoRow } from './repo.table.ts';

type Db = Kysely<ConfigDatabase>;

/** Rows per INSERT: 12 parameters a row stays well under PostgreSQL's 65,535 parameters a statement. */
const CHUNK = 1_000;

const facts = ['name', 'full_name', 'private', 'fork', 'archived', 'html_url', 'language', 'default_branch', 'account_id'] as const;

/** A repo as the `repo` table stores it. */
function repoRow(r: CodeHostRepo) {
  return {
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
  };
}

/**
 * Records repos as the code host describes them: new ones inserted, changed ones updated (revision + 1),
 * unchanged ones untouched. Unchanged rows are recognised by a plain read first, so they are never
 * written or locked. Their accounts must already be stored.
 * @returns only the rows that were inserted or changed
 */
export async function syncRepos(db: Db, repos: readonly CodeHostRepo[]): Promise<RepoRow[]> {
  const written: RepoRow[] = [];
  for (let start = 0; start < repos.length; start += CHUNK) {
    const wanted = repos.slice(start, start + CHUNK).map(repoRow);
    const stored = await db
      .selectFrom('repo')
      .select(['id', ...facts])
      .where(sql<boolean>`id = any(${sql.val(wanted.map((r) => r.id))}::bigint[])`)
      .execute();
    const byId = new Map(stored.map((row) => [row.id, row]));
    const changed = wanted.filter((row) => {
      const old = byId.get(row.id);
      return !old || facts.some((column) => old[column] !== row[column]);
    });
    if (changed.length === 0) continue;
    const rows = await db
      .insertInto('repo')
      .values(changed)
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
    written.push(...rows);
  }
  return written;
}

/** The stored repo with `id`, or undefined. */
export function findRepo(db: Db, id: number): Promise<RepoRow | undefined> {
  return db.selectFrom('repo').selectAll().where('id', '=', id).executeTakeFirst();
}

/** The schedule settings of the account of each repo of `repoIds`, by repo id; a repo that is not stored has none. */
export async function findRepoAccountSchedules(db: Db, repoIds: readonly number[]): Promise<Map<number, AccountSchedule>> {
  if (repoIds.length === 0) return new Map();
  const rows = await db
    .selectFrom('repo')
    .innerJoin('account', 'account.id', 'repo.account_id')
    .select(['repo.id as repo_id', 'account.update_run_time', 'account.weekly_update_run_day', 'account.time_zone'])
    .where('repo.id', 'in', [...new Set(repoIds)])
    .execute();
  return new Map(rows.map((row) => [row.repo_id, scheduleOf(row)]));
}

/** The config files of those of `repoIds` that have one, by repo id. */
export async function findConfigFiles(db: Db, repoIds: readonly number[]): Promise<Map<number, ConfigFileState>> {
  if (repoIds.length === 0) return new Map();
  const rows = await db
    .selectFrom('repo')
    .select(['id', 'config_file'])
    .where(sql<boolean>`id = any(${sql.val([...repoIds])}::bigint[])`)
    .where('config_file', 'is not', null)
    .execute();
  return new Map(rows.flatMap((row) => (row.config_file ? [[row.id, row.config_file] as const] : [])));
}
