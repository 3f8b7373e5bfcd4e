import type { PullRequestJobCreated } from '@switchyard/contracts';
import type { Selectable } from 'kysely';

/**
 * `release.pull_request_job_update`: one update of a group's job (a dependency, from its version in use to its target),
 * in the manifests' order (`position`, from 0). A job of one dependency has none: its own columns say it.
 */
export interface PullRequestJobUpdateTable {
  job_id: number;
  position: number;
  dependency_name: string;
  dependency_type: PullRequestJobCreated['dependencyType'];
  version_in_use: string;
  target_version: string;
  update_kind: PullRequestJobCreated['updateKind'];
  /** Whether the update was within the manifest's requirement (the `in_range` automerge rule). */
  in_range: boolean;
}

declare module '../db/schema.ts' {
  interface ReleaseDatabase {
    pull_request_job_update: PullRequestJobUpdateTable;
  }
}

/** One recorded update of a group's job. */
export type PullRequestJobUpdateRow = Selectable<PullRequestJobUpdateTable>;
