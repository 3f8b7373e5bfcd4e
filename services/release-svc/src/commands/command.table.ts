import type { ColumnType, Generated, Selectable } from 'kysely';

/**
 * `release.pull_request_command`: a `@dependabot …` command a person wrote in a comment on one of this service's pull
 * requests, one per webhook delivery, waiting for a worker (`outcome` null) or handled (`done`, or `refused` with the
 * reason in `answer`, which is also what the bot commented).
 */
export interface PullRequestCommandTable {
  delivery_id: ColumnType<string, string, never>;
  /** The job whose pull request it was given on; null until a worker finds it (a comment made as the pull request opened). */
  job_id: number | null;
  /** The repository and pull request number it was given on (null in commands recorded before they were kept). */
  repo_id: ColumnType<number | null, number | null | undefined, never>;
  pull_request_number: ColumnType<number | null, number | null | undefined, never>;
  comment_id: number;
  author: string;
  /** The comment came from an app or a bot account (GitHub Apps may not give commands). */
  author_is_app: boolean;
  /** What followed `@dependabot` on the command's line, lower-cased, spaces collapsed (`ignore this major version`). */
  command: string;
  received_at: ColumnType<Date, Date | undefined, never>;
  due_at: ColumnType<Date, Date | undefined, Date>;
  attempts: Generated<number>;
  outcome: 'done' | 'refused' | null;
  answer: string | null;
  handled_at: Date | null;
}

declare module '../db/schema.ts' {
  interface ReleaseDatabase {
    pull_request_command: PullRequestCommandTable;
  }
}

/** A stored command. */
export type PullRequestCommandRow = Selectable<PullRequestCommandTable>;
