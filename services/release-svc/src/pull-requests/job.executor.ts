import { randomUUID } from 'node:crypto';
import {
  type CodeHost,
  CodeHostError,
  type CodeHostPullRequest,
  type GitlinkContent,
  isCodeHostError,
  type RepoRef,
  transientCodeHostError,
} from '@switchyard/code-host';
import { OPEN_PULL_REQUEST_LIMIT, type PullRequestJobStatus } from '@switchyard/contracts';
import { type DependencyUse, type Ecosystem, ecosystemFor, filesMatching, ManifestParseError, readGitlink } from '@switchyard/ecosystems';
import type { RegistryError } from '@switchyard/registries';
import type { Logger } from '@switchyard/service-kit';
import { type ExpressionBuilder, type Kysely, sql } from 'kysely';
import type { PullRequestJobRow, ReleaseDatabase } from '../db/schema.ts';
import { findScanTargets } from '../read-model/read-model.repository.ts';
import { readManifestFiles } from '../scan/manifest-files.ts';
import { isRegistryError, type RegistryAccess } from '../update-runs/registry-access.ts';
import { branchName, pullRequestBody, pullRequestTitle } from './pull-request-text.ts';

type Db = Kysely<ReleaseDatabase>;

/** What the job executor needs. */
export interface JobExecutorDeps {
  db: Db;
  codeHost: CodeHost;
  /** The service's own code-host token (a GitHub App installation or bot token): branches and pull requests are its. */
  token: string;
  /** For the target version's lockfile details and the links of a pull request's body (source repository, changelog). */
  registries: RegistryAccess;
  logger: Logger;
  /** How long a claim on a job lasts without its heartbeat, ms (default {@link JOB_LEASE_MS}). */
  leaseMs?: number;
}

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

/** Why a job ended without a pull request of its own (or a rebase did not happen), and the status that says so. */
export class JobOutcome extends Error {
  readonly status: PullRequestJobStatus;
  readonly reason: string;

  constructor(status: PullRequestJobStatus, reason: string) {
    super(reason);
    this.status = status;
    this.reason = reason;
  }
}

const fail = (reason: string) => new JobOutcome('failed', reason);

/** `now()` moved by `ms` milliseconds (negative: into the past), as the database's clock says. */
export const fromNow = (ms: number) => sql<Date>`now() + make_interval(secs => ${ms / 1000})`;

/** Jobs no live execution holds: no claim, or one whose heartbeat is older than `leaseMs`. */
const unclaimed = (leaseMs: number) => (eb: ExpressionBuilder<ReleaseDatabase, 'pull_request_job'>) =>
  eb.or([eb('claimed_at', 'is', null), eb('claimed_at', '<', fromNow(-leaseMs))]);

/** A job's pull request: its branch, number, web URL and the commit this service made on the branch (when it made one). */
interface OpenedPullRequest {
  branch: string;
  number: number;
  url: string;
  headSha?: string;
  /** The target branch's commit the branch's commit was made on. */
  baseSha?: string;
}

/** How long an open pull request goes without a look when nothing calls for one (a missed webhook is caught then), ms. */
export const RECONCILE_INTERVAL_MS = 15 * 60_000;

/**
 * Moves a job to `status` (with `reason` and its pull request when given); an open one is looked at again in
 * `lookInMs` (default at once: see `maintainPullRequest`).
 */
export async function setStatus(
  db: Db,
  id: number,
  status: PullRequestJobStatus,
  reason: string | null,
  pullRequest?: OpenedPullRequest,
  lookInMs = 0,
): Promise<void> {
  await db
    .updateTable('pull_request_job')
    .set({
      status,
      status_reason: reason,
      status_changed_at: sql`now()`,
      maintain_at: status === 'open' ? fromNow(lookInMs) : null,
      ...(pullRequest
        ? {
            branch: pullRequest.branch,
            pull_request_number: pullRequest.number,
            pull_request_url: pullRequest.url,
            ...(pullRequest.headSha ? { head_sha: pullRequest.headSha } : {}),
            ...(pullRequest.baseSha ? { base_sha: pullRequest.baseSha } : {}),
          }
        : {}),
    })
    .where('id', '=', id)
    .execute();
}

/** The job status of a pull request found on the code host. */
const statusOf = (pr: CodeHostPullRequest): PullRequestJobStatus => (pr.merged ? 'merged' : pr.state === 'open' ? 'open' : 'closed');

