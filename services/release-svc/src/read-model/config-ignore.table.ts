import type { ColumnType, Generated, Selectable } from 'kysely';

/** What a {@link ConfigIgnoreTable} row ignores of its dependency: every version, a version's major, minor or patch line, or the version alone. */
export type ConfigIgnoreKind = 'dependency' | 'major' | 'minor' | 'patch' | 'version';

/**
 * `release.config_ignore`: versions an update config no longer proposes because a person said so on the code host: a
 * `@dependabot ignore …` command (`command`), or a pull request closed unmerged (`closed-pull-request`, that version
 * alone). `job_id` is the pull request's job: reopening it removes the ignores it made. (A config file's own ignores
 * are in the config's settings.)
 */
export interface ConfigIgnoreTable {
  id: Generated<number>;
  update_config_id: number;
  dependency_name: string;
  kind: ConfigIgnoreKind;
  /** The version the ignore was made from (the pull request's target version); null for `dependency`. */
  version: string | null;
  source: 'command' | 'closed-pull-request';
  job_id: number | null;
  /** Who made it (the commenter or the person who closed the pull request), when known. */
  created_by: string | null;
  created_at: ColumnType<Date, Date | undefined, never>;
}

/** `release.config_ignore_version`: the version of a config's list of ignores, one more at each change. */
export interface ConfigIgnoreVersionTable {
  update_config_id: number;
  version: number;
}

declare module '../db/schema.ts' {
  interface ReleaseDatabase {
    config_ignore: ConfigIgnoreTable;
    config_ignore_version: ConfigIgnoreVersionTable;
  }
}

/** A stored ignore. */
export type ConfigIgnoreRow = Selectable<ConfigIgnoreTable>;
