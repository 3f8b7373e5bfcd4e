/**
 * What Dependabot Preview's status badge says about a repo (`GET /badges/status`,
 * https://api.dependabot.com/badges/status?host=github&repo=<owner>/<name>, embedded in READMEs: dependabot/feedback#6,
 * https://github.com/dependabot/feedback/issues/6). The original's JSON answer was `{ "status": "...", "colour": "..." }`
 * (badgen.net's `api/dependabot.ts` and shields.io's Dependabot service read those two fields), its states
 * `enabled` (green) and `inactive` (grey, Dependabot not active on the repo: dependabot-core#1912); the others are this
 * service's, from what it records. Pure: no I/O.
 */

/**
 * A badge's colour: a shields.io colour name, which badge-maker (shields.io's renderer) draws, and which shields.io
 * and badgen.net understand in the JSON answer's `colour`.
 */
export type BadgeColour = 'brightgreen' | 'green' | 'yellow' | 'red' | 'lightgrey';

/** A badge's message and colour: the JSON answer's `{ status, colour }` as the original named them. */
export interface BadgeStatus {
  status: string;
  colour: BadgeColour;
}

/** What the badge is computed from: the repo's update configs that are not deleted and its open update pull requests. */
export interface BadgeFacts {
  /**
   * One entry per live update config of the repo: the status of its last finished update run (the newest by creation of
   * those `done` or `failed`), or null when none has finished yet.
   */
  lastRuns: ReadonlyArray<'done' | 'failed' | null>;
  /** The repo's pull-request jobs whose pull request is open (`open`): the update pull requests still waiting. */
  openPullRequests: number;
}

/** The repo has no live update config: Dependabot Preview's own word and colour. */
export const INACTIVE: BadgeStatus = { status: 'inactive', colour: 'lightgrey' };
/** The last run of at least one update config failed (its files could not be read). */
export const FAILING: BadgeStatus = { status: 'failing', colour: 'red' };
/** Every update config has finished a run that succeeded, and no update pull request is open. */
export const UP_TO_DATE: BadgeStatus = { status: 'up to date', colour: 'brightgreen' };
/** Configured, nothing failing or pending, but some update config has not finished a run yet: the original's `enabled`. */
export const ENABLED: BadgeStatus = { status: 'enabled', colour: 'green' };

/** `N updates pending` (`1 update pending`), yellow: the bot has that many update pull requests open. */
export function pending(openPullRequests: number): BadgeStatus {
  return { status: `${openPullRequests} ${openPullRequests === 1 ? 'update' : 'updates'} pending`, colour: 'yellow' };
}

/**
 * The badge of a repo, the first of these that holds: {@link INACTIVE} without a live update config; {@link FAILING}
 * when a config's last finished run failed; {@link pending} when update pull requests are open; {@link ENABLED} when a
 * config has not finished a run yet; else {@link UP_TO_DATE}.
 */
export function badgeStatus(facts: BadgeFacts): BadgeStatus {
  if (facts.lastRuns.length === 0) return INACTIVE;
  if (facts.lastRuns.includes('failed')) return FAILING;
  if (facts.openPullRequests > 0) return pending(facts.openPullRequests);
  if (facts.lastRuns.includes(null)) return ENABLED;
  return UP_TO_DATE;
}
