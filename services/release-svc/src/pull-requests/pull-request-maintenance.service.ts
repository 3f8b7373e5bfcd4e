import {
  type ChecksState,
  CodeHostError,
  type CodeHostPullRequest,
  isCodeHostError,
  type RepoRef,
  transientCodeHostError,
} from '@switchyard/code-host';
import type { Kysely } from 'kysely';
import { EDITED_ANSWER, upToDateAnswer } from '../commands/command.policy.ts';
import type { ReleaseDatabase } from '../db/schema.ts';
import { IGNORED, ignoredNotice } from '../jobs/job.policy.ts';
import {
  claimMerge,
  findJob,
  isCommitOfThisService,
  lookAgainIn,
  makeOpenJobsDue,
  recordRebase,
  releaseMerge,
  setAutomerge,
  setOpenReason,
  setStatus,
  stopLooking,
  takeDueOpenJobs,
} from '../jobs/job.repository.ts';
import type { PullRequestJobRow } from '../jobs/job.table.ts';
import { computeJobChange, inDirectory, type JobChange, JobOutcome } from '../pipeline/deliver/change.service.ts';
import {
  automergeNow,
  giveWay,
  type JobExecutorDeps,
  newerOpenJob,
  RECONCILE_INTERVAL_MS,
  supersededReason,
} from '../pipeline/deliver/pull-request.service.ts';
import { commitPrefix } from '../pipeline/deliver/pull-request-settings.policy.ts';
import { isRegistryError } from '../pipeline/resolve/registry-access.client.ts';
import { addConfigIgnore } from '../read-model/config-ignore.repository.ts';
import { findAccountSettings, findScanTargets } from '../read-model/read-model.repository.ts';
import type { KnownUpdateConfig } from '../read-model/scan-target.model.ts';
import { requestRun } from '../runs/run-request.service.ts';

type Db = Kysely<ReleaseDatabase>;

/** How soon an automerge pull request whose checks are still running is looked at again without a webhook, ms. */
export const PENDING_CHECKS_INTERVAL_MS = 60_000;
/** How long a worker holds the open pull requests it took before another worker may take them, ms. */
const LEASE_MS = 5 * 60_000;

/** What one look at a job's pull request did. */
export type MaintenanceOutcome =
  | 'merged'
  | 'closed'
  | 'vanished'
  | 'retargeted'
  | 'superseded'
  | 'rebased'
  | 'waiting-for-checks'
  | 'ignore-noted'
  | 'unchanged';

/**
 * Looks at the pull requests that are due (`maintain_at` passed: just opened, a webhook said their target branch
 * moved, their checks changed or a person closed one, their config's settings changed, a worker started, or
 * {@link RECONCILE_INTERVAL_MS} went by), at most `limit` of them, each taken by one worker only (`for update skip
 * locked`, then leased for 5 min). See {@link maintainPullRequest}. A look that fails (code host down) is logged and
 * retried when the lease ends.
 * @returns how many were looked at
 */
export async function maintainDuePullRequests(deps: JobExecutorDeps, limit = 50): Promise<number> {
  const { db } = deps;
  const due = await takeDueOpenJobs(db, LEASE_MS, limit);
  for (const job of due) {
    await maintainPullRequest(deps, job).catch((error: unknown) => {
      deps.logger.warn({ err: error, job: job.id }, 'an open pull request could not be looked at; it is looked at again later');
    });
  }
  return due.length;
}

/**
 * Makes every open job due at once: a worker starting reconciles what happened on the code host while it was away.
 * @returns how many became due
 */
export function lookAtEveryOpenPullRequest(db: Db): Promise<number> {
  return makeOpenJobsDue(db, 'all');
}

