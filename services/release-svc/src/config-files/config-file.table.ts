import type { RepoConfigFileRead } from '@switchyard/contracts';
import type { ColumnType, Generated } from 'kysely';

/**
 * `release.config_file_check`: a repository whose config files are to be read (a push to its default branch touched
 * one), one row a repo, kept until a worker has read them and handed the result on; `repository` is the code host's
 * description of it from the webhook; a failed read waits until `due_at`.
 */
export interface ConfigFileCheckTable {
  repo_id: ColumnType<number, number, never>;
  /** Null for a request a run made: the worker asks the code host for the repository then. */
  repository: ColumnType<RepoConfigFileRead['repo'] | null, string | null, string | null>;
  requested_at: ColumnType<Date, Date | undefined, Date>;
  due_at: ColumnType<Date, Date | undefined, Date>;
  attempts: Generated<number>;
  last_error: string | null;
}

/** `release.config_file_read`: when a repository's config files were last read. */
export interface ConfigFileReadTable {
  repo_id: ColumnType<number, number, never>;
  read_at: ColumnType<Date, Date | undefined, Date>;
}

/** `release.config_file_issue`: the issue opened on a repository about its invalid config file, to update and close. */
export interface ConfigFileIssueTable {
  repo_id: ColumnType<number, number, never>;
  path: string;
  issue_number: number;
  /** The body last written, so that an unchanged list of problems writes nothing. */
  body: string;
  open: boolean;
  updated_at: ColumnType<Date, Date | undefined, Date>;
}

declare module '../db/schema.ts' {
  interface ReleaseDatabase {
    config_file_check: ConfigFileCheckTable;
    config_file_issue: ConfigFileIssueTable;
    config_file_read: ConfigFileReadTable;
  }
}
