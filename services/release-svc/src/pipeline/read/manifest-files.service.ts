import {
  type CodeHost,
  CodeHostError,
  type CodeHostTokens,
  formatBytes,
  listDirectoryFiles,
  readFilesOf,
  transientCodeHostError,
} from '@switchyard/code-host';
import {
  type Ecosystem,
  filesMatching,
  gitlinkText,
  isFilePattern,
  MAX_RELATED_PATHS,
  RELATED_ROUNDS,
  relatedFiles,
  repositoryPath,
  unmetRequirement,
} from '@switchyard/ecosystems';
import type { FoundTogether } from './fan-out-read.service.ts';
import { isCommitOid, keepRead, readKept } from './file-cache.service.ts';
import type { ReadableTarget } from './target.policy.ts';

/**
 * The files of an ecosystem found in a config's directory; or which required ones are missing; or which are bigger
 * than the code host client accepts (`tooLarge`, e.g. `package-lock.json in /web is 150.0 MiB, over the 5.0 MiB limit`).
 */
export type ManifestFiles = { files: Record<string, string> } | { missing: string } | { tooLarge: string };

/**
 * Why `file` in `directory` cannot be read, from the code host's `too_large`: its size (when the code host said it)
 * and the limit, e.g. `package-lock.json in /web is 150.0 MiB, over the 5.0 MiB limit`.
 */
export function tooLargeReason(
  file: string,
  directory: string,
  error: { sizeBytes?: number | undefined; limitBytes?: number | undefined },
): string {
  const size = error.sizeBytes === undefined ? 'over' : `${formatBytes(error.sizeBytes)}, over`;
  const limit = error.limitBytes === undefined ? 'size limit' : `${formatBytes(error.limitBytes)} limit`;
  return `${file} in ${directory} is ${size} the ${limit}`;
}

/** What {@link listPresent} found: the ecosystem's files, every file listed (`listed`) and whether the listing went down. */
interface ListedFiles {
  files: string[];
  listed: string[];
  gitlinks: Map<string, string>;
  sizes: Record<string, number>;
  recursive: boolean;
}

/**
 * The files of `ecosystem` present in `directory`, from one listing (code-host's `listDirectoryFiles`: the directory's
 * own entries, or the repository's tree when the ecosystem reads files in subdirectories or gitlinks): paths relative to
 * the directory (`package.json`, `gradle/libs.versions.toml`, `.github/workflows/ci.yml`) that its file entries name
 * (plain or with `*` patterns), its gitlinks when it reads them (`submodules`), and the sizes in bytes the listing gave.
 * `undefined` when the code host cannot list.
 */
async function listPresent(
  host: CodeHost,
  token: string,
  repo: { owner: string; name: string },
  directory: string,
  branch: string,
  ecosystem: Ecosystem,
  entries: readonly string[],
): Promise<ListedFiles | undefined> {
  const recursive = ecosystem.files.gitlinks === true || entries.some((entry) => entry.includes('/'));
  const listed = await listDirectoryFiles(host, token, repo, directory, branch, { recursive });
  if (!listed) return undefined;
  return {
    files: filesMatching(entries, listed.files),
    listed: listed.files,
    gitlinks: ecosystem.files.gitlinks ? listed.gitlinks : new Map(),
    sizes: listed.sizes,
    recursive,
  };
}

/**
 * Reads `names` (paths relative to `directory`, possibly going up with `../`) at `branch` into `files`, in as few
 * requests as the code host allows (`readFilesOf`; `sizes` by the same relative paths, where a listing gave them);
 * pushes the reason of each file over the size limit to `tooLarge`. Files that do not exist are left out.
 */
async function readInto(
  host: CodeHost,
  token: string,
  repo: { owner: string; name: string },
  target: { directory: string; branch: string },
  names: readonly string[],
  sizes: Readonly<Record<string, number>>,
  out: { files: Record<string, string>; tooLarge: string[] },
): Promise<void> {
  const paths = new Map<string, string>();
  for (const file of names) {
    const path = repositoryPath(target.directory, file);
    if (path !== undefined) paths.set(file, path);
  }
  if (paths.size === 0) return;
  const read = await readFilesOf(host, token, repo, [...paths.values()], {
    ref: target.branch,
    sizes: Object.fromEntries([...paths].flatMap(([file, path]) => (sizes[file] === undefined ? [] : [[path, sizes[file] as number]]))),
  });
  for (const [file, path] of paths) {
    const text = read.files[path];
    const over = read.tooLarge[path];
    if (over) out.tooLarge.push(tooLargeReason(file, target.directory, over));
    else if (text !== undefined) out.files[file] = text;
  }
}