/**
 * Carries out one pull-request job with the service's own token, as Dependabot did:
 * 1. a job that is no longer `pending`, `queued-limit` or `running` is left alone (a redelivery);
 * 2. when the account limits open pull requests and the config has {@link OPEN_PULL_REQUEST_LIMIT} open already, the job
 *    waits as `queued-limit`;
 * 3. when its branch (`branchName`) already has a pull request (a job that was `running` when its worker stopped, or
 *    whose branch exists), the job takes it;
 * 4. else the manifests are read at the target branch's head, the dependency's requirement is rewritten
 *    (`Ecosystem.updateManifest`, keeping the file's style), committed in one commit on the job's branch (made from that
 *    head), and the pull request opened with its title, body and the `dependencies` and language labels;
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
  const heartbeat = setInterval(
    () => {
      db.updateTable('pull_request_job')
        .set({ claimed_at: sql`now()` })
        .where('id', '=', jobId)
        .where('claimed_by', '=', token)
        .execute()
        .catch((error: unknown) => deps.logger.warn({ err: error, job: jobId }, "a pull-request job's claim could not be renewed"));
    },
    Math.max(250, Math.floor(leaseMs / 4)),
  );
  try {
    await executeClaimed(deps, job, lastAttempt);
  } finally {
    clearInterval(heartbeat);
    await db
      .updateTable('pull_request_job')
      .set({ claimed_by: null, claimed_at: null })
      .where('id', '=', jobId)
      .where('claimed_by', '=', token)
      .execute();
  }
}

/**
 * Claims job `jobId` for one execution (`token`): a job that is `pending`, `queued-limit` or `running` and that no other
 * execution holds (no claim, or one whose heartbeat is older than `leaseMs`: its worker stopped).
 * @returns the job; `busy` when another execution holds it; undefined when there is nothing to do (no such job, or it
 *   is past execution)
 */
async function claimJob(db: Db, jobId: number, token: string, leaseMs: number): Promise<PullRequestJobRow | 'busy' | undefined> {
  const claimed = await db
    .updateTable('pull_request_job')
    .set({ claimed_by: token, claimed_at: sql`now()` })
    .where('id', '=', jobId)
    .where('status', 'in', EXECUTABLE)
    .where(unclaimed(leaseMs))
    .returningAll()
    .executeTakeFirst();
  if (claimed) return claimed;
  const current = await db.selectFrom('pull_request_job').select('status').where('id', '=', jobId).executeTakeFirst();
  return current && EXECUTABLE.includes(current.status) ? 'busy' : undefined;
}

/** The statuses of a job still to carry out. */
const EXECUTABLE: PullRequestJobStatus[] = ['pending', 'queued-limit', 'running'];

