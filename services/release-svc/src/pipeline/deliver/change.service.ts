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
import type { PullRequestJobRow } from '../../jobs/job.table.ts';
import { readManifestFiles } from '../read/manifest-files.service.ts';
import type { RegistryAccess } from '../resolve/registry-access.client.ts';

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

/** What a change is computed with: the code host and the worker's token (the files), the registries (the target version). */
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
 * the manifests read there with the dependency's requirement rewritten (`Ecosystem.updateManifest`, keeping the file's
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
