import type { Kysely } from 'kysely';
import type { ReleaseDatabase } from '../db/schema.ts';
import { recordBotLogin } from './bot-account.repository.ts';

/**
 * Reads the service's own login on the code host (`readLogin`) and records it (`release.bot_account`).
 * @returns the login
 * @throws what `readLogin` throws (CodeHostError when the code host cannot say)
 */
export async function recordBotAccount(db: Kysely<ReleaseDatabase>, readLogin: () => Promise<string>): Promise<string> {
  const login = await readLogin();
  await recordBotLogin(db, login);
  return login;
}
