import type { ConfigFileState } from '@switchyard/contracts';
import type { ColumnType, Generated, Selectable } from 'kysely';

/** `config.repo`: a repository as the code host last described it. `id` is the code host's id. */
export interface RepoTable {
  id: ColumnType<number, number, never>;
  account_id: number;
  name: string;
  full_name: string;
  private: boolean;
  fork: boolean;
  archived: boolean;
  html_url: string;
  language: string | null;
  default_branch: string;
  using_config_file: Generated<boolean>;
  /** The config file last read from the default branch (`ConfigFileState`), or null when there is none. */
  config_file: ColumnType<ConfigFileState | null, string | null | undefined, string | null>;
  /** When the config file was last read (a read older than this one changes nothing); null before the first. */
  config_file_read_at: ColumnType<Date | null, Date | null | undefined, Date | null>;
  revision: Generated<number>;
  created_at: Generated<Date>;
  updated_at: Generated<Date>;
}

declare module '../db/schema.ts' {
  interface ConfigDatabase {
    repo: RepoTable;
  }
}
export type RepoRow = Selectable<RepoTable>;
