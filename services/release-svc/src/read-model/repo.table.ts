import type { ColumnType, Generated } from 'kysely';

type Id = ColumnType<number, number, never>;

/** `release.repo`: read model of `repo.*` events. */
export interface RepoTable {
  id: Id;
  account_id: number;
  full_name: string;
  default_branch: string;
  archived: boolean;
  /** Whether the code host calls the repo private; true for a row stored before the events' value was kept (unknown means private). */
  private: Generated<boolean>;
  revision: number;
}

declare module '../db/schema.ts' {
  interface ReleaseDatabase {
    repo: RepoTable;
  }
}
