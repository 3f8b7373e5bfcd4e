import type { CodeHost, GitlinkContent } from '@switchyard/code-host';
import type { PullRequestJobStatus } from '@switchyard/contracts';
import {
  type DependencyUse,
  type Ecosystem,
  ecosystemFor,
  filesMatching,
  ManifestParseError,
  readGitlink,
  repositoryPath,
} from '@switchyard/ecosystems';
import type { Kysely } from 'kysely';
import type { ReleaseDatabase } from '../../db/schema.ts';
import type { PullRequestJobRow } from '../../jobs/job.table.ts';
import { findJobUpdates } from '../../jobs/job-update.repository.ts';
import type { PullRequestJobUpdateRow } from '../../jobs/job-update.table.ts';
import { readManifestFilesAt } from '../read/manifest-files.service.ts';
import type { RegistryAccess } from '../resolve/registry-access.client.ts';
import { groupTitle } from './group-text.policy.ts';
import { pullRequestTitle } from './pull-request-text.policy.ts';

/**
 * The deliver stage's change: the files of a job's pull request, computed at a commit of its target branch (the
 * manifests read there with the dependency's requirement rewritten, the lockfiles updated to agree), or why there is none.
 */

/** Why a job ended without a pull request of its own (or a rebase did not happen), and the status that says so. */
export class JobOutcome extends Error {
  readonly status: PullRequestJobStatus;
  readonly reason: string;
  /** For a `queued-limit` outcome that waits for an older job's pull request: that job's id. */
  readonly waitsFor: number | undefined;

  constructor(status: PullRequestJobStatus, reason: string, waitsFor?: number) {
    super(reason);
    this.status = status;
    this.reason = reason;
    this.waitsFor = waitsFor;
  }
}

/** A `failed` {@link JobOutcome} with `reason`. */
export const fail = (reason: string) => new JobOutcome('failed', reason);

/**
 * What a change is computed with: the code host and the worker's token for the job's repository (the files), the
 * registries (the target version).
 */
export interface ChangeDeps {
  codeHost: CodeHost;
  token: string;
  registries: RegistryAccess;
}

/** A job's change: paths in the job's directory → new text, or the commit a gitlink (submodule) moves to. */
export type ChangedFiles = Record<string, string | GitlinkContent>;

/**
 * `files` (paths in the job's directory, which may go up with `../`: a parent directory's file an ecosystem read through
 * `files.related`) as paths from the repository's root (`repositoryPath`). A path that would leave the repository is
 * dropped (no ecosystem gives one: `related` paths are read through the same function).
 */
export function inDirectory(job: Pick<PullRequestJobRow, 'directory'>, files: ChangedFiles): ChangedFiles {
  return Object.fromEntries(
    Object.entries(files).flatMap(([file, content]) => {
      const path = repositoryPath(job.directory, file);
      return path === undefined ? [] : [[path, content]];
    }),
  );
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
 * the manifests read there (`readManifestFilesAt`: those the update run of this process read at that commit, without a
 * request, else read now) with the dependency's requirement rewritten (`Ecosystem.updateManifest`, keeping the file's
 * style, by Dependabot Preview's default strategy `auto`: a requirement that does not allow the target is increased to
 * it in an application and widened to keep the old versions in a library, `Ecosystem.isLibrary`; the API's only other
 * strategy, `lockfile-only`, records no job that needs a manifest change) and the lockfiles updated to agree
 * ({@link updateLockfiles}).
 * @throws JobOutcome `failed` (the reason says why: files missing or unparsable, the dependency gone, a requirement that
 *   cannot be rewritten, `needs-resolution`, nothing to change) or `closed` when the version in use moved on the branch;
 *   CodeHostError; RegistryError
 */
