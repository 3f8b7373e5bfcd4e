import type { ColumnType } from 'kysely';

type Id = ColumnType<number, number, never>;

/** `release.repo`: read model of `repo.*` events. */
export interface RepoTable {
  id: Id;
  account_id: number;
  full_name: string;
  default_branch: string;
  archived: boolean;
  revision: number;
}

declare module '../db/schema.ts' {
  interface ReleaseDatabase {
    repo: RepoTable;
  }
}
