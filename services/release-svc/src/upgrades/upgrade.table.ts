import type { ColumnType, Generated, Selectable } from 'kysely';

/** Where an upgrade pull request stands: waiting for a worker, opened, or failed (with why). */
export type RepoUpgradeStatus = 'pending' | 'opened' | 'failed';

/** `release.repo_upgrade`: the "Upgrade to GitHub-native Dependabot" pull request asked for a repository (one a repository). */
export interface RepoUpgradeTable {
  repo_id: ColumnType<number, number, never>;
  account_id: number;
  /** The code-host user who asked. */
  requested_by: number;
  requested_at: ColumnType<Date, Date | undefined, Date>;
  due_at: ColumnType<Date, Date | undefined, Date>;
  attempts: Generated<number>;
  status: RepoUpgradeStatus;
  reason: string | null;
  pull_request_number: number | null;
  pull_request_url: string | null;
  updated_at: ColumnType<Date, Date | undefined, Date>;
}

declare module '../db/schema.ts' {
  interface ReleaseDatabase {
    repo_upgrade: RepoUpgradeTable;
  }
}

/** An upgrade as stored. */
export type RepoUpgradeRow = Selectable<RepoUpgradeTable>;
