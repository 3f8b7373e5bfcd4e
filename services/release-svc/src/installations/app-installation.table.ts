import type { ColumnType } from 'kysely';

type Id = ColumnType<number, number, never>;

/**
 * `release.app_installation`: the GitHub App's installations as the code host last said (webhooks, or the worker's
 * reconciliation with `GET /app/installations`); see `AppInstallationState` of `@switchyard/contracts`.
 */
export interface AppInstallationTable {
  id: Id;
  account_id: number;
  account_login: string;
  account_type: 'user' | 'org';
  repository_selection: 'all' | 'selected';
  /** The selected repositories' ids (JSON array); null for `all`. */
  repository_ids: ColumnType<number[] | null, string | null, string | null>;
  suspended: boolean;
  removed: boolean;
  revision: number;
  changed_at: ColumnType<Date, Date, Date>;
}

declare module '../db/schema.ts' {
  interface ReleaseDatabase {
    app_installation: AppInstallationTable;
  }
}