/**
 * One look at a job's pull request; the code host is the source of truth, so what the job says is compared with it:
 * 1. **A person's decision**: a job `closed` and `ignored` (a person closed its pull request unmerged, as a webhook said)
 *    gets the notice that its version is not proposed again (`ignoredNotice`), once.
 * 2. **Identity and reconciliation**: the pull request is read by its number and must be the job's (the same global id
 *    and head branch): one that is gone, or whose number names another pull request now (a repository recreated, an
 *    emulator restarted fresh), makes the job `vanished`, and the next run proposes the update again. One merged on the
 *    code host makes the job `merged`; one closed unmerged while the job is `open` was closed by a person (this service
 *    marks its own closes first): the job is `closed` and `ignored`, with the notice.
 * 3. **One pull request per dependency**: when a newer version's pull request of the dependency is open (an older job
 *    whose message came late opened after it), this one is closed as `superseded`, unless someone pushed to it.
 * 4. **Settings reach it**: the automerge rule of the config as it is now decides `automerge`; a config that now targets
 *    another branch closes the pull request (deleting its branch when no one else pushed to it) and asks for a run
 *    (`settings`), whose pull requests target the new branch.
 * 5. **Rebase** (the account's `automatically-rebase-prs`, unless the config's `rebase-strategy` is `disabled`): when the target branch moved from the commit the change was
 *    made on, the change is recomputed on the new head and its commit recreated there (the branch is moved by force). A
 *    branch whose head is not this service's commit (a person pushed to it) is left alone, and the reason says so. When
 *    the target branch now holds the version (or another), the pull request is closed with a comment and its branch
 *    deleted.
 * 6. **Automerge** (the config's rule, unless a person asked otherwise with `@dependabot merge`, `squash and merge` or
 *    `cancel merge`, which also says the method): once the head's commit statuses and check runs pass, or at once in a repository without checks
 *    (neither the head nor the target branch's head has any), the pull request is merged with the account's method
 *    (`create-merge-commits`: a merge commit, else squash); pending checks are looked at again after
 *    {@link PENDING_CHECKS_INTERVAL_MS} (or on their webhook), failed ones leave it open.
 * @returns what the look did
 * @throws CodeHostError when the code host is down, rate-limited or refuses; RegistryError (a rebase's lockfile update)
 */
