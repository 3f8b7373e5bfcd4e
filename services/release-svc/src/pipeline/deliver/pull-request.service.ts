import { randomUUID } from 'node:crypto';
import {
  type CodeHost,
  CodeHostError,
  type CodeHostPullRequest,
  type CodeHostTokens,
  isCodeHostError,
  type RepoRef,
  transientCodeHostError,
} from '@switchyard/code-host';
import { OPEN_PULL_REQUEST_LIMIT, type PullRequestJobStatus, type UpdateConfigSettings } from '@switchyard/contracts';
import { ecosystemFor } from '@switchyard/ecosystems';
import type { RegistryError } from '@switchyard/registries';
import { type Logger, startLoop } from '@switchyard/service-kit';
import type { Kysely } from 'kysely';
import type { ReleaseDatabase } from '../../db/schema.ts';
import {
  claimJob,
  findOtherOpenJobs,
  isCommitOfThisService,
  listQueuedJobs,
  listStalledJobs,
  lookAgainIn,
  type OpenedPullRequest,
  openPullRequestCount,
  pullRequestOfAnotherJob,
  recordBranchCommit,
  releaseClaim,
  renewClaim,
  setAutomerge,
  setOpenReason,
  setRunningReason,
  setStatus,
  takePullRequestSlot,
} from '../../jobs/job.repository.ts';
import type { PullRequestJobRow } from '../../jobs/job.table.ts';
import { findJobUpdates, findOpenSingleJobsOf } from '../../jobs/job-update.repository.ts';
import { findAccountSettings, findConfigLanguage, findScanTargets, settingsRevisions } from '../../read-model/read-model.repository.ts';
import type { KnownUpdateConfig } from '../../read-model/scan-target.model.ts';
import { labelPullRequest } from '../../repo-labels/repo-label.service.ts';
import type { WriteBudget } from '../../write-budget/write-budget.service.ts';
import { jobAutomergeAllowed } from '../decide/decide.policy.ts';
import { isRegistryError, type RegistryAccess } from '../resolve/registry-access.client.ts';
import { computeJobChange, fail, inDirectory, JobOutcome } from './change.service.ts';
import { groupBody } from './group-text.policy.ts';
import { applyPullRequestPeople } from './pull-request-people.service.ts';
import { commitPrefix, openPullRequestLimit, pullRequestLabels } from './pull-request-settings.policy.ts';
import { branchName, pullRequestBody } from './pull-request-text.policy.ts';

type Db = Kysely<ReleaseDatabase>;

/** What the job executor needs. */
export interface JobExecutorDeps {
  db: Db;
  codeHost: CodeHost;
  /** The service's own code-host tokens (its App's installation on the repo's account, or a bot's token): branches and pull requests are its. */
  tokens: CodeHostTokens;
  /** For the target version's lockfile details and the links of a pull request's body (source repository, changelog). */
  registries: RegistryAccess;
  logger: Logger;
  /** How long a claim on a job lasts without its heartbeat, ms (default {@link JOB_LEASE_MS}). */
  leaseMs?: number;
  /** The budget the adapter books content-creating requests in (none: not paced): a waiting job says so. */
  writes?: WriteBudget;
}

/**
 * The content-creating requests (GitHub's secondary limits) one pull request makes: its branch with its commit (one
 * GraphQL request: `createRef` and `createCommitOnBranch`) and the pull request itself.
 */
export const PULL_REQUEST_WRITES = 2;

/**
 * How long after its job was recorded the commit its update read (`base_sha`) is the base of its pull request, ms (an
 * hour): what was decided is what is proposed, from the files the run kept. A job delivered later (it waited for the
 * open pull-request limit, or behind a long backlog) is made on the target branch's head as it is then, so that its
 * pull request does not open behind its branch and need a rebase at once.
 */
export const BASE_FRESH_MS = 3_600_000;

/** How long an execution's claim on a job lasts without its heartbeat (every quarter of it), ms: see {@link executeJob}. */
export const JOB_LEASE_MS = 20_000;

