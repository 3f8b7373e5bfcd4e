import { type Kysely, sql } from 'kysely';
import type { ReleaseDatabase } from '../db/schema.ts';
import type {} from './bot-account.table.ts';

/** Records `login` as the service's own account on the code host (replacing the one recorded before). */
export async function recordBotLogin(db: Kysely<ReleaseDatabase>, login: string): Promise<void> {
  await db
    .insertInto('bot_account')
    .values({ login })
    .onConflict((oc) => oc.column('id').doUpdateSet({ login, recorded_at: sql`now()` }))
    .execute();
}

/** The service's own login on the code host, as a worker recorded it; undefined before any worker did. */
export async function findBotLogin(db: Kysely<ReleaseDatabase>): Promise<string | undefined> {
  return (await db.selectFrom('bot_account').select('login').executeTakeFirst())?.login;
}
