import type { CodeHost, DirectoryEntry, RepoRef, RepoTree } from './port.ts';

/**
 * What one listing of the code host shows under a directory of a repository at a ref:
 * - `files`: the paths of the files, relative to the directory and `/`-separated (`package.json`,
 *   `.github/workflows/ci.yml`), in the listing's order; only the directory's own files when it was not recursive;
 * - `sizes`: each file's size in bytes, where the listing gave it;
 * - `gitlinks`: submodule commits (40 hex) by path relative to the directory; only a recursive listing shows them;
 * - `truncated`: the code host cut the listing short, or may have (GitHub's `truncated` tree, past 100,000 entries or
 *   7 MB; a directory listing of 1,000 entries, its most), so a path absent from `files` may still exist.
 * A directory or ref that does not exist shows nothing (no files, not truncated).
 */
export interface DirectoryFiles {
  files: string[];
  sizes: Record<string, number>;
  gitlinks: Map<string, string>;
  truncated: boolean;
}

/** Which listing {@link listDirectoryFiles} makes: `recursive` for files in subdirectories and gitlinks, else the directory's own entries. */
export interface DirectoryListingOptions {
  recursive: boolean;
}

/**
 * The path prefix of the entries under `directory` in a repository's tree: `''` for the root (`/`, `''`), else the
 * path without its leading and trailing slashes plus one `/` (`/helpers/npm/` → `helpers/npm/`).
 */
export function treePrefix(directory: string): string {
  const trimmed = directory.replace(/^\/+|\/+$/g, '');
  return trimmed === '' ? '' : `${trimmed}/`;
}

/**
 * The files, sizes and gitlinks under `directory` in a repository's recursive tree listing (`listTree`), with paths
 * relative to the directory, and its `truncated` flag; an absent tree (no such ref) shows nothing.
 */
export function filesInTree(tree: RepoTree | undefined, directory: string): DirectoryFiles {
  const prefix = treePrefix(directory);
  const listed: DirectoryFiles = { files: [], sizes: {}, gitlinks: new Map(), truncated: tree?.truncated === true };
  for (const entry of tree?.entries ?? []) {
    if (!entry.path.startsWith(prefix)) continue;
    const path = entry.path.slice(prefix.length);
    if (entry.type === 'blob') {
      listed.files.push(path);
      if (entry.size !== undefined) listed.sizes[path] = entry.size;
    } else if (entry.type === 'commit') {
      listed.gitlinks.set(path, entry.sha);
    }
  }
  return listed;
}

/**
 * The most entries GitHub's contents API lists of one directory: "If the requested {path} points to a directory with
 * more than 1,000 files, only the first 1,000 are returned" (https://docs.github.com/rest/repos/contents#get-repository-content).
 */
export const DIRECTORY_LISTING_LIMIT = 1_000;

/**
 * The files and their sizes in one directory's listing (`listDirectory`); an absent listing (no such directory or ref)
 * shows nothing. A listing of {@link DIRECTORY_LISTING_LIMIT} entries or more may have been cut short: `truncated`.
 */
export function filesInDirectoryListing(entries: readonly DirectoryEntry[] | undefined): DirectoryFiles {
  const truncated = (entries?.length ?? 0) >= DIRECTORY_LISTING_LIMIT;
  const listed: DirectoryFiles = { files: [], sizes: {}, gitlinks: new Map(), truncated };
  for (const entry of entries ?? []) {
    if (entry.type !== 'file') continue;
    listed.files.push(entry.name);
    listed.sizes[entry.name] = entry.size;
  }
  return listed;
}

/**
 * What the code host shows under `directory` of `repo` at `ref` (a branch, tag or commit), in one request: with
 * `recursive`, the repository's whole tree (`listTree`; GitHub `GET /repos/{owner}/{repo}/git/trees/{ref}?recursive=1`)
 * cut to the directory, else the directory's own entries (`listDirectory`; GitHub `GET /repos/{owner}/{repo}/contents/{path}?ref=`).
 * The way release-svc's worker finds an ecosystem's files before reading them, and config-svc checks that a config's
 * directory holds them.
 * @returns undefined when the code host has no listing of that kind (a platform or test double without `listTree` or
 *   `listDirectory`)
 * @throws CodeHostError when the code host fails (a directory or ref that does not exist is not a failure)
 */
export async function listDirectoryFiles(
  host: Pick<CodeHost, 'listTree' | 'listDirectory'>,
  token: string,
  repo: RepoRef,
  directory: string,
  ref: string,
  { recursive }: DirectoryListingOptions,
): Promise<DirectoryFiles | undefined> {
  if (recursive) return host.listTree ? filesInTree(await host.listTree(token, repo, ref), directory) : undefined;
  if (!host.listDirectory) return undefined;
  return filesInDirectoryListing(await host.listDirectory(token, repo, treePrefix(directory).replace(/\/$/, ''), ref));
}
