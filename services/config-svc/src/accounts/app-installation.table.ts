import type { ColumnType } from 'kysely';

type Id = ColumnType<number, number, never>;

/** `config.app_installation`: the service's GitHub App installations as release-svc last published them. */
export interface AppInstallationTable {
  id: Id;
  account_id: number;
  repository_selection: 'all' | 'selected';
  /** The selected repositories' ids (JSON array); null for `all`. */
  repository_ids: ColumnType<number[] | null, string | null, string | null>;
  suspended: boolean;
  removed: boolean;
  revision: number;
}

declare module '../db/schema.ts' {
  interface ConfigDatabase {
    app_installation: AppInstallationTable;
  }
}