/** Raised when another execution holds the job (a second delivery while the first runs): it is delivered again later. */
export class JobBusyError extends Error {
  constructor(jobId: number) {
    super(`pull-request job ${jobId} is being carried out by another execution`);
    this.name = 'JobBusyError';
  }
}

/** Raised when the code host is down or rate-limited, or a registry unreachable: the job is delivered again later. */
export class TransientJobError extends Error {
  constructor(cause: CodeHostError | RegistryError) {
    super(`${cause instanceof CodeHostError ? 'the code host' : 'the registry'} did not answer: ${cause.message}`, { cause });
    this.name = 'TransientJobError';
  }
}

/** How long an open pull request goes without a look when nothing calls for one (a missed webhook is caught then), ms. */
export const RECONCILE_INTERVAL_MS = 15 * 60_000;

/**
 * Says on the running job when its pull request will be opened when the installation's budget of content-creating
 * requests makes its writes wait (the adapter books each and waits: `WriteBudget`). A pull request is delayed, never
 * dropped; the job's outcome replaces the reason.
 */
async function sayWhenOpened(deps: JobExecutorDeps, job: PullRequestJobRow, owner: string): Promise<void> {
  const waitMs = (await deps.writes?.expectedWait(owner, PULL_REQUEST_WRITES)) ?? 0;
  if (waitMs <= 0) return;
  const at = new Date(Date.now() + waitMs).toISOString();
  await setRunningReason(deps.db, job.id, `waits for the code host's limit on content creation: to be opened at about ${at}`);
}

/** The job status of a pull request found on the code host. */
const statusOf = (pr: CodeHostPullRequest): PullRequestJobStatus => (pr.merged ? 'merged' : pr.state === 'open' ? 'open' : 'closed');

/**
 * Carries out one pull-request job with the service's own token, as Dependabot did:
 * 1. a job that is no longer `pending`, `queued-limit` or `running` is left alone (a redelivery);
 * 2. when the config is at its open pull-request limit (its own `open-pull-requests-limit`, else the account's
 *    {@link OPEN_PULL_REQUEST_LIMIT} when it limits them), the job waits as `queued-limit`;
 * 3. when its branch (`branchName`) already has a pull request (a job that was `running` when its worker stopped, or
 *    whose branch exists), the job takes it;
 * 4. else the manifests are taken at the commit the update read them at (the job's `base_sha`: kept in this process
 *    since the run, else read at that commit; a job recorded without it, or more than {@link BASE_FRESH_MS} ago: the
 *    target branch's head now), the
 *    dependency's requirement is rewritten (`Ecosystem.updateManifest`, keeping the file's style), committed in one
 *    commit on the job's branch made from that commit (one code-host request: `commitFiles` with `createBranch`), and
 *    the pull request opened with its title (with the config's commit-message prefix), body (and the commands
 *    a comment may give) and labels (the config's, else `dependencies` and the language), its reviewers, assignees and
 *    milestone (`applyPullRequestPeople`);
 * 5. the open pull requests of older jobs of the same dependency in the same config are closed with a comment naming the
 *    new one (`superseded`).
 * The directory's lockfiles are rewritten with the manifest (`Ecosystem.updateLockfiles`, with the target version as the
 * account's registries describe it); what cannot be done faithfully fails with `needs-resolution: <why>`, so no pull
 * request's lockfile ever disagrees with its manifest. So do a dependency no longer used, a version in use that moved,
 * and a requirement that cannot be rewritten (the reason says which).
 * One execution at a time: the job is claimed first (a token per execution, renewed every quarter of `leaseMs`), and a
 * delivery that finds another live execution holding it is put off (`JobBusyError`), so a redelivery while the first
 * delivery still runs (a broker connection lost and regained) never works on the same branch at once; the claim of a
 * worker that stopped runs out after `leaseMs`.
 * @throws TransientJobError when the code host is down or rate-limited, or a registry unreachable (the job stays
 *   `running`; delivered again); JobBusyError (delivered again)
 */
