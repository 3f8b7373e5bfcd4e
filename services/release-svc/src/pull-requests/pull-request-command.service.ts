import { type RepoRef, transientCodeHostError } from '@switchyard/code-host';
import {
  groupIgnoreAnswer,
  ignoredAnswer,
  isCommandName,
  NO_APPS,
  NO_PUSH_ACCESS,
  type PullRequestCommandName,
  unknownCommand,
} from '../commands/command.policy.ts';
import {
  claimCommands,
  finishCommand,
  renewCommandLeases,
  retryCommandLater,
  setCommandJob,
  waitForCommandJob,
} from '../commands/command.repository.ts';
import type { PullRequestCommandRow } from '../commands/command.table.ts';
import { findJob, findJobOfPullRequest, findJobPullRequest, setMergeRequest, setStatus } from '../jobs/job.repository.ts';
import type { PullRequestJobRow } from '../jobs/job.table.ts';
import { heldIgnoreText } from '../pipeline/decide/config-rules.policy.ts';
import type { JobExecutorDeps } from '../pipeline/deliver/pull-request.service.ts';
import { addConfigIgnore, removeIgnoresOfJob } from '../read-model/config-ignore.repository.ts';
import type { ConfigIgnoreKind } from '../read-model/config-ignore.table.ts';
import { findScanTargets } from '../read-model/read-model.repository.ts';
import { rebaseOnRequest } from './pull-request-maintenance.service.ts';

/** What carrying out a command came to: `done` or `refused`, and the answer commented (null: nothing to say). */
interface CommandResult {
  outcome: 'done' | 'refused';
  answer: string | null;
}

/** Commands taken a round. */
const BATCH = 20;
/**
 * How long a taken command stays with its worker, ms: renewed for the round's others after each one, so a worker that
 * stopped (a restart, a kill) leaves its commands to the next worker within this.
 */
const LEASE_MS = 30_000;
/** How long a command waits after the code host failed before it is tried again, ms: 5 s, doubling, at most 5 minutes. */
const retryDelayMs = (attempts: number) => Math.min(5_000 * 2 ** Math.max(0, attempts - 1), 300_000);
/** Attempts before a command is given up (answered that it could not be carried out). */
const MAX_ATTEMPTS = 10;

/** The kind of ignore each ignore command makes. */
const IGNORE_KINDS: Partial<Record<PullRequestCommandName, ConfigIgnoreKind>> = {
  'ignore this dependency': 'dependency',
  'ignore this major version': 'major',
  'ignore this minor version': 'minor',
  'ignore this patch version': 'patch',
};

/**
 * Carries out one `@dependabot` command, as Dependabot did
 * (https://docs.github.com/code-security/dependabot/working-with-dependabot/managing-pull-requests-for-dependency-updates):
 * - refused, with Dependabot's answer, from an app or bot account, or from someone without push access (the code host's
 *   `collaboratorPermission`: write or admin), and for a command it does not know (the answer lists the known ones);
 * - `rebase` / `recreate`: `rebaseOnRequest`;
 * - `merge` / `squash and merge`: merged with that method once its checks pass, whatever the automerge rule;
 *   `cancel merge`: not merged automatically;
 * - `close`: closed, that version ignored (the answer is the notice of a person's close);
 * - `reopen`: reopened, the ignores it made removed;
 * - `ignore this dependency` / `… major|minor|patch version`: the config ignores the dependency, or the target
 *   version's line, from now on (listed with its source, `command`), and the pull request is closed; reopening it undoes
 *   that.
 * `job` is the command's job (`jobOfCommand`; undefined: a pull request that is no job's, refused without an answer).
 * @returns the outcome and the answer to comment
 * @throws CodeHostError when the code host fails (the caller tries again later)
 */