export async function maintainPullRequest(deps: JobExecutorDeps, job: PullRequestJobRow): Promise<MaintenanceOutcome> {
  const { db, codeHost: host } = deps;
  if (job.pull_request_number === null || !host.getPullRequest) return 'unchanged';
  const target = (await findScanTargets(db, [job.update_config_id])).get(job.update_config_id);
  if (!target?.repo) return later(db, job, RECONCILE_INTERVAL_MS, 'unchanged');
  const [owner = '', name = ''] = target.repo.fullName.split('/');
  const repo: RepoRef = { owner, name };
  const token = await deps.tokens.forOwner(owner);
  const number = job.pull_request_number;

  if (job.status === 'closed' && job.ignored) {
    await host.comment?.(token, repo, number, ignoredNotice(job));
    await stopLooking(db, job.id);
    return 'ignore-noted';
  }
  const pr = await host.getPullRequest(token, repo, number);
  if (!pr) {
    await setStatus(db, job.id, 'vanished', `pull request #${number} is gone from the code host: the next run proposes the update again`);
    return 'vanished';
  }
  if (!isTheJobs(job, pr)) {
    await setStatus(
      db,
      job.id,
      'vanished',
      `pull request #${number} on the code host is another pull request now: the next run proposes the update again`,
    );
    return 'vanished';
  }
  if (pr.merged) {
    await setStatus(db, job.id, 'merged', 'merged on the code host');
    return 'merged';
  }
  if (pr.state === 'closed') {
    // Only while the job is still open: this look took it before a command or a webhook moved it (a `@dependabot
    // ignore …` marks its job closed, then closes the pull request), and that record stands.
    const personsClose = await db.transaction().execute(async (trx) => {
      const moved = await setStatus(trx, job.id, 'closed', `closed unmerged on the code host: ${IGNORED}`, undefined, 0, {
        ignored: true,
        from: ['open'],
      });
      if (!moved || job.group_name !== null) return moved;
      await addConfigIgnore(trx, {
        update_config_id: job.update_config_id,
        dependency_name: job.dependency_name,
        kind: 'version',
        version: job.target_version,
        source: 'closed-pull-request',
        job_id: job.id,
        created_by: null,
      });
      return true;
    });
    if (!personsClose) return 'unchanged';
    await host.comment?.(token, repo, number, ignoredNotice(job));
    await stopLooking(db, job.id);
    return 'closed';
  }
  const newer = await newerOpenJob(db, job);
  if (newer && pr.head.sha === job.head_sha) {
    if (!(await setStatus(db, job.id, 'superseded', supersededReason(newer), undefined, 0, { from: ['open'] }))) return 'unchanged';
    await giveWay(deps, repo, { number, branch: pr.head.ref }, newer);
    return 'superseded';
  }
  const config = target.config;
  const branchNow = config.targetBranch ?? target.repo.defaultBranch;
  if (job.target_branch !== branchNow) return retarget(deps, job, repo, pr, config, branchNow);
  // A person's `@dependabot merge` / `squash and merge` / `cancel merge` outranks the config's rule.
  // Read again, not from when this look took the job: a command given meanwhile (`squash and merge`, `cancel merge`)
  // decides how, or whether, it is merged.
  const requested = (await findJob(db, job.id))?.merge_request ?? job.merge_request;
  const automerge = requested === 'blocked' ? false : requested !== null ? true : await automergeNow(db, config, job);
  if (automerge !== job.automerge) await setAutomerge(db, job.id, automerge);
  const account = await findAccountSettings(db, job.account_id);

  const baseHead = await host.getBranchHead?.(token, repo, job.target_branch);
  if (account?.automaticallyRebasePrs !== false && config.settings?.rebaseStrategy !== 'disabled' && host.commitFiles) {
    if (baseHead && job.base_sha !== null && baseHead !== job.base_sha) {
      if (pr.head.sha !== job.head_sha) {
        await setReason(db, job, 'not rebased: a person pushed to its branch');
        return later(db, job, RECONCILE_INTERVAL_MS, 'unchanged');
      }
      return rebase(deps, job, repo, pr, target.repo.fullName, baseHead, commitPrefix(config.settings, job));
    }
  }

  if (automerge && host.mergePullRequest) {
    const checks = await checksOf(deps, repo, pr.head.sha, baseHead);
    if (checks === 'pending') return later(db, job, PENDING_CHECKS_INTERVAL_MS, 'waiting-for-checks');
    if (checks === 'failure') {
      await setReason(db, job, 'not merged automatically: its checks failed');
      return later(db, job, RECONCILE_INTERVAL_MS, 'unchanged');
    }
    const method = requested === 'merge' || requested === 'squash' ? requested : account?.createMergeCommits ? 'merge' : 'squash';
    // Marked first, under the decision it was made by: a command given since then (read above) decides again, and one
    // given from now on is told the merge is under way rather than answered as if it still chose.
    if (!(await claimMerge(db, job.id, requested, method))) return later(db, job, RECONCILE_INTERVAL_MS, 'unchanged');
    try {
      await host.mergePullRequest(token, repo, { number, method, sha: pr.head.sha, commitTitle: `${pr.title} (#${number})` });
    } catch (error) {
      // Refused: no merge is under way. Any other failure may have merged it: the mark stays until the next look reads
      // the pull request (or its lease ends).
      if (error instanceof CodeHostError && !transientCodeHostError(error)) {
        await releaseMerge(db, job.id);
        await setReason(db, job, `not merged automatically: ${error.message}`);
        return later(db, job, RECONCILE_INTERVAL_MS, 'unchanged');
      }
      throw error;
    }
    await setStatus(
      db,
      job.id,
      'merged',
      requested ? 'merged as asked in a comment: its checks passed' : 'merged automatically: its checks passed',
    );
    return 'merged';
  }
  return later(db, job, RECONCILE_INTERVAL_MS, 'unchanged');
}

/**
 * Whether the pull request the code host has under the job's number is the job's: the same global id (where both know
 * it) and head branch. Numbers are per repository and a recreated repository (or an emulator started fresh) gives them
 * again.
 */
function isTheJobs(job: PullRequestJobRow, pr: CodeHostPullRequest): boolean {
  if (job.pull_request_node_id !== null && pr.nodeId !== null && pr.nodeId !== job.pull_request_node_id) return false;
  return job.branch === null || pr.head.ref === job.branch;
}

/**
 * Step 4 of {@link maintainPullRequest} for a config that now targets `branch`: the pull request against the old target
 * is closed with a comment (its job marked first, so its close is not taken for a person's) and its branch deleted when
 * no one else pushed to it; a run of the config (`settings`, once per config revision) proposes the updates against the
 * new target. A pull request someone pushed to is left open, and its job says why.
 */
