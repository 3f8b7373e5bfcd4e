import type { DependencyCheckOutcome, UpdateRunErrorKind, UpdateRunStatus, UpdateRunTrigger } from '@switchyard/contracts';
import type { SkippedDeclaration } from '@switchyard/ecosystems';
import type { ColumnType, Generated, Selectable } from 'kysely';

/** `release.update_run`: one run of one update config, unique per config and `trigger_key` (a slot, a version seen, a notification). */
export interface UpdateRunTable {
  id: ColumnType<string, string, never>;
  update_config_id: number;
  repo_id: number;
  account_id: number;
  trigger: UpdateRunTrigger;
  /** `schedule:<slot>`, `live:<name>@<version>`, `notification:<id>`, `initial` or `manual:<run id>`: what makes a run once. */
  trigger_key: string;
  status: Generated<UpdateRunStatus>;
  slot: Date | null;
  notification_id: string | null;
  /** The code-host user who asked for a `manual` run. */
  requested_by: number | null;
  job_limit: number | null;
  dependencies_total: number | null;
  dependencies_checked: Generated<number>;
  jobs_recorded: Generated<number>;
  error: string | null;
  error_kind: UpdateRunErrorKind | null;
  /** What the files held that the run left out: `SkippedDeclaration`s of `@switchyard/ecosystems`, `[]` by default. */
  skipped_declarations: ColumnType<SkippedDeclaration[], string | undefined, string>;
  created_at: Generated<Date>;
  started_at: Date | null;
  finished_at: Date | null;
}

/** `release.update_run_dependency`: one dependency as a run checked it. */
export interface UpdateRunDependencyTable {
  run_id: string;
  /** Its place in the manifests' order. */
  position: number;
  name: string;
  dependency_type: 'runtime' | 'development';
  requirement: string | null;
  version_in_use: string | null;
  latest_version: string | null;
  latest_allowed_version: string | null;
  outcome: DependencyCheckOutcome;
  reason: string;
  error_kind: UpdateRunErrorKind | null;
  registry: string | null;
  job_id: number | null;
  /** The group (dependabot.yml `groups`) its update was decided into: the run records the group's one job at its end. */
  group_name: ColumnType<string | null, string | null | undefined, string | null>;
  /** That update as decided (the group's job is made of them), or null. */
  group_update: ColumnType<GroupedUpdate | null, string | null | undefined, string | null>;
}

/** One update a run decided into a group, as the group's job records it (`pull_request_job_update`). */
export interface GroupedUpdate {
  dependencyType: 'runtime' | 'development';
  versionInUse: string;
  targetVersion: string;
  updateKind: 'major' | 'minor' | 'patch';
  inRange: boolean;
  /** Whether the config's automerge rule for its type allows it (a group is merged automatically when all do). */
  automerge: boolean;
  securityFix: boolean;
  unverified: boolean;
}

declare module '../db/schema.ts' {
  interface ReleaseDatabase {
    update_run: UpdateRunTable;
    update_run_dependency: UpdateRunDependencyTable;
  }
}

/** A recorded update run. */
export type UpdateRunRow = Selectable<UpdateRunTable>;
/** One dependency of a recorded update run. */
export type UpdateRunDependencyRow = Selectable<UpdateRunDependencyTable>;