/** The body of {@link executeJob}, once the job is claimed. */
async function executeClaimed(deps: JobExecutorDeps, job: PullRequestJobRow, lastAttempt: boolean): Promise<void> {
  const { db } = deps;
  try {
    const outcome = await openPullRequestOf(deps, job);
    // An automerge pull request is looked at at once (a repository without checks merges it then); another one only
    // when a webhook or the reconciliation interval calls for it.
    await setStatus(db, job.id, outcome.status, outcome.reason, outcome.pullRequest, job.automerge ? 0 : RECONCILE_INTERVAL_MS);
  } catch (error) {
    if (error instanceof JobOutcome) {
      await setStatus(db, job.id, error.status, error.reason);
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

/** Steps 2 to 5 of {@link executeJob}. @throws JobOutcome for a job that ends without its own pull request; CodeHostError */
async function openPullRequestOf(
  deps: JobExecutorDeps,
  job: PullRequestJobRow,
): Promise<{ status: PullRequestJobStatus; reason: string | null; pullRequest: OpenedPullRequest }> {
  const { db, codeHost: host, token } = deps;
  if (!host.getBranchHead || !host.commitFiles || !host.openPullRequest || !host.findPullRequest) {
    throw fail('the code host cannot make branches and pull requests');
  }
  const target = (await findScanTargets(db, [job.update_config_id])).get(job.update_config_id);
  if (!target || target.config.deleted || !target.repo) throw fail('the update config was deleted');
  const [owner = '', name = ''] = target.repo.fullName.split('/');
  const repo: RepoRef = { owner, name };
  const branch = branchName(job);

  // A job that was `running` may have made its branch and pull request before its worker stopped: take them.
  const taken = async () => {
    const existing = await host.findPullRequest?.(token, repo, { head: branch, state: 'all' });
    return existing
      ? {
          status: statusOf(existing),
          reason: null,
          pullRequest: { branch, number: existing.number, url: existing.htmlUrl, headSha: existing.head.sha, baseSha: existing.base.sha },
        }
      : undefined;
  };
  if (job.status === 'running') {
    const existing = await taken();
    if (existing) return existing;
  }
  await limitOpenPullRequests(db, job);
  await db.updateTable('pull_request_job').set({ status: 'running', status_changed_at: sql`now()` }).where('id', '=', job.id).execute();

  const base = host.getBranchCommit
    ? await host.getBranchCommit(token, repo, job.target_branch)
    : await host.getBranchHead(token, repo, job.target_branch).then((sha) => sha && { sha, treeSha: undefined });
  if (!base) throw fail(`the target branch ${job.target_branch} does not exist`);
  const baseHead = base.sha;
  const files = await computeChange(deps, job, target.repo.fullName, baseHead);

  const title = pullRequestTitle(job);
  const change = {
    branch,
    parentSha: baseHead,
    ...(base.treeSha ? { parentTreeSha: base.treeSha } : {}),
    message: title,
    files: inDirectory(job, files),
  };
  let headSha: string;
  try {
    // The branch is made at the new commit: one request, no intermediate branch at the base.
    headSha = await host.commitFiles(token, repo, { ...change, createBranch: true });
  } catch (error) {
    if (!isCodeHostError(error, 'conflict')) throw error;
    // The branch exists: a job delivered again (its pull request is taken), or a branch an earlier attempt left
    // without one (it gets this commit).
    const existing = await taken();
    if (existing) return existing;
    headSha = await host.commitFiles(token, repo, { ...change, force: true });
  }
  const links = await linksOf(deps, job);
  let opened: CodeHostPullRequest;
  try {
    opened = await host.openPullRequest(token, repo, { head: branch, base: job.target_branch, title, body: pullRequestBody(job, links) });
  } catch (error) {
    // GitHub's 422 "A pull request already exists for <owner>:<branch>": one was opened meanwhile; it is the job's.
    if (!isCodeHostError(error, 'conflict')) throw error;
    const existing = await taken();
    if (!existing) throw error;
    return existing;
  }
  const language = await languageOf(db, job.update_config_id);
  // Labels say what the pull request is; one that cannot be put on does not undo the pull request.
  await host
    .addLabels?.(token, repo, opened.number, [
      { name: 'dependencies', color: '0366d6', description: 'Pull requests that update a dependency file' },
      ...(language ? [language] : []),
    ])
    .catch((error: unknown) => {
      if (transientCodeHostError(error) || !(error instanceof CodeHostError)) throw error;
      deps.logger.warn({ err: error, job: job.id }, 'the pull request could not be labelled');
    });
  await supersedeOlder(deps, job, repo, opened);
  return {
    status: 'open',
    reason: null,
    pullRequest: { branch, number: opened.number, url: opened.htmlUrl, baseSha: baseHead, headSha },
  };
}

/** A job's change: paths in the job's directory → new text, or the commit a gitlink (submodule) moves to. */
export type ChangedFiles = Record<string, string | GitlinkContent>;

/** `files` (paths in the job's directory) as paths from the repository's root. */
export function inDirectory(job: Pick<PullRequestJobRow, 'directory'>, files: ChangedFiles): ChangedFiles {
  const base = job.directory === '/' ? '' : `${job.directory.replace(/^\/+|\/+$/g, '')}/`;
  return Object.fromEntries(Object.entries(files).map(([file, content]) => [`${base}${file}`, content]));
}

/**
 * The files an ecosystem changed, with each gitlink it read and moved (its text `Subproject commit <sha>\n`, see
 * `gitlinkText`) as the commit it now points at, so that it is committed as a gitlink rather than as a file.
 */
function withGitlinks(ecosystem: Ecosystem, read: Readonly<Record<string, string>>, changed: Record<string, string>): ChangedFiles {
  if (!ecosystem.files.gitlinks) return changed;
  return Object.fromEntries(
    Object.entries(changed).map(([path, text]) => {
      const sha = read[path] === undefined ? undefined : readGitlink(read[path]) && readGitlink(text);
      return [path, sha ? { gitlink: sha } : text];
    }),
  );
}

/**
 * The files of the job's change at commit `baseHead` of the target branch (paths in the job's directory → new text):
 * the manifests read there with the dependency's requirement rewritten (`Ecosystem.updateManifest`, keeping the file's
 * style) and the lockfiles updated to agree ({@link updateLockfiles}).
 * @throws JobOutcome `failed` (the reason says why: files missing or unparsable, the dependency gone, a requirement that
 *   cannot be rewritten, `needs-resolution`, nothing to change) or `closed` when the version in use moved on the branch;
 *   CodeHostError; RegistryError
 */
export async function computeChange(
  deps: JobExecutorDeps,
  job: PullRequestJobRow,
  repoFullName: string,
  baseHead: string,
): Promise<ChangedFiles> {
  const ecosystem = ecosystemFor(job.package_manager);
  if (!ecosystem) throw fail(`package manager ${job.package_manager} is not supported yet`);
  const read = await readManifestFiles(deps.codeHost, deps.token, repoFullName, job.directory, baseHead, ecosystem);
  if ('missing' in read) throw fail(read.missing);
  if ('tooLarge' in read) throw fail(read.tooLarge);
  try {
    const use = ecosystem.findDependency(read.files, job.dependency_name);
    if (!use) throw fail(`${job.dependency_name} is no longer a dependency in ${job.directory}`);
    if (use.version !== null && use.version !== job.version_in_use) {
      throw new JobOutcome('closed', `${job.dependency_name} is at ${use.version} on ${job.target_branch} now, not ${job.version_in_use}`);
    }
    // What the registries say of the target version (its digests, its commit for code-host ecosystems), asked once for
    // the manifest update and the lockfiles; undefined when the package manager's registry does not describe versions.
    const described = await deps.registries.describe(job.account_id, job.package_manager, job.dependency_name, job.target_version);
    const details = described && 'details' in described ? described.details : undefined;
    const update = ecosystem.updateManifest(read.files, use, job.target_version, details);
    if ('cannot' in update) throw fail(`the requirement cannot be rewritten: ${update.cannot}`);
    const manifests = 'files' in update ? update.files : {};
    const lockfiles = filesMatching(ecosystem.files.lockfiles, Object.keys(read.files));
    const locked =
      lockfiles.length === 0 ? {} : await updateLockfiles(ecosystem, described, { files: read.files, manifests, use, lockfiles }, job);
    const files = { ...manifests, ...locked };
    if (Object.keys(files).length === 0) {
      throw fail(`nothing to change: ${'unchanged' in update ? update.unchanged : 'the files already hold the version'}`);
    }
    return withGitlinks(ecosystem, read.files, files);
  } catch (error) {
    if (error instanceof ManifestParseError) throw fail(error.message);
    throw error;
  }
}

/**
 * The job's lockfiles rewritten to lock its target version and agree with the updated manifests
 * (`Ecosystem.updateLockfiles`, with the target version as the account's registries described it: `described`).
 * @throws JobOutcome `failed` with reason `needs-resolution: …` when that cannot be done faithfully (no lockfile
 *   support, the registries do not list the version, or the ecosystem says so); RegistryError when a registry cannot be
 *   asked (the job is retried)
 */
async function updateLockfiles(
  ecosystem: Ecosystem,
  described: Awaited<ReturnType<RegistryAccess['describe']>>,
  read: { files: Record<string, string>; manifests: Record<string, string>; use: DependencyUse; lockfiles: string[] },
  job: PullRequestJobRow,
): Promise<Record<string, string>> {
  const needsResolution = (why: string) => fail(`needs-resolution: ${why}`);
  if (!ecosystem.updateLockfiles) throw needsResolution(`${read.lockfiles.join(' and ')} cannot be updated yet`);
  if (!described)
    throw needsResolution(`no registry describes ${job.package_manager} versions, which ${read.lockfiles.join(' and ')} need`);
  if ('notFound' in described) {
    throw needsResolution(`${job.dependency_name} ${job.target_version} is not listed by ${described.registries.join(' or ')}`);
  }
  const result = await ecosystem.updateLockfiles({
    files: read.files,
    updated: { ...read.files, ...read.manifests },
    use: read.use,
    target: described.details,
    registries: described.registries,
  });
  if ('needsResolution' in result) throw needsResolution(result.needsResolution);
  return result.files;
}

/** @throws JobOutcome `queued-limit` when the account limits open pull requests and the config is at the limit */
async function limitOpenPullRequests(db: Db, job: PullRequestJobRow): Promise<void> {
  const account = await db.selectFrom('account').select('limit_open_pull_requests').where('id', '=', job.account_id).executeTakeFirst();
  if (account && !account.limit_open_pull_requests) return;
  if ((await openPullRequestCount(db, job.update_config_id)) >= OPEN_PULL_REQUEST_LIMIT) {
    throw new JobOutcome('queued-limit', `the config has ${OPEN_PULL_REQUEST_LIMIT} open pull requests, the account's limit`);
  }
}

/** The jobs of a config whose pull request is open. */
async function openPullRequestCount(db: Db, configId: number): Promise<number> {
  const open = await db
    .selectFrom('pull_request_job')
    .select((eb) => eb.fn.countAll<string>().as('n'))
    .where('update_config_id', '=', configId)
    .where('status', '=', 'open')
    .executeTakeFirstOrThrow();
  return Number(open.n);
}

/** The config's language (a label), or null. */
async function languageOf(db: Db, configId: number): Promise<string | null> {
  const row = await db.selectFrom('update_config').select('language').where('id', '=', configId).executeTakeFirst();
  return row?.language ?? null;
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

/** Closes the open pull requests of older jobs of the same dependency in the same config, saying which replaced them. */
async function supersedeOlder(deps: JobExecutorDeps, job: PullRequestJobRow, repo: RepoRef, opened: CodeHostPullRequest): Promise<void> {
  const { db, codeHost: host, token } = deps;
  const older = await db
    .selectFrom('pull_request_job')
    .select(['id', 'pull_request_number', 'target_version'])
    .where('update_config_id', '=', job.update_config_id)
    .where('dependency_name', '=', job.dependency_name)
    .where('id', '!=', job.id)
    .where('status', '=', 'open')
    .where('pull_request_number', 'is not', null)
    .execute();
  const scheme = ecosystemFor(job.package_manager)?.versions;
  const lower = (version: string) =>
    scheme?.isValid(version) && scheme.isValid(job.target_version)
      ? scheme.compare(version, job.target_version) < 0
      : version !== job.target_version;
  for (const row of older.filter((o) => lower(o.target_version))) {
    const number = row.pull_request_number as number;
    await host.comment?.(token, repo, number, `Superseded by #${opened.number}.`);
    await host.closePullRequest?.(token, repo, number);
    await setStatus(db, row.id, 'superseded', `superseded by #${opened.number} (${job.dependency_name} ${job.target_version})`);
  }
}

/**
 * Takes up jobs waiting as `queued-limit` whose config has fewer than {@link OPEN_PULL_REQUEST_LIMIT} open pull requests
 * now (one was merged or closed), oldest first, as many as fit; each worker runs this every `SCHEDULER_INTERVAL_MS`. A
 * job taken by two workers at once is carried out by one of them (its claim).
 * @returns how many jobs were taken up
 */
export async function releaseQueuedJobs(deps: JobExecutorDeps): Promise<number> {
  const { db } = deps;
  const waiting = await db
    .selectFrom('pull_request_job')
    .select(['id', 'update_config_id'])
    .where('status', '=', 'queued-limit')
    .orderBy('id')
    .limit(500)
    .execute();
  let taken = 0;
  const room = new Map<number, number>();
  for (const job of waiting) {
    if (!room.has(job.update_config_id)) {
      room.set(job.update_config_id, OPEN_PULL_REQUEST_LIMIT - (await openPullRequestCount(db, job.update_config_id)));
    }
    const left = room.get(job.update_config_id) ?? 0;
    if (left <= 0) continue;
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
 * Takes up jobs left `pending` or `running` for {@link STALLED_AFTER_MS} with no live claim: their message was lost
 * (parked after its last attempt, or dropped by a queue's delivery limit), so no delivery will come. Oldest first, at
 * most `limit`; each worker runs this every `SCHEDULER_INTERVAL_MS`. A job whose delivery does come later finds it done.
 * @returns how many jobs were taken up
 */
export async function resumeStalledJobs(deps: JobExecutorDeps, limit = 100): Promise<number> {
  const { db } = deps;
  const leaseMs = deps.leaseMs ?? JOB_LEASE_MS;
  const stalled = await db
    .selectFrom('pull_request_job')
    .select('id')
    .where('status', 'in', ['pending', 'running'])
    .where('status_changed_at', '<', fromNow(-STALLED_AFTER_MS))
    .where(unclaimed(leaseMs))
    .orderBy('id')
    .limit(limit)
    .execute();
  for (const job of stalled) {
    await executeJob(deps, job.id, false).catch((error: unknown) => {
      deps.logger.warn({ err: error, job: job.id }, 'a stalled pull-request job could not be taken up; the next round tries again');
    });
  }
  return stalled.length;
}