export async function executeJob(deps: JobExecutorDeps, jobId: number, lastAttempt: boolean): Promise<void> {
  const { db } = deps;
  const leaseMs = deps.leaseMs ?? JOB_LEASE_MS;
  const token = randomUUID();
  const job = await claimJob(db, jobId, token, leaseMs);
  if (job === undefined) return;
  if (job === 'busy') {
    // Another execution holds it and is alive (its heartbeat is fresh): it finishes the job. A last attempt leaves it so.
    if (lastAttempt) return;
    throw new JobBusyError(jobId);
  }
  const heartbeat = startLoop({
    name: "a pull-request job's claim heartbeat",
    context: { job: jobId },
    intervalMs: Math.max(250, Math.floor(leaseMs / 4)),
    immediately: false,
    logger: deps.logger,
    round: () => renewClaim(db, jobId, token),
  });
  try {
    await executeClaimed(deps, job, lastAttempt);
  } finally {
    await heartbeat.stop();
    await releaseClaim(db, jobId, token);
  }
}

/** The body of {@link executeJob}, once the job is claimed. */
async function executeClaimed(deps: JobExecutorDeps, job: PullRequestJobRow, lastAttempt: boolean): Promise<void> {
  const { db } = deps;
  try {
    const settingsRead = await settingsRevisions(db, job.update_config_id, job.account_id);
    const current = await withCurrentAutomerge(db, job);
    const outcome = await openPullRequestOf(deps, current);
    // An automerge pull request is looked at at once (a repository without checks merges it then); another one only
    // when a webhook or the reconciliation interval calls for it.
    await setStatus(db, job.id, outcome.status, outcome.reason, outcome.pullRequest, current.automerge ? 0 : RECONCILE_INTERVAL_MS);
    // Settings that changed while the pull request was being opened (a new target branch, automerge rule, rebasing)
    // found no open job to make due: the new pull request is looked at at once instead.
    const settingsNow = await settingsRevisions(db, job.update_config_id, job.account_id);
    if (outcome.status === 'open' && (settingsNow.config !== settingsRead.config || settingsNow.account !== settingsRead.account)) {
      await lookAgainIn(db, job.id, 0);
    }
  } catch (error) {
    if (error instanceof JobOutcome) {
      await setStatus(
        db,
        job.id,
        error.status,
        error.reason,
        undefined,
        0,
        error.waitsFor === undefined ? {} : { waitsFor: error.waitsFor },
      );
      return;
    }
    if (isRegistryError(error)) {
      if (error.kind === 'unreachable' && !lastAttempt) throw new TransientJobError(error);
      await setStatus(
        db,
        job.id,
        'failed',
        `the registry ${error.kind === 'auth_failed' ? 'refused the credentials' : 'did not answer'}: ${error.message}`,
      );
      return;
    }
    const unavailable = transientCodeHostError(error);
    if (unavailable) {
      if (lastAttempt) {
        await setStatus(db, job.id, 'failed', `the code host did not answer: ${unavailable.message}`);
        return;
      }
      throw new TransientJobError(unavailable);
    }
    if (error instanceof CodeHostError) {
      await setStatus(db, job.id, 'failed', `the code host refused: ${error.message}`);
      return;
    }
    throw error;
  }
}

/**
 * The job with `automerge` as its config's automerge rule says now (the rule may have changed since the job was
 * recorded: config-svc's events reach the read model in their own time), kept on the job when it changed, so its pull
 * request's body and its first look follow the rule in force when it is opened.
 */
async function withCurrentAutomerge(db: Db, job: PullRequestJobRow): Promise<PullRequestJobRow> {
  const config = (await findScanTargets(db, [job.update_config_id])).get(job.update_config_id)?.config;
  if (!config) return job;
  const automerge = await automergeNow(db, config, job);
  if (automerge === job.automerge) return job;
  await setAutomerge(db, job.id, automerge);
  return { ...job, automerge };
}

/**
 * Whether the config's automerge rules allow the job's update now (`jobAutomergeAllowed`; a group's job with its
 * updates, read from `pull_request_job_update`).
 */