export async function carryOutCommand(
  deps: JobExecutorDeps,
  command: PullRequestCommandRow,
  job: PullRequestJobRow | undefined,
): Promise<CommandResult> {
  const { db, codeHost: host } = deps;
  const target = job && (await findScanTargets(db, [job.update_config_id])).get(job.update_config_id);
  if (!job || !target?.repo || job.pull_request_number === null) return { outcome: 'refused', answer: null };
  const [owner = '', name = ''] = target.repo.fullName.split('/');
  const repo: RepoRef = { owner, name };
  const token = await deps.tokens.forOwner(owner);
  if (command.author_is_app) return { outcome: 'refused', answer: NO_APPS };
  const permission = host.collaboratorPermission ? await host.collaboratorPermission(token, repo, command.author) : 'none';
  if (permission !== 'write' && permission !== 'admin') return { outcome: 'refused', answer: NO_PUSH_ACCESS };
  const asked = command.command;
  if (!isCommandName(asked)) return { outcome: 'refused', answer: unknownCommand(asked) };
  const number = job.pull_request_number;
  switch (asked) {
    case 'rebase':
    case 'recreate':
      return rebaseOnRequest(deps, job, asked === 'recreate');
    case 'merge':
    case 'squash and merge':
    case 'cancel merge':
      return mergeOnRequest(db, job, asked);
    case 'reopen':
      return reopen(deps, job, repo, number);
    default: {
      if (job.status !== 'open') return { outcome: 'refused', answer: 'This pull request is not open, so there is nothing to close.' };
      if (job.group_name !== null && asked !== 'close') return { outcome: 'refused', answer: groupIgnoreAnswer(asked, job.group_name) };
      const kind = IGNORE_KINDS[asked];
      const ignore = kind && { dependencyName: job.dependency_name, kind, version: kind === 'dependency' ? null : job.target_version };
      await db.transaction().execute(async (trx) => {
        // Marked first: the webhook of this close then finds the job closed by this service, not by a person.
        await setStatus(trx, job.id, 'closed', `closed with \`@dependabot ${asked}\` by ${command.author}`, undefined, 0, {
          ignored: true,
          from: ['open'],
        });
        // A group's pull request closed: its updates together are not proposed again (the job, `ignored`).
        if (job.group_name !== null) return;
        await addConfigIgnore(trx, {
          update_config_id: job.update_config_id,
          dependency_name: job.dependency_name,
          kind: ignore?.kind ?? 'version',
          version: ignore ? ignore.version : job.target_version,
          source: 'command',
          job_id: job.id,
          created_by: command.author,
        });
      });
      await host.closePullRequest?.(token, repo, number);
      const what =
        job.group_name !== null
          ? `these updates of the ${job.group_name} group`
          : ignore
            ? ignore.kind === 'dependency'
              ? job.dependency_name
              : `version ${heldIgnoreText(ignore).slice(job.dependency_name.length + 1)}`
            : `${job.dependency_name} ${job.target_version}`;
      return { outcome: 'done', answer: ignoredAnswer(what) };
    }
  }
}

/** How long a command on a pull request that is no job's waits for its job to record the number, ms (it opened moments before). */
const JOB_WAIT_MS = 120_000;

/**
 * The job of a command: recorded with it, else the job whose pull request it was given on (recorded with the command
 * then), else `not yet` while the command is young (the pull request opened moments before it), else undefined (a pull
 * request that is no job's: the command is dropped unanswered).
 */
async function jobOfCommand(db: JobExecutorDeps['db'], command: PullRequestCommandRow): Promise<PullRequestJobRow | undefined | 'not yet'> {
  if (command.job_id !== null) return findJob(db, command.job_id);
  if (command.repo_id === null || command.pull_request_number === null) return undefined;
  const job = await findJobOfPullRequest(db, command.repo_id, command.pull_request_number);
  if (job) {
    await setCommandJob(db, command.delivery_id, job.id);
    return job;
  }
  return Date.now() - command.received_at.getTime() < JOB_WAIT_MS ? 'not yet' : undefined;
}

/**
 * `@dependabot reopen`: a pull request closed unmerged is reopened and its job open again, the ignores it made removed.
 * A pull request the code host has open while its job is not (an earlier try reopened it and stopped before recording
 * it; the echo of a worker's own reopen moves nothing) has its job recorded open.
 */
async function reopen(deps: JobExecutorDeps, job: PullRequestJobRow, repo: RepoRef, number: number): Promise<CommandResult> {
  const { db, codeHost: host } = deps;
  const token = await deps.tokens.forOwner(repo.owner);
  const pr = await host.getPullRequest?.(token, repo, number);
  if (!pr) return { outcome: 'refused', answer: 'This pull request is gone from the code host.' };
  if (pr.merged) return { outcome: 'refused', answer: 'This pull request was merged, so it cannot be reopened.' };
  if (pr.state === 'open' && job.status === 'open') return { outcome: 'refused', answer: 'This pull request is already open.' };
  if (pr.state !== 'open') await host.updatePullRequest?.(token, repo, number, { state: 'open' });
  await db.transaction().execute(async (trx) => {
    await setStatus(trx, job.id, 'open', null, undefined, 0, { ignored: false });
    await removeIgnoresOfJob(trx, job.id);
  });
  return { outcome: 'done', answer: "OK, I've reopened this PR." };
}

/**
 * One round of commands: the due ones (up to 20, leased for 30 s, the lease of those left renewed after each), each
 * carried out ({@link carryOutCommand}) and answered in a comment on its pull request; one the code host failed on is
 * tried again after 5 s, doubling up to 5 minutes, and answered that it could not be carried out after 10 attempts.
 * @returns how many were handled
 */