export async function computeChange(
  deps: ChangeDeps,
  job: PullRequestJobRow,
  repoFullName: string,
  baseHead: string,
): Promise<ChangedFiles> {
  const ecosystem = ecosystemFor(job.package_manager);
  if (!ecosystem) throw fail(`package manager ${job.package_manager} is not supported yet`);
  const read = await readManifestFilesAt(deps.codeHost, deps.token, repoFullName, job.directory, baseHead, ecosystem, job.target_branch);
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
    const update = ecosystem.updateManifest(read.files, use, job.target_version, details, 'auto');
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

/** A job's change with its commit message (also its pull request's title), and for a group's job what it holds. */
export interface JobChange {
  files: ChangedFiles;
  message: string;
  group?: GroupChange;
}

/**
 * The change of a job at commit `baseHead`: one dependency's ({@link computeChange}) titled `pullRequestTitle`, or a
 * group's ({@link computeGroupChange}, its updates read from `pull_request_job_update`) titled `groupTitle` with the
 * updates it holds; `prefix` the config's commit-message prefix (`commitPrefix`).
 * @throws as {@link computeChange} and {@link computeGroupChange}
 */
export async function computeJobChange(
  deps: ChangeDeps & { db: Kysely<ReleaseDatabase> },
  job: PullRequestJobRow,
  repoFullName: string,
  baseHead: string,
  prefix: string,
): Promise<JobChange> {
  if (job.group_name === null) {
    return { files: await computeChange(deps, job, repoFullName, baseHead), message: pullRequestTitle(job, prefix) };
  }
  const updates = (await findJobUpdates(deps.db, [job.id])).get(job.id) ?? [];
  const group = await computeGroupChange(deps, job, updates, repoFullName, baseHead);
  return { files: group.files, message: groupTitle(job, group.applied, prefix), group };
}

/** What a group's change holds: its files, the updates in it, and those left out with why. */
export interface GroupChange {
  files: ChangedFiles;
  applied: PullRequestJobUpdateRow[];
  left: { name: string; why: string }[];
}

/**
 * The files of a group's change at commit `baseHead` (paths in the job's directory → new text): each of `updates` in
 * turn, as {@link computeChange} makes one dependency's, on the files as the updates before it left them, so the
 * manifests and lockfiles hold every update at once and agree (one lockfile change). An update that cannot be made (the
 * dependency gone, its version in use moved on the branch, a requirement that cannot be rewritten, `needs-resolution`)
 * is left out with why, and the others go on.
 * @throws JobOutcome `failed` when the files are missing, too large or unparsable, or no update can be made (`closed`
 *   when every update's version in use moved: they were made on the branch); CodeHostError; RegistryError
 */
export async function computeGroupChange(
  deps: ChangeDeps,
  job: PullRequestJobRow,
  updates: readonly PullRequestJobUpdateRow[],
  repoFullName: string,
  baseHead: string,
): Promise<GroupChange> {
  const ecosystem = ecosystemFor(job.package_manager);
  if (!ecosystem) throw fail(`package manager ${job.package_manager} is not supported yet`);
  const read = await readManifestFilesAt(deps.codeHost, deps.token, repoFullName, job.directory, baseHead, ecosystem, job.target_branch);
  if ('missing' in read) throw fail(read.missing);
  if ('tooLarge' in read) throw fail(read.tooLarge);
  let current: Record<string, string> = { ...read.files };
  const changed: Record<string, string> = {};
  const applied: PullRequestJobUpdateRow[] = [];
  const left: { name: string; why: string }[] = [];
  let moved = 0;
  for (const update of updates) {
    const member = {
      ...job,
      dependency_name: update.dependency_name,
      version_in_use: update.version_in_use,
      target_version: update.target_version,
    };
    try {
      const use = ecosystem.findDependency(current, update.dependency_name);
      if (!use) throw fail(`no longer a dependency in ${job.directory}`);
      if (use.version !== null && use.version !== update.version_in_use) {
        moved++;
        throw fail(`at ${use.version} on ${job.target_branch} now, not ${update.version_in_use}`);
      }
      const described = await deps.registries.describe(job.account_id, job.package_manager, update.dependency_name, update.target_version);
      const details = described && 'details' in described ? described.details : undefined;
      const manifest = ecosystem.updateManifest(current, use, update.target_version, details, 'auto');
      if ('cannot' in manifest) throw fail(`the requirement cannot be rewritten: ${manifest.cannot}`);
      const manifests = 'files' in manifest ? manifest.files : {};
      const lockfiles = filesMatching(ecosystem.files.lockfiles, Object.keys(current));
      const locked =
        lockfiles.length === 0 ? {} : await updateLockfiles(ecosystem, described, { files: current, manifests, use, lockfiles }, member);
      const files = { ...manifests, ...locked };
      if (Object.keys(files).length === 0) throw fail('the files already hold the version');
      current = { ...current, ...files };
      Object.assign(changed, files);
      applied.push(update);
    } catch (error) {
      if (error instanceof JobOutcome) left.push({ name: update.dependency_name, why: error.reason });
      else if (error instanceof ManifestParseError) left.push({ name: update.dependency_name, why: error.message });
      else throw error;
    }
  }
  if (applied.length === 0) {
    if (moved === updates.length)
      throw new JobOutcome('closed', `every update of the ${job.group_name} group is on ${job.target_branch} now`);
    throw fail(`no update of the ${job.group_name} group could be made: ${left.map(({ name, why }) => `${name}: ${why}`).join('; ')}`);
  }
  return { files: withGitlinks(ecosystem, read.files, changed), applied, left };
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
  job: Pick<PullRequestJobRow, 'package_manager' | 'dependency_name' | 'target_version'>,
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