export async function automergeNow(
  db: Db,
  config: Pick<KnownUpdateConfig, 'automergeRuleRuntimeDeps' | 'automergeRuleDevelopmentDeps'>,
  job: PullRequestJobRow,
): Promise<boolean> {
  const updates = job.group_name === null ? undefined : ((await findJobUpdates(db, [job.id])).get(job.id) ?? []);
  return jobAutomergeAllowed(config, job, updates);
}

/** Steps 2 to 5 of {@link executeJob}. @throws JobOutcome for a job that ends without its own pull request; CodeHostError */
async function openPullRequestOf(
  deps: JobExecutorDeps,
  job: PullRequestJobRow,
): Promise<{ status: PullRequestJobStatus; reason: string | null; pullRequest: OpenedPullRequest }> {
  const { db, codeHost: host } = deps;
  if (!host.getBranchHead || !host.commitFiles || !host.openPullRequest || !host.findPullRequest) {
    throw fail('the code host cannot make branches and pull requests');
  }
  const target = (await findScanTargets(db, [job.update_config_id])).get(job.update_config_id);
  if (!target || target.config.deleted || !target.repo) throw fail('the update config was deleted');
  const branchNow = target.config.targetBranch ?? target.repo.defaultBranch;
  if (job.target_branch !== branchNow) throw new JobOutcome('closed', `closed: the config now targets ${branchNow}`);
  const [owner = '', name = ''] = target.repo.fullName.split('/');
  const repo: RepoRef = { owner, name };
  const branch = branchName(job, target.repo.defaultBranch);
  const token = await deps.tokens.forOwner(owner);

  // A job that was `running` may have made its branch and pull request before its worker stopped: take them (not a
  // pull request another job records, whose branch is still there).
  const taken = async () => {
    const found = await host.findPullRequest?.(token, repo, { head: branch, state: 'all' });
    const existing = found && !(await pullRequestOfAnotherJob(db, job, found.number)) ? found : undefined;
    return existing
      ? {
          status: statusOf(existing),
          reason: null,
          pullRequest: {
            branch,
            number: existing.number,
            nodeId: existing.nodeId,
            url: existing.htmlUrl,
            headSha: existing.head.sha,
            baseSha: existing.base.sha,
          },
        }
      : undefined;
  };
  if (job.status === 'running') {
    const existing = await taken();
    if (existing) return existing;
  }
  // A newer version's pull request of the dependency is open already (this job's message came late: a restart, a
  // redelivery): it is the dependency's one pull request, and this older one is not opened.
  const others = await findOtherOpenJobs(db, job);
  const newer = newerAmong(job, others);
  if (newer) throw new JobOutcome('superseded', supersededReason(newer));
  const older = others.filter((other) => isOlder(orderOf(job), other, job));
  await waitForPersonsPullRequest(deps, job, repo, older);
  // A group's pull request takes the place of the single-dependency pull requests of its updates, too.
  const singles =
    job.group_name === null
      ? []
      : await findOpenSingleJobsOf(
          db,
          job.update_config_id,
          ((await findJobUpdates(db, [job.id])).get(job.id) ?? []).map((u) => u.dependency_name),
        );
  await limitOpenPullRequests(db, job, older.length + singles.length, target.config.settings);

  // The change is made on the commit the update read (`base_sha`, recorded with the job), with the files it read
  // (kept in this process; read at that commit otherwise): what was decided is what is proposed. A target branch that
  // moved since is the maintenance's to follow (it rebases). A job recorded without it, or longer ago than
  // BASE_FRESH_MS: the branch's head now.
  const base: { sha: string; treeSha?: string | undefined } | undefined =
    job.base_sha !== null && Date.now() - job.created_at.getTime() < BASE_FRESH_MS
      ? { sha: job.base_sha }
      : host.getBranchCommit
        ? await host.getBranchCommit(token, repo, job.target_branch)
        : await host.getBranchHead(token, repo, job.target_branch).then((sha) => (sha ? { sha } : undefined));
  if (!base) throw fail(`the target branch ${job.target_branch} does not exist`);
  const baseHead = base.sha;
  const settings = target.config.settings;
  const computed = await computeJobChange({ ...deps, token }, job, target.repo.fullName, baseHead, commitPrefix(settings, job));
  const title = computed.message;
  const change = {
    branch,
    parentSha: baseHead,
    ...(base.treeSha ? { parentTreeSha: base.treeSha } : {}),
    message: title,
    files: inDirectory(job, computed.files),
  };
  await sayWhenOpened(deps, job, owner);
  let headSha: string;
  try {
    // The branch is made with its commit in one request (GitHub: GraphQL's createRef and createCommitOnBranch in one
    // document), never left at the base alone.
    headSha = await host.commitFiles(token, repo, { ...change, createBranch: true });
  } catch (error) {
    if (!isCodeHostError(error, 'conflict')) throw error;
    // The branch exists: a job delivered again (its pull request is taken), or a branch an earlier attempt (or another
    // job's closed pull request) left behind, whose head is a commit this service recorded: it gets this commit. Anyone
    // else's is left alone.
    const existing = await taken();
    if (existing) return existing;
    const head = await host.getBranchHead(token, repo, branch);
    if (head !== undefined && head !== job.head_sha && !(await isCommitOfThisService(db, job.repo_id, head))) {
      throw fail(
        `the branch ${branch} exists without a pull request of this job, and its head ${head.slice(0, 7)} is not a commit this service made: it is left alone`,
      );
    }
    headSha = await host.commitFiles(token, repo, { ...change, force: true });
  }
  await recordBranchCommit(db, job.id, branch, headSha);
  let opened: CodeHostPullRequest;
  try {
    const rebases =
      settings?.rebaseStrategy !== 'disabled' && (await findAccountSettings(db, job.account_id))?.automaticallyRebasePrs !== false;
    const group = computed.group;
    const body = group
      ? groupBody(
          job,
          await Promise.all(
            group.applied.map(async (update) => ({
              ...update,
              links: await linksOf(deps, { ...job, dependency_name: update.dependency_name }),
            })),
          ),
          { rebases, left: group.left },
        )
      : pullRequestBody(job, await linksOf(deps, job), { rebases });
    opened = await host.openPullRequest(token, repo, { head: branch, base: job.target_branch, title, body });
  } catch (error) {
    // GitHub's 422 "A pull request already exists for <owner>:<branch>": one was opened meanwhile; it is the job's.
    if (!isCodeHostError(error, 'conflict')) throw error;
    const existing = await taken();
    if (!existing) throw error;
    return existing;
  }
  const language = await findConfigLanguage(db, job.update_config_id);
  // Labels say what the pull request is; one that cannot be put on does not undo the pull request.
  const labels = pullRequestLabels(settings, language);
  await labelPullRequest(deps, token, { repoId: job.repo_id, repo }, opened.number, labels).catch((error: unknown) => {
    if (transientCodeHostError(error) || !(error instanceof CodeHostError)) throw error;
    deps.logger.warn({ err: error, job: job.id }, 'the pull request could not be labelled');
  });
  await applyPullRequestPeople({ ...deps, token }, repo, opened.number, settings);
  await supersedeOlder(deps, job, repo, opened, computed.group?.applied.map((update) => update.dependency_name) ?? []);
  const pullRequest = { branch, number: opened.number, nodeId: opened.nodeId, url: opened.htmlUrl, baseSha: baseHead, headSha };
  // A newer version's pull request opened meanwhile (its own superseding did not see this one, not open yet): this one
  // gives way, as it would have had it opened first.
  const overtaken = await newerOpenJob(db, job);
  if (overtaken) {
    await giveWay(deps, repo, { number: opened.number, branch }, overtaken);
    return { status: 'superseded', reason: supersededReason(overtaken), pullRequest };
  }
  return { status: 'open', reason: null, pullRequest };
}

