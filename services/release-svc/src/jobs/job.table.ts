import type { PackageManager, PullRequestJobCreated, PullRequestJobStatus } from '@switchyard/contracts';
import type { ColumnType, Generated, Selectable } from 'kysely';

/** `release.pull_request_job`: unique per update config, dependency and target version. */
export interface PullRequestJobTable {
  id: Generated<number>;
  notification_id: string | null;
  update_run_id: string | null;
  unverified: Generated<boolean>;
  update_config_id: number;
  repo_id: number;
  account_id: number;
  package_manager: PackageManager;
  dependency_name: string;
  dependency_type: PullRequestJobCreated['dependencyType'];
  version_in_use: string;
  target_version: string;
  update_kind: PullRequestJobCreated['updateKind'];
  automerge: boolean;
  security_fix: boolean;
  target_branch: string;
  directory: string;
  status: Generated<PullRequestJobStatus>;
  /** The job's branch on the code host, once made. */
  branch: string | null;
  pull_request_number: number | null;
  pull_request_url: string | null;
  /** Why the status is what it is (a failure's reason, who closed it, what superseded it), or null. */
  status_reason: string | null;
  status_changed_at: Generated<Date>;
  created_at: Generated<Date>;
  /** The commit this service made on the branch (a branch whose head is another commit was pushed to by a person). */
  head_sha: string | null;
  /** The target branch's commit `head_sha` was made on (a target branch that moved from it calls for a rebase). */
  base_sha: string | null;
  /** When the open pull request is next looked at (rebase, automerge, reconciliation); null once it is not open. */
  maintain_at: Date | null;
  /** The pull request's global id on the code host (GitHub's `node_id`), once opened: what identifies it, with `branch`. */
  pull_request_node_id: string | null;
  /** Whether the update was within the manifest's requirement (the `in_range` automerge rule), as decided. */
  in_range: Generated<boolean>;
  /** A person closed its pull request unmerged: the version is not proposed again for the config until it is reopened. */
  ignored: Generated<boolean>;
  /**
   * While `queued-limit`: the older job of the same dependency whose pull request, pushed to by someone else, this one
   * waits for (one pull request per dependency); null when it waits for the open pull-request limit or not at all.
   */
  waits_for_job_id: number | null;
  /**
   * What a person asked about merging its pull request with a command: `merge` or `squash` once its checks pass
   * (whatever the automerge rule), `blocked` (never automatically), or null (the config's automerge rule decides).
   */
  merge_request: ColumnType<
    'merge' | 'squash' | 'blocked' | null,
    'merge' | 'squash' | 'blocked' | null | undefined,
    'merge' | 'squash' | 'blocked' | null
  >;
  /**
   * The merge a worker began of its pull request (`merge` or `squash`), and when: set right before the merge request
   * is sent, under the `merge_request` it was decided by. A command given meanwhile finds it and says so; one older
   * than {@link MERGE_CLAIM_LEASE_MS} is a worker that stopped half-way and no longer holds the decision.
   */
  merging_method: ColumnType<'merge' | 'squash' | null, 'merge' | 'squash' | null | undefined, 'merge' | 'squash' | null>;
  merging_at: ColumnType<Date | null, Date | null | undefined, Date | null>;
  /**
   * The dependency group (dependabot.yml `groups`) whose updates the job holds (`pull_request_job_update`), or null for
   * one dependency's job; a group's job has the group's name as `dependency_name` and a digest of its updates as
   * `target_version` (`groupDigest`).
   */
  group_name: ColumnType<string | null, string | null | undefined, string | null>;
  /** The execution that holds the job (a token of its own), or null. */
  claimed_by: string | null;
  /** That execution's last heartbeat; a claim older than the lease is free to take. */
  claimed_at: Date | null;
}

declare module '../db/schema.ts' {
  interface ReleaseDatabase {
    pull_request_job: PullRequestJobTable;
  }
}

/** A recorded pull-request job. */
export type PullRequestJobRow = Selectable<PullRequestJobTable>;
