import type { ColumnType, Generated } from 'kysely';

/**
 * `release.bot_account`: the login the code host shows as the `sender` of what the workers do (the App's bot user
 * `<slug>[bot]`, or the personal token's user), one row, recorded by a worker (see `startBotAccountCheck`).
 */
export interface BotAccountTable {
  id: ColumnType<boolean, never, never>;
  login: string;
  recorded_at: Generated<Date>;
}

declare module '../db/schema.ts' {
  interface ReleaseDatabase {
    bot_account: BotAccountTable;
  }
}