/** A newer version's job of the same dependency in the same config whose pull request is open, if any. */
export async function newerOpenJob(
  db: Db,
  job: Pick<PullRequestJobRow, 'id' | 'update_config_id' | 'dependency_name' | 'package_manager' | 'target_version' | 'group_name'>,
): Promise<Pick<PullRequestJobRow, 'id' | 'pull_request_number' | 'target_version'> | undefined> {
  return newerAmong(job, await findOtherOpenJobs(db, job));
}

/** The first of `others` (open jobs of the job's dependency, `findOtherOpenJobs`) whose version is newer than the job's. */
function newerAmong<T extends Pick<PullRequestJobRow, 'id' | 'target_version'>>(
  job: Pick<PullRequestJobRow, 'id' | 'package_manager' | 'target_version' | 'group_name'>,
  others: readonly T[],
): T | undefined {
  return others.find((other) => isOlder(orderOf(job), job, other));
}

/** The version order a job's versions follow: its package manager's, none for a group's job (its versions are digests). */
const orderOf = (job: Pick<PullRequestJobRow, 'package_manager' | 'group_name'>): PullRequestJobRow['package_manager'] | null =>
  job.group_name === null ? job.package_manager : null;

/** The `status-reason` of a job whose update a newer version's open pull request replaces. */
export const supersededReason = (newer: Pick<PullRequestJobRow, 'pull_request_number' | 'target_version'>): string =>
  `superseded by #${newer.pull_request_number} (${newer.target_version}), opened before this one`;