/**
 * The rounds of a read after the first: the files those read point at (`files.related` of the ecosystem: workspace
 * members, a parent directory's `Directory.Packages.props`, included requirements files), read into `out`, again with
 * what each round adds, at most {@link RELATED_ROUNDS} times; a path is asked once. Patterns among them are matched
 * against a recursive listing of the directory (the first one when it was recursive, else one more, once).
 */
async function readRelated(
  host: CodeHost,
  token: string,
  repo: { owner: string; name: string },
  target: { directory: string; branch: string },
  ecosystem: Ecosystem,
  present: ListedFiles | undefined,
  out: { files: Record<string, string>; tooLarge: string[] },
): Promise<void> {
  const asked = new Set(Object.keys(out.files));
  let tree: { files: string[]; sizes: Record<string, number> } | undefined =
    present?.recursive === true ? { files: present.listed, sizes: present.sizes } : undefined;
  for (let round = 0; round < RELATED_ROUNDS; round++) {
    const related = relatedFiles(ecosystem.files, out.files, target.directory).filter((path) => !asked.has(path));
    if (related.length === 0) return;
    for (const path of related) asked.add(path);
    const patterns = related.filter(isFilePattern);
    let names = related.filter((path) => !isFilePattern(path));
    if (patterns.length > 0) {
      tree ??= await listDirectoryFiles(host, token, repo, target.directory, target.branch, { recursive: true });
      // As many files as a round may name at most (MAX_RELATED_PATHS): a pattern matching the whole tree reads no more.
      const matched = filesMatching(patterns, tree?.files ?? [])
        .filter((path) => !asked.has(path))
        .slice(0, Math.max(0, MAX_RELATED_PATHS - names.length));
      for (const path of matched) asked.add(path);
      names = [...new Set([...names, ...matched])];
    }
    await readInto(host, token, repo, target, names, tree?.sizes ?? present?.sizes ?? {}, out);
  }
}

/**
 * Reads the ecosystem's manifest and lockfiles in `directory` of `repoFullName` at `branch` through the
 * code host, all at once: when the code host lists directories, one listing (the directory's, or the repository's tree
 * when the ecosystem reads files in subdirectories or gitlinks) and then only the files it shows, else every plain file
 * the ecosystem may have (patterns and gitlinks need a listing). The files are read together through `readFiles` when
 * the code host has it (GitHub: one GraphQL query after the listing, so an npm repo with a lockfile costs 2 requests),
 * else one `readFile` each. Then the files those point at (the ecosystem's `files.related`: workspace members, a parent
 * directory's `Directory.Packages.props`, `-r` includes), a read per round of what the last one added (at most
 * {@link RELATED_ROUNDS}), under their paths relative to the directory. Gitlinks come as `Subproject commit <sha>\n`
 * (`gitlinkText`). Optional files that do not exist are left out. A file over the code host client's size limit
 * (`too_large`: never read past the limit) makes the result `tooLarge`, naming every such file. `branch` may be a commit
 * oid: `branchName` then names the branch in the reasons (`no package.json in / on branch main`). With `found` (the
 * ecosystem's files of the directory as a read of many repositories found them at `branch`, a commit:
 * `readTargetsTogether`), neither the listing nor the first read is made: the related files are read from there.
 * @throws CodeHostError when the code host fails otherwise (a `not_found` for a single file is not a failure)
 */