export async function handleDueCommands(deps: JobExecutorDeps): Promise<number> {
  const due = await claimCommands(deps.db, BATCH, LEASE_MS);
  let handled = 0;
  for (const [index, command] of due.entries()) {
    if (index > 0)
      await renewCommandLeases(
        deps.db,
        due.slice(index).map((c) => c.delivery_id),
        LEASE_MS,
      );
    let job: PullRequestJobRow | undefined;
    try {
      const found = await jobOfCommand(deps.db, command);
      if (found === 'not yet') {
        await waitForCommandJob(deps.db, command.delivery_id, 5_000);
        continue;
      }
      job = found;
      // Taken up again (a worker stopped between its answer and its record): the answer on the pull request, if it got
      // there, says the command was carried out; it is not carried out or answered twice.
      if (job && command.attempts > 0 && (await answeredAlready(deps, job, command))) {
        await finishCommand(deps.db, command.delivery_id, 'done', null);
        handled += 1;
        continue;
      }
      const result = await carryOutCommand(deps, command, job);
      await answer(deps, job, result.answer === null ? null : `${result.answer}${answerMark(command)}`);
      await finishCommand(deps.db, command.delivery_id, result.outcome, result.answer);
      handled += 1;
    } catch (error) {
      deps.logger.warn({ err: error, command: command.command, job: command.job_id }, 'a pull-request command could not be carried out');
      if (command.attempts + 1 >= MAX_ATTEMPTS || !transientCodeHostError(error)) {
        const failed = `Sorry, \`@dependabot ${command.command}\` could not be carried out: ${error instanceof Error ? error.message : String(error)}`;
        await answer(deps, job, failed).catch(() => {});
        await finishCommand(deps.db, command.delivery_id, 'refused', failed);
      } else {
        await retryCommandLater(deps.db, command.delivery_id, retryDelayMs(command.attempts + 1));
      }
    }
  }
  return handled;
}

/**
 * The mark at the end of a command's answer, an HTML comment GitHub does not show: which command (its comment's
 * delivery) the answer is for, so that a worker taking the command up again finds the answer on the pull request.
 */
function answerMark(command: Pick<PullRequestCommandRow, 'delivery_id'>): string {
  return `\n\n<!-- dependabot-command-answer: ${command.delivery_id} -->`;
}

/** Whether the pull request of the command's job has the command's answer already (its {@link answerMark}). */
async function answeredAlready(deps: JobExecutorDeps, job: PullRequestJobRow, command: PullRequestCommandRow): Promise<boolean> {
  if (!deps.codeHost.listComments) return false;
  const pull = await findJobPullRequest(deps.db, job.id);
  if (!pull) return false;
  const [owner = '', name = ''] = pull.fullName.split('/');
  const token = await deps.tokens.forOwner(owner);
  const comments = await deps.codeHost.listComments(token, { owner, name }, pull.number, command.received_at);
  const mark = answerMark(command).trim();
  return comments.some((comment) => comment.body.includes(mark));
}

/** Comments `text` on the pull request of the command's job (nothing when null, or without a job). */
async function answer(deps: JobExecutorDeps, job: PullRequestJobRow | undefined, text: string | null): Promise<void> {
  if (text === null || !deps.codeHost.comment || !job) return;
  const pull = await findJobPullRequest(deps.db, job.id);
  if (!pull) return;
  const [owner = '', name = ''] = pull.fullName.split('/');
  await deps.codeHost.comment(await deps.tokens.forOwner(owner), { owner, name }, pull.number, text);
}

/**
 * `@dependabot merge` / `squash and merge` (merged with that method once its checks pass) and `cancel merge` (not
 * merged automatically): recorded on the job (`merge_request`) for its maintenance to follow. Refused on a pull request
 * that is not open (`merge`, `squash and merge`), and while a worker is merging it already (`claimMerge`): the answer
 * says so, and with which method, rather than promising what the merge under way no longer follows.
 */
async function mergeOnRequest(
  db: JobExecutorDeps['db'],
  job: PullRequestJobRow,
  asked: 'merge' | 'squash and merge' | 'cancel merge',
): Promise<CommandResult> {
  if (asked !== 'cancel merge' && job.status !== 'open') {
    return { outcome: 'refused', answer: 'This pull request is not open, so it cannot be merged.' };
  }
  const recorded = await setMergeRequest(db, job.id, asked === 'merge' ? 'merge' : asked === 'squash and merge' ? 'squash' : 'blocked');
  if (!recorded.set) {
    const how = recorded.merging === 'merge' ? 'with a merge commit' : 'as one squashed commit';
    return { outcome: 'refused', answer: `This pull request is being merged already, ${how}: it is too late to change that.` };
  }
  if (asked === 'cancel merge') return { outcome: 'done', answer: "OK, I won't merge this PR automatically." };
  return { outcome: 'done', answer: `OK, I'll ${asked === 'merge' ? 'merge' : 'squash and merge'} this PR once its checks pass.` };
}
