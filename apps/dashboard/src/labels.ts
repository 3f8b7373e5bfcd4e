import type { DependencyCheckOutcome, NotificationStatus, PullRequestJobStatus, ScanOutcome, UpdateRunStatus } from '@switchyard/contracts';

/**
 * What each word of the API's vocabularies means, in plain words, and how it is drawn. The label shown is the API's own
 * word (the one the filters, the API and its documentation use); its meaning is the label's tooltip and the glossary
 * beside the tables; its tone is the label's colour and border (never the only carrier of meaning: the word is there).
 *
 * The tables are typed against the contracts' vocabularies (types only: the bundle carries no schema library), so a
 * word added to the API fails the typecheck here until it has a meaning.
 */

/** How a label is drawn: done well, failed, waiting or under way, left out, gone. */
export type Tone = 'ok' | 'bad' | 'busy' | 'wait' | 'info' | 'gone';

/** A word's meaning and tone. */
export interface Meaning {
  tone: Tone;
  meaning: string;
}

/** A pull-request job's status (`GET /pull_request_jobs`). */
export const JOB_STATUSES: Record<PullRequestJobStatus, Meaning> = {
  pending: { tone: 'busy', meaning: 'recorded; waiting for a worker to open its pull request' },
  running: { tone: 'busy', meaning: 'a worker is opening its pull request' },
  'queued-limit': { tone: 'wait', meaning: 'waiting: the config has as many open pull requests as its limit allows' },
  open: { tone: 'ok', meaning: 'its pull request is open' },
  merged: { tone: 'ok', meaning: 'its pull request was merged' },
  closed: {
    tone: 'bad',
    meaning:
      'its pull request was closed unmerged: by a person (that version is then not proposed again until the pull request is reopened) or by this service when the change was not needed any more; the reason says which',
  },
  superseded: { tone: 'wait', meaning: "a newer version's job replaced it" },
  failed: { tone: 'bad', meaning: 'no pull request could be opened; the reason says why' },
  vanished: {
    tone: 'gone',
    meaning: 'its pull request is gone from the code host, or its number now names another one: the next run proposes the update again',
  },
};

/** What an update run decided for one dependency (`GET /update_runs/{id}`). */
export const DEPENDENCY_OUTCOMES: Record<DependencyCheckOutcome, Meaning> = {
  'job-recorded': { tone: 'ok', meaning: 'an update: a job was recorded, and its pull request is opened next' },
  'pr-open': {
    tone: 'info',
    meaning: 'an update already under way: its job, recorded earlier, has its pull request open or waiting to be opened',
  },
  'up-to-date': { tone: 'ok', meaning: 'nothing to do: the version in use is the newest the rules allow' },
  skipped: { tone: 'wait', meaning: 'an update exists, but a rule left it out; the reason says which' },
  error: { tone: 'bad', meaning: 'the dependency could not be checked; the reason says why' },
};

/** An update run's status. */
export const RUN_STATUSES: Record<UpdateRunStatus, Meaning> = {
  queued: { tone: 'busy', meaning: 'waiting for a worker' },
  running: { tone: 'busy', meaning: 'its dependencies are being checked' },
  done: { tone: 'ok', meaning: 'every dependency was decided' },
  failed: { tone: 'bad', meaning: 'the manifests could not be read' },
};

/** A release notification's status. */
export const NOTIFICATION_STATUSES: Record<NotificationStatus, Meaning> = {
  queued: { tone: 'busy', meaning: 'waiting to be planned' },
  scanning: { tone: 'busy', meaning: 'the configs using the package are being scanned' },
  done: { tone: 'ok', meaning: 'every config was scanned' },
  failed: { tone: 'bad', meaning: 'the scan failed' },
  rejected: { tone: 'bad', meaning: 'not scanned; the reason says why' },
};

/** What a notification's scan did with one config. */
export const SCAN_OUTCOMES: Record<ScanOutcome, Meaning> = {
  'job-recorded': { tone: 'ok', meaning: 'a job was recorded' },
  'up-to-date': { tone: 'ok', meaning: 'the repo already uses that version or a newer one' },
  'not-used': { tone: 'wait', meaning: 'the config does not use the package' },
  skipped: { tone: 'wait', meaning: 'a rule left the update out; the reason says which' },
  failed: { tone: 'bad', meaning: 'the config could not be scanned; the reason says why' },
};

/** The vocabularies by name, for {@link meaningOf}. */
export const VOCABULARIES = {
  job: JOB_STATUSES,
  outcome: DEPENDENCY_OUTCOMES,
  run: RUN_STATUSES,
  notification: NOTIFICATION_STATUSES,
  scan: SCAN_OUTCOMES,
} as const;

export type Vocabulary = keyof typeof VOCABULARIES;

/** The meaning of `value` in `vocabulary`; a word the dashboard does not know yet is shown as itself, in a neutral tone. */
export function meaningOf(vocabulary: Vocabulary, value: string): Meaning {
  const table: Record<string, Meaning> = VOCABULARIES[vocabulary];
  return Object.hasOwn(table, value) ? (table[value] as Meaning) : { tone: 'gone', meaning: value };
}