/**
 * Closes an older version's pull request that a newer one replaces, with a comment naming the newer one, and deletes
 * its branch (the caller marks the job `superseded` first, or returns that status, so its close's webhook is not taken
 * for a person's).
 */
export async function giveWay(
  deps: JobExecutorDeps,
  repo: RepoRef,
  pull: { number: number; branch: string | null },
  newer: Pick<PullRequestJobRow, 'pull_request_number'>,
): Promise<void> {
  const { codeHost: host } = deps;
  const token = await deps.tokens.forOwner(repo.owner);
  await host.comment?.(token, repo, pull.number, `Superseded by #${newer.pull_request_number}.`);
  await host.closePullRequest?.(token, repo, pull.number);
  if (pull.branch) await host.deleteBranch?.(token, repo, pull.branch);
}

/**
 * A dependency has one pull request at a time: an older version's open pull request (one of `olderOpen`, the job's
 * older versions whose pull request is open) that someone else pushed to (its head is not this service's commit) is
 * theirs now, so it is neither superseded nor joined by a second one; the newer job waits (`queued-limit`, naming the
 * older job) until the code host says that pull request was merged or closed (its webhook, or the older job's
 * reconciliation), and is then taken up in its place ({@link releaseQueuedJobs}).
 * @throws JobOutcome `queued-limit` (with `waitsFor`) while such a pull request is open
 */
async function waitForPersonsPullRequest(
  deps: JobExecutorDeps,
  job: PullRequestJobRow,
  repo: RepoRef,
  olderOpen: readonly Pick<PullRequestJobRow, 'id' | 'pull_request_number' | 'target_version' | 'head_sha'>[],
): Promise<void> {
  const { codeHost: host } = deps;
  const token = await deps.tokens.forOwner(repo.owner);
  for (const older of olderOpen) {
    const pull = older.pull_request_number === null ? undefined : await host.getPullRequest?.(token, repo, older.pull_request_number);
    if (pull?.state === 'open' && pull.head.sha !== older.head_sha) {
      throw new JobOutcome(
        'queued-limit',
        `waits for pull request #${pull.number} (${job.dependency_name} ${older.target_version}), which has commits by someone else: it stays the dependency's one pull request until it is merged or closed`,
        older.id,
      );
    }
  }
}

/**
 * The open pull-request limit of the job's config (`openPullRequestLimit`: the config's own `open-pull-requests-limit`,
 * else the account's `limit-open-pull-requests`, {@link OPEN_PULL_REQUEST_LIMIT}), not counting the `replaced` ones
 * this job's pull request will supersede (older versions of the same dependency): a newer version takes their place
 * rather than waiting behind them (for a group's job, also the single-dependency ones of its updates). The count and the job's `running` mark are one step under a lock on the config
 * (`takePullRequestSlot`), so jobs carried out at once never both take the last slot: the job is `running` after it.
 * @throws JobOutcome `queued-limit` when the config is at its limit
 */
