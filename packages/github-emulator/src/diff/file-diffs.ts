import type { FileContent } from '../files.ts';
import type { GitRepository, PathEntry } from '../git/repository-store.ts';
import { diffContents, type FileDiff } from './line-diff.ts';

/** How many file diffs a {@link FileDiffs} keeps (the least recently used goes first). */
const DEFAULT_CAPACITY = 512;

/** What a side of a file change holds: a blob's bytes, or git's text for a submodule's commit. */
function contentOf(git: GitRepository, entry: PathEntry | undefined): FileContent | undefined {
  if (entry === undefined) return undefined;
  // Git diffs a gitlink as this one line (https://git-scm.com/docs/git-diff#Documentation/git-diff.txt---submoduleltformatgt, the default `short`).
  if (entry.type === 'commit') return `Subproject commit ${entry.sha}\n`;
  return git.blob(entry.sha)?.content;
}

const keyOf = (entry: PathEntry | undefined) => (entry === undefined ? '' : entry.type === 'commit' ? `c${entry.sha}` : entry.sha);

/**
 * The line diffs of file changes, kept by the ids of the two sides: objects are content-addressed and never change, so
 * a pull request read again (its `additions`, its files, its `.diff`) costs no second diff. One per emulator instance,
 * shared by its repositories; at most `capacity` diffs are kept, the least recently used dropped first.
 */
export class FileDiffs {
  private readonly cache = new Map<string, FileDiff>();
  private readonly capacity: number;

  constructor(capacity = DEFAULT_CAPACITY) {
    this.capacity = capacity;
  }

  /** The diff from `before` to `after` (entries of `git`'s trees; undefined: absent on that side). */
  of(git: GitRepository, before: PathEntry | undefined, after: PathEntry | undefined): FileDiff {
    const key = `${keyOf(before)}>${keyOf(after)}`;
    const cached = this.cache.get(key);
    if (cached !== undefined) {
      this.cache.delete(key);
      this.cache.set(key, cached);
      return cached;
    }
    const diff = diffContents(contentOf(git, before), contentOf(git, after));
    this.cache.set(key, diff);
    if (this.cache.size > this.capacity) this.cache.delete(this.cache.keys().next().value as string);
    return diff;
  }
}