async function retarget(
  deps: JobExecutorDeps,
  job: PullRequestJobRow,
  repo: RepoRef,
  pr: CodeHostPullRequest,
  config: KnownUpdateConfig,
  branch: string,
): Promise<MaintenanceOutcome> {
  const { db, codeHost: host } = deps;
  const token = await deps.tokens.forOwner(repo.owner);
  if (pr.head.sha !== job.head_sha) {
    await setReason(db, job, `not retargeted to ${branch}: a person pushed to its branch`);
    return later(db, job, RECONCILE_INTERVAL_MS, 'unchanged');
  }
  if (!(await setStatus(db, job.id, 'closed', `closed: the config now targets ${branch}`, undefined, 0, { from: ['open'] }))) {
    return 'unchanged';
  }
  await host.comment?.(token, repo, pr.number, `The configuration now targets \`${branch}\`: a pull request against it replaces this one.`);
  await host.closePullRequest?.(token, repo, pr.number);
  await host.deleteBranch?.(token, repo, pr.head.ref);
  await db.transaction().execute((trx) =>
    requestRun(trx, {
      updateConfigId: config.id,
      repoId: config.repoId,
      accountId: config.accountId,
      trigger: 'settings',
      triggerKey: `settings:r${config.revision}`,
    }),
  );
  return 'retargeted';
}

/** What a rebase a person asked for did, and the answer to comment. */
export interface RequestedRebase {
  outcome: 'done' | 'refused';
  answer: string;
}

/**
 * `@dependabot rebase` and `recreate` on an open pull request: the change recomputed on its target branch's head and
 * its commit made again there. `rebase` leaves a branch someone else pushed to alone and does nothing on one already
 * based on that head (each answered in Dependabot's words); `recreate` overwrites any edits.
 * @throws CodeHostError / RegistryError as {@link maintainPullRequest}
 */
export async function rebaseOnRequest(deps: JobExecutorDeps, job: PullRequestJobRow, recreate: boolean): Promise<RequestedRebase> {
  const { db, codeHost: host } = deps;
  const target = (await findScanTargets(db, [job.update_config_id])).get(job.update_config_id);
  const pr =
    job.pull_request_number === null || !target?.repo ? undefined : await pullOf(deps, target.repo.fullName, job.pull_request_number);
  if (!target?.repo || !pr || job.status !== 'open' || pr.state !== 'open') {
    return { outcome: 'refused', answer: 'This pull request is not open, so there is nothing to rebase.' };
  }
  const repo = refOf(target.repo.fullName);
  if (!recreate && pr.head.sha !== job.head_sha) return { outcome: 'refused', answer: EDITED_ANSWER };
  const baseHead = await host.getBranchHead?.(await deps.tokens.forOwner(repo.owner), repo, job.target_branch);
  if (!baseHead) return { outcome: 'refused', answer: `The target branch ${job.target_branch} is gone, so there is nothing to rebase on.` };
  if (!recreate && baseHead === job.base_sha) return { outcome: 'done', answer: upToDateAnswer(job.target_branch) };
  const outcome = await rebase(deps, job, repo, pr, target.repo.fullName, baseHead, commitPrefix(target.config.settings, job));
  if (outcome !== 'rebased') {
    const reason = (await findJob(db, job.id))?.status_reason ?? outcome;
    return { outcome: 'refused', answer: `This pull request was not ${recreate ? 'recreated' : 'rebased'}: ${reason}.` };
  }
  return {
    outcome: 'done',
    answer: recreate
      ? `OK, I've recreated this PR from scratch on the latest \`${job.target_branch}\`, overwriting any edits.`
      : `OK, I've rebased this PR on the latest \`${job.target_branch}\`.`,
  };
}

/** `owner/name` as a {@link RepoRef}. */
function refOf(fullName: string): RepoRef {
  const [owner = '', name = ''] = fullName.split('/');
  return { owner, name };
}

/** Pull request `number` of repository `fullName`, or undefined. */
async function pullOf(deps: JobExecutorDeps, fullName: string, number: number): Promise<CodeHostPullRequest | undefined> {
  const repo = refOf(fullName);
  if (!deps.codeHost.getPullRequest) return undefined;
  return deps.codeHost.getPullRequest(await deps.tokens.forOwner(repo.owner), repo, number);
}