async function limitOpenPullRequests(
  db: Db,
  job: PullRequestJobRow,
  replaced: number,
  settings: UpdateConfigSettings | undefined,
): Promise<void> {
  const limit = await limitOf(db, job.account_id, settings, job.security_fix);
  const { open, taken } = await takePullRequestSlot(db, job, (count) => limit === null || count < limit || count - replaced < limit);
  if (!taken) {
    const whose = settings?.openPullRequestsLimit == null ? "the account's limit" : "the config's open-pull-requests-limit";
    throw new JobOutcome('queued-limit', `the config has ${open} open pull requests, ${whose} is ${limit}`);
  }
}

/** The open pull-request limit of a config of account `accountId`, or null for none (see {@link openPullRequestLimit}). */
async function limitOf(
  db: Db,
  accountId: number,
  settings: UpdateConfigSettings | undefined,
  securityFix: boolean,
): Promise<number | null> {
  const account = await findAccountSettings(db, accountId);
  return openPullRequestLimit(settings, account?.limitOpenPullRequests ?? true, securityFix);
}

/**
 * Whether job `a`'s target version is older than job `b`'s (two jobs of one dependency and package manager): by the
 * ecosystem's version order; versions it cannot order (a submodule's commits, whose scheme is `unordered`, versions
 * it does not recognise, a group's digests: `packageManager` null) by the jobs' order, a later job having been made for a later commit. Never true both ways, so of two open pull requests exactly one
 * gives way.
 */
export function isOlder(
  packageManager: PullRequestJobRow['package_manager'] | null,
  a: Pick<PullRequestJobRow, 'id' | 'target_version'>,
  b: Pick<PullRequestJobRow, 'id' | 'target_version'>,
): boolean {
  if (a.target_version === b.target_version) return false;
  const scheme = packageManager === null ? undefined : ecosystemFor(packageManager)?.versions;
  if (scheme && !scheme.unordered && scheme.isValid(a.target_version) && scheme.isValid(b.target_version)) {
    const order = scheme.compare(a.target_version, b.target_version);
    if (order !== 0) return order < 0;
  }
  return a.id < b.id;
}

/** The source and changelog links of the dependency from its registry, or none when the registry cannot say. */
async function linksOf(deps: JobExecutorDeps, job: PullRequestJobRow): Promise<{ sourceUrl: string | null; changelogUrl: string | null }> {
  try {
    const found = await deps.registries.fetch(job.account_id, job.package_manager, job.dependency_name);
    if (found && 'package' in found) return { sourceUrl: found.package.sourceUrl, changelogUrl: found.package.changelogUrl };
  } catch (error) {
    deps.logger.warn({ err: error, job: job.id }, 'the registry gave no links for the pull request body');
  }
  return { sourceUrl: null, changelogUrl: null };
}

/**
 * Closes the open pull requests of older jobs of the same dependency in the same config, saying which replaced them, and
 * deletes their branches. Each job is marked `superseded` before its pull request is closed, so the code host's webhook
 * of that close finds it so (a pull request closed while its job is `open` was closed by a person). A pull request whose
 * branch has a commit that is not this service's (someone pushed to it) is left open and its job says why. A group's
 * pull request also replaces the open pull requests of one dependency each of the `grouped` dependencies it updates.
 */
