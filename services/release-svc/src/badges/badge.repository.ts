import type { Kysely } from 'kysely';
import type { ReleaseDatabase } from '../db/schema.ts';
import type {} from '../jobs/job.table.ts';
import type {} from '../read-model/repo.table.ts';
import type {} from '../read-model/update-config.table.ts';
import type {} from '../runs/update-run.table.ts';

type Db = Kysely<ReleaseDatabase>;

/** A repo of the read model as the badge needs it: its id, `owner/name` and whether the code host calls it private. */
export interface BadgeRepo {
  id: number;
  fullName: string;
  private: boolean;
}

/** The repo with the code host's id `id`, or undefined when the read model does not hold it. */
export async function findRepoById(db: Db, id: number): Promise<BadgeRepo | undefined> {
  const row = await db.selectFrom('repo').select(['id', 'full_name', 'private']).where('id', '=', id).executeTakeFirst();
  return row && { id: Number(row.id), fullName: row.full_name, private: row.private };
}

/**
 * The repo named `fullName` (`owner/name`), compared case-insensitively as the code host compares names; when the read
 * model holds two of that name (one renamed away whose new name it has not learnt yet), the newer one (the higher id).
 */
export async function findRepoByName(db: Db, fullName: string): Promise<BadgeRepo | undefined> {
  const row = await db
    .selectFrom('repo')
    .select(['id', 'full_name', 'private'])
    .where((eb) => eb(eb.fn('lower', ['full_name']), '=', eb.fn('lower', [eb.val(fullName)])))
    .orderBy('id', 'desc')
    .executeTakeFirst();
  return row && { id: Number(row.id), fullName: row.full_name, private: row.private };
}

/**
 * The status of the last finished update run (`done` or `failed`, the newest by creation) of each update config of
 * `repoId` that is not deleted, null for a config none of whose runs has finished; one entry per config, by config id.
 */
export async function lastRunOfEachConfig(db: Db, repoId: number): Promise<Array<'done' | 'failed' | null>> {
  const rows = await db
    .selectFrom('update_config as config')
    .select((eb) => [
      'config.id',
      eb
        .selectFrom('update_run as run')
        .select('run.status')
        .whereRef('run.update_config_id', '=', 'config.id')
        .where('run.status', 'in', ['done', 'failed'])
        .orderBy('run.created_at', 'desc')
        .limit(1)
        .as('last_status'),
    ])
    .where('config.repo_id', '=', repoId)
    .where('config.deleted', '=', false)
    .orderBy('config.id')
    .execute();
  return rows.map((row) => (row.last_status === 'done' || row.last_status === 'failed' ? row.last_status : null));
}

/** How many pull-request jobs of `repoId` have their pull request open (status `open`). */
export async function countOpenPullRequests(db: Db, repoId: number): Promise<number> {
  const row = await db
    .selectFrom('pull_request_job')
    .select((eb) => eb.fn.countAll<string | number>().as('open'))
    .where('repo_id', '=', repoId)
    .where('status', '=', 'open')
    .executeTakeFirstOrThrow();
  return Number(row.open);
}
