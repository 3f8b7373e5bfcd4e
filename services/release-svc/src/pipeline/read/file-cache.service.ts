import type { PackageManager } from '@switchyard/contracts';
import { repositoryPath } from '@switchyard/ecosystems';
import { LRUCache } from 'lru-cache';

/**
 * The files update runs read, kept in this process for the pull requests of the jobs they record: a job's change is
 * computed on the commit its run read (`pull_request_job.base_sha`), whose files never change, so the deliver stage
 * takes them from here rather than reading them again. Keyed by repository, commit oid and path (a text per file, so
 * two configs of one directory share it), plus which files one read of a config's directory found (the listing's
 * answer: which of the ecosystem's files exist, and the related files it went on to read), so that a hit is the same
 * {@link ManifestRead} as reading again. Bounded by bytes (`maxSize`, the UTF-16 length of texts and names as the
 * size): the least recently used go first. A miss (the worker restarted, another process ran the update) is read at
 * the commit again by the caller.
 */

/** The most bytes (UTF-16 code units) of files the cache holds: {@link DEFAULT_FILE_CACHE_BYTES} unless set otherwise. */
export const DEFAULT_FILE_CACHE_BYTES = 64 * 1024 * 1024;

/** What a read of a config's directory found at a commit: its files by path relative to the directory. */
export type ManifestRead = Record<string, string>;

/** A cached file's text, or which files one read of a directory found (paths relative to the directory). */
type Entry = { text: string } | { names: readonly string[] };

let cache = new LRUCache<string, Entry>({ maxSize: DEFAULT_FILE_CACHE_BYTES, sizeCalculation: sizeOf });

function sizeOf(entry: Entry, key: string): number {
  const size = 'text' in entry ? entry.text.length : entry.names.reduce((sum, name) => sum + name.length + 8, 0);
  return Math.max(1, size + key.length);
}

const fileKey = (repoFullName: string, commit: string, path: string) => `f\0${repoFullName.toLowerCase()}\0${commit}\0${path}`;
const readKey = (repoFullName: string, commit: string, directory: string, packageManager: PackageManager) =>
  `r\0${repoFullName.toLowerCase()}\0${commit}\0${directory}\0${packageManager}`;

/**
 * Keeps what a read of `directory` of `repoFullName` at commit `commit` (40 hex) found for `packageManager`: each file
 * under its repository path, and the list of them. Files outside the repository (a path going up past the root) are
 * not kept, nor is the read then.
 */
export function keepRead(
  repoFullName: string,
  commit: string,
  directory: string,
  packageManager: PackageManager,
  files: Readonly<ManifestRead>,
): void {
  const names = Object.keys(files);
  for (const name of names) {
    const path = repositoryPath(directory, name);
    if (path === undefined) return;
    cache.set(fileKey(repoFullName, commit, path), { text: files[name] as string });
  }
  cache.set(readKey(repoFullName, commit, directory, packageManager), { names });
}

/**
 * What a read of `directory` at `commit` found for `packageManager` ({@link keepRead}), by path relative to the
 * directory, or undefined when that read is not known or one of its files was evicted since.
 */
export function readKept(
  repoFullName: string,
  commit: string,
  directory: string,
  packageManager: PackageManager,
): ManifestRead | undefined {
  const read = cache.get(readKey(repoFullName, commit, directory, packageManager));
  if (!read || !('names' in read)) return undefined;
  const files: ManifestRead = {};
  for (const name of read.names) {
    const path = repositoryPath(directory, name);
    const file = path === undefined ? undefined : cache.get(fileKey(repoFullName, commit, path));
    if (!file || !('text' in file)) return undefined;
    files[name] = file.text;
  }
  return files;
}

/** Empties the cache, and bounds it to `maxBytes` from now on (tests; default {@link DEFAULT_FILE_CACHE_BYTES}). */
export function resetFileCache(maxBytes = DEFAULT_FILE_CACHE_BYTES): void {
  cache = new LRUCache<string, Entry>({ maxSize: maxBytes, sizeCalculation: sizeOf });
}

/** Whether `ref` is a full commit oid (40 hex): a read at it may be kept, a branch name's may not. */
export const isCommitOid = (ref: string): boolean => /^[0-9a-f]{40}$/i.test(ref);