async function supersedeOlder(
  deps: JobExecutorDeps,
  job: PullRequestJobRow,
  repo: RepoRef,
  opened: CodeHostPullRequest,
  grouped: readonly string[],
): Promise<void> {
  const { db, codeHost: host } = deps;
  const token = await deps.tokens.forOwner(repo.owner);
  const replace = async (row: Pick<PullRequestJobRow, 'id' | 'pull_request_number' | 'branch' | 'head_sha'>, reason: string) => {
    const number = row.pull_request_number as number;
    const current = await host.getPullRequest?.(token, repo, number);
    if (current && current.head.sha !== row.head_sha) {
      await setOpenReason(db, row.id, `not superseded by #${opened.number}: its branch has commits by someone else`);
      return;
    }
    await setStatus(db, row.id, 'superseded', reason);
    await giveWay(deps, repo, { number, branch: row.branch }, { pull_request_number: opened.number });
  };
  for (const row of (await findOtherOpenJobs(db, job)).filter((o) => isOlder(orderOf(job), o, job))) {
    const what = job.group_name === null ? `${job.dependency_name} ${job.target_version}` : `the ${job.group_name} group`;
    await replace(row, `superseded by #${opened.number} (${what})`);
  }
  // A group's pull request replaces the pull requests of one dependency each that it updates too.
  for (const row of await findOpenSingleJobsOf(db, job.update_config_id, grouped)) {
    await replace(row, `superseded by #${opened.number} (the ${job.group_name} group, which updates ${row.dependency_name} too)`);
  }
}

/**
 * Takes up jobs waiting as `queued-limit` whose config has fewer than {@link OPEN_PULL_REQUEST_LIMIT} open pull requests
 * now (one was merged or closed), oldest first, as many as fit; a job that waited for an older version's pull request
 * someone else pushed to goes first once that one is merged or closed (the place is its dependency's), and is not
 * looked at while it is open. Each worker runs this every `SCHEDULER_INTERVAL_MS`. A job taken by two workers at once is
 * carried out by one of them (its claim).
 * @returns how many jobs were taken up
 */
export async function releaseQueuedJobs(deps: JobExecutorDeps): Promise<number> {
  const { db } = deps;
  const waiting = await listQueuedJobs(db, 500);
  let taken = 0;
  const room = new Map<number, number>();
  for (const job of waiting) {
    if (!room.has(job.update_config_id)) {
      const config = (await findScanTargets(db, [job.update_config_id])).get(job.update_config_id)?.config;
      const limit = config ? await limitOf(db, config.accountId, config.settings, false) : OPEN_PULL_REQUEST_LIMIT;
      room.set(
        job.update_config_id,
        limit === null ? Number.POSITIVE_INFINITY : limit - (await openPullRequestCount(db, job.update_config_id)),
      );
    }
    const left = room.get(job.update_config_id) ?? 0;
    if (left <= 0 && !job.inPlaceOf) continue;
    room.set(job.update_config_id, left - 1);
    await executeJob(deps, job.id, false).catch((error: unknown) => {
      deps.logger.warn({ err: error, job: job.id }, 'a queued pull-request job could not be taken up; the next round tries again');
    });
    taken++;
  }
  return taken;
}

/** How long a job may stay `pending` or `running` untouched before {@link resumeStalledJobs} takes it up, ms. */
export const STALLED_AFTER_MS = 10 * 60_000;

/**
 * Takes up jobs left `pending` or `running` with no live claim for {@link STALLED_AFTER_MS}, or since before this worker
 * started (`startedAt`): their message was lost (parked after its last attempt, dropped by a queue's delivery limit, or
 * held by the one-process launcher's in-process bus when it stopped), so no delivery will come. A job whose message is
 * still queued (RabbitMQ keeps it over a restart) is carried out once all the same: its delivery finds it done, or held
 * by this execution's claim. Oldest first, at most `limit`; each worker runs this every `SCHEDULER_INTERVAL_MS`.
 * @returns how many jobs were taken up
 */
export async function resumeStalledJobs(deps: JobExecutorDeps, startedAt: Date, limit = 100): Promise<number> {
  const { db } = deps;
  const leaseMs = deps.leaseMs ?? JOB_LEASE_MS;
  const stalled = await listStalledJobs(db, { afterMs: STALLED_AFTER_MS, startedAt }, leaseMs, limit);
  for (const id of stalled) {
    await executeJob(deps, id, false).catch((error: unknown) => {
      deps.logger.warn({ err: error, job: id }, 'a stalled pull-request job could not be taken up; the next round tries again');
    });
  }
  return stalled.length;
}