export async function readManifestFiles(
  host: CodeHost,
  token: string,
  repoFullName: string,
  directory: string,
  branch: string,
  ecosystem: Ecosystem,
  branchName: string = branch,
  found?: Pick<FoundTogether, 'files' | 'tooLarge'>,
): Promise<ManifestFiles> {
  const [owner = '', name = ''] = repoFullName.split('/');
  const repo = { owner, name };
  const target = { directory, branch };
  const entries = [...new Set([...ecosystem.files.required.flat(), ...ecosystem.files.optional])];
  const out = { files: {} as Record<string, string>, tooLarge: [] as string[] };
  let present: ListedFiles | undefined;
  if (found) {
    // Read with many repositories at once (`readTargetsTogether`): what the listing and the first read would give.
    Object.assign(out.files, found.files);
    for (const [file, over] of Object.entries(found.tooLarge)) out.tooLarge.push(tooLargeReason(file, directory, over));
  } else {
    present = await listPresent(host, token, repo, directory, branch, ecosystem, entries);
    const names = present?.files ?? entries.filter((entry) => !isFilePattern(entry));
    // Every file in as few requests as the code host allows (GitHub: one GraphQL query), sized by the listing.
    await readInto(host, token, repo, target, names, present?.sizes ?? {}, out);
  }
  await readRelated(host, token, repo, target, ecosystem, present, out);
  const { files, tooLarge } = out;
  if (tooLarge.length > 0) return { tooLarge: tooLarge.sort().join('; ') };
  for (const [path, sha] of present?.gitlinks ?? []) files[path] = gitlinkText(sha);
  const unmet = unmetRequirement(ecosystem.files.required, Object.keys(files));
  if (unmet) return { missing: `no ${unmet.join(' or ')} in ${directory} on branch ${branchName}` };
  return { files };
}

/**
 * The ecosystem's files in `directory` of `repoFullName` at commit `commit` (as {@link readManifestFiles}): those an
 * update run of this process read there (`file-cache.service.ts`: no request), else read at the commit now and kept. A commit's
 * files never change, so either way they are the files the run decided on. `branchName` names the branch in reasons.
 * @throws CodeHostError as {@link readManifestFiles}
 */
export async function readManifestFilesAt(
  host: CodeHost,
  token: string,
  repoFullName: string,
  directory: string,
  commit: string,
  ecosystem: Ecosystem,
  branchName: string,
): Promise<ManifestFiles> {
  const kept = isCommitOid(commit) ? readKept(repoFullName, commit, directory, ecosystem.packageManager) : undefined;
  if (kept) return { files: { ...kept } };
  const read = await readManifestFiles(host, token, repoFullName, directory, commit, ecosystem, branchName);
  if ('files' in read && isCommitOid(commit)) keepRead(repoFullName, commit, directory, ecosystem.packageManager, read.files);
  return read;
}

/**
 * The read stage of the pipeline: the files of the target config's directory on its branch
 * ({@link readManifestFiles}), or why they cannot be had: a required file missing, a file over the code host client's
 * size limit, the code host refusing them (a repo the worker's token cannot read, an account the App is not installed on).
 * With `atHead` (an update run of every dependency, whose jobs are many) the branch's head commit is read first
 * (`getBranchHead`: one request) and the files at that commit, which is returned (`commit`) and recorded on the jobs
 * the read leads to (`base_sha`): their pull requests are made on what was read, from the files kept in this process
 * (`file-cache.service.ts`). Without it (a notification's fan-out, whose reads are counted per repository), without
 * `getBranchHead`, or when the branch does not exist, the files are read at the branch's name and no commit is returned.
 * With `found` (a read of many repositories at once, `readTargetsTogether`: a notification's fan-out, or a run of
 * an ecosystem read by path) the commit and first files come from there, and only related files are read.
 * @throws CodeHostError when the code host is down or rate-limited (a later attempt may read them)
 */
export async function readTargetFiles(
  host: CodeHost,
  tokens: CodeHostTokens,
  { config, repo, ecosystem, branch }: ReadableTarget,
  { atHead = false, found }: { atHead?: boolean; found?: FoundTogether | undefined } = {},
): Promise<{ files: Record<string, string>; commit?: string } | { failed: string }> {
  let read: ManifestFiles;
  let commit: string | undefined;
  try {
    const [owner = '', name = ''] = repo.fullName.split('/');
    const token = await tokens.forOwner(owner);
    const head = found ? found.commit : atHead ? await host.getBranchHead?.(token, { owner, name }, branch) : undefined;
    commit = head !== undefined && isCommitOid(head) ? head.toLowerCase() : undefined;
    const at = commit === undefined ? undefined : found;
    read = await readManifestFiles(host, token, repo.fullName, config.directory, commit ?? branch, ecosystem, branch, at);
    if (commit !== undefined && 'files' in read) keepRead(repo.fullName, commit, config.directory, ecosystem.packageManager, read.files);
  } catch (error) {
    if (error instanceof CodeHostError && !transientCodeHostError(error)) {
      return { failed: `the code host refused to give the files: ${error.message}` };
    }
    throw error;
  }
  if ('missing' in read) return { failed: read.missing };
  if ('tooLarge' in read) return { failed: read.tooLarge };
  return commit === undefined ? { files: read.files } : { files: read.files, commit };
}