/** Step 5 of {@link maintainPullRequest}: the change recomputed on `baseHead` and its commit recreated there. */
async function rebase(
  deps: JobExecutorDeps,
  job: PullRequestJobRow,
  repo: RepoRef,
  pr: CodeHostPullRequest,
  repoFullName: string,
  baseHead: string,
  prefix: string,
): Promise<MaintenanceOutcome> {
  const { db, codeHost: host } = deps;
  const token = await deps.tokens.forOwner(repo.owner);
  let change: JobChange;
  try {
    change = await computeJobChange({ ...deps, token }, job, repoFullName, baseHead, prefix);
  } catch (error) {
    if (error instanceof JobOutcome) {
      if (error.status === 'closed') {
        // Marked first: the webhook of this close then finds the job closed by this service, not by a person.
        // Only while the job is open: a merge on the code host (its webhook came first) made the target hold the version.
        if (!(await setStatus(db, job.id, 'closed', error.reason, undefined, 0, { from: ['open'] }))) return 'unchanged';
        await host.comment?.(token, repo, pr.number, `${error.reason}, so this pull request is no longer needed.`);
        await host.closePullRequest?.(token, repo, pr.number);
        await host.deleteBranch?.(token, repo, pr.head.ref);
        return 'closed';
      }
      await setReason(db, job, `not rebased: ${error.reason}`);
      return later(db, job, RECONCILE_INTERVAL_MS, 'unchanged');
    }
    if (isRegistryError(error) && error.kind !== 'unreachable') {
      await setReason(db, job, `not rebased: ${error.message}`);
      return later(db, job, RECONCILE_INTERVAL_MS, 'unchanged');
    }
    throw error;
  }
  let headSha: string | undefined;
  try {
    // The branch is moved only while its head is still this service's commit, read again once the new commit exists:
    // a person may have pushed while the change was being computed.
    headSha = await host.commitFiles?.(token, repo, {
      branch: pr.head.ref,
      parentSha: baseHead,
      message: change.message,
      files: inDirectory(job, change.files),
      force: true,
      expectedHead: pr.head.sha,
    });
  } catch (error) {
    if (!isCodeHostError(error, 'conflict')) throw error;
    // Moved meanwhile by this service itself (a look and a `@dependabot rebase` rebasing it at once): that rebase was
    // recorded by whichever made it; only someone else's commit is a person's push.
    const headNow = await host.getBranchHead?.(token, repo, pr.head.ref);
    if (headNow !== undefined && (await isCommitOfThisService(db, job.repo_id, headNow))) return 'rebased';
    await setReason(db, job, 'not rebased: a person pushed to its branch');
    return later(db, job, RECONCILE_INTERVAL_MS, 'unchanged');
  }
  await recordRebase(db, job.id, headSha ?? null, baseHead);
  return 'rebased';
}

/**
 * The checks of a pull request's head as a merge gate sees them: `failure` when a commit status or a check run failed,
 * `pending` while any runs, else `success`. A head without any yet is `pending` when the target branch's head has some
 * (the repository runs checks: they are still to come) and `success` when it has none (a repository without checks).
 */
async function checksOf(deps: JobExecutorDeps, repo: RepoRef, headSha: string, baseHead: string | undefined): Promise<ChecksState> {
  const head = await checksAt(deps, repo, headSha);
  if (head) return head;
  return baseHead && (await checksAt(deps, repo, baseHead)) ? 'pending' : 'success';
}

/**
 * The state of the commit statuses and check runs of commit `sha`, or undefined when it has neither (GitHub's combined
 * status says `pending` for a commit without statuses).
 */
async function checksAt(deps: JobExecutorDeps, repo: RepoRef, sha: string): Promise<ChecksState | undefined> {
  const { codeHost: host } = deps;
  const token = await deps.tokens.forOwner(repo.owner);
  const combined = await host.combinedStatus?.(token, repo, sha);
  const runs = await host.checkRuns?.(token, repo, sha);
  const states = [
    ...(combined && combined.statuses.length > 0 ? [combined.state] : []),
    ...(runs && runs.runs.length > 0 ? [runs.state] : []),
  ];
  if (states.length === 0) return undefined;
  if (states.includes('failure')) return 'failure';
  return states.includes('pending') ? 'pending' : 'success';
}

/** Looks at the job's pull request again in `ms` (unless it was made due during the look) and returns `outcome`. */
async function later(db: Db, job: PullRequestJobRow, ms: number, outcome: MaintenanceOutcome): Promise<MaintenanceOutcome> {
  // Unless something made it due while it was looked at (a settings change, a webhook): then it is looked at at once.
  await lookAgainIn(db, job.id, ms, job.maintain_at);
  return outcome;
}

/** Says why an open pull request stays as it is (the job stays `open`). */
function setReason(db: Db, job: PullRequestJobRow, reason: string): Promise<void> {
  return setOpenReason(db, job.id, reason);
}
