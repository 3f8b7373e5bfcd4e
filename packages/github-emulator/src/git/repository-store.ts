import { type FileContent, isGitlink } from '../files.ts';
import { createdAt } from '../representations.ts';
import { TAG_FILES_PREFIX } from '../seed-releases.ts';
import type { EmulatedRepo } from '../world.ts';
import {
  type GitBlob,
  type GitCommit,
  type GitObject,
  type GitSignature,
  type GitTree,
  makeBlob,
  makeCommit,
  makeTree,
  type TreeEntry,
  type TreeEntryType,
  type TreeMode,
} from './objects.ts';

/** A leaf of a flattened tree: a file, symlink or submodule at a full path (`src/app.ts`). */
export interface PathEntry {
  mode: TreeMode;
  type: TreeEntryType;
  sha: string;
}

/** A change to a tree at `path`: an entry to put there, or `null` to delete the path (a file or a whole directory). */
export interface TreeChange {
  path: string;
  entry: PathEntry | null;
}

const HEADS = 'refs/heads/';
const TAGS = 'refs/tags/';
const FULL_SHA = /^[0-9a-f]{40}$/;

/**
 * One repository's git data in memory: objects by id and refs (`refs/heads/<branch>`, `refs/tags/<tag>`) to commit
 * ids. Objects are immutable and content-addressed; only refs move. Nothing here checks permissions: the routes do.
 */
export class GitRepository {
  private readonly objects = new Map<string, GitObject>();
  private readonly refs = new Map<string, string>();
  /** How many objects the seed made ({@link markSeeded}); the objects after them in `objects` came later. */
  private seededObjects = 0;
  /** The refs as the seed made them, to tell whether any moved since. */
  private seededRefs: ReadonlyMap<string, string> = new Map();

  /**
   * Records the objects and refs held now as the seed's: {@link addedObjects} and {@link changedSinceSeed} are about
   * what comes after. Called once the repository is built from the seed.
   */
  markSeeded(): void {
    this.seededObjects = this.objects.size;
    this.seededRefs = new Map(this.refs);
  }

  /** The objects stored since {@link markSeeded}, oldest first (every object when it was never called). */
  addedObjects(): GitObject[] {
    return [...this.objects.values()].slice(this.seededObjects);
  }

  /** True when an object was stored or a ref created, moved or deleted since {@link markSeeded}. */
  changedSinceSeed(): boolean {
    if (this.objects.size > this.seededObjects || this.refs.size !== this.seededRefs.size) return true;
    for (const [name, sha] of this.refs) if (this.seededRefs.get(name) !== sha) return true;
    return false;
  }

  /** Replaces every ref with `refs` (full ref name → commit id). */
  replaceRefs(refs: Iterable<readonly [string, string]>): void {
    this.refs.clear();
    for (const [name, sha] of refs) this.refs.set(name, sha);
  }

  /** The object `sha` when it is a blob, else undefined. */
  blob(sha: string): GitBlob | undefined {
    const found = this.objects.get(sha);
    return found?.type === 'blob' ? found : undefined;
  }

  /** The object `sha` when it is a tree, else undefined. */
  tree(sha: string): GitTree | undefined {
    const found = this.objects.get(sha);
    return found?.type === 'tree' ? found : undefined;
  }

  /** The object `sha` when it is a commit, else undefined. */
  commit(sha: string): GitCommit | undefined {
    const found = this.objects.get(sha);
    return found?.type === 'commit' ? found : undefined;
  }

  /** Stores a blob of `content`; returns it with its id (the same content always gets the same id). */
  putBlob(content: FileContent): GitBlob {
    return this.put(makeBlob(content));
  }

  /** Stores a tree of `entries`; every entry's object must already be stored (the caller checks). */
  putTree(entries: readonly TreeEntry[]): GitTree {
    return this.put(makeTree(entries));
  }

  /** Stores a commit; its tree and parents must already be stored (the caller checks). */
  putCommit(fields: Omit<GitCommit, 'type' | 'sha'>): GitCommit {
    return this.put(makeCommit(fields));
  }

  private put<T extends GitObject>(object: T): T {
    const existing = this.objects.get(object.sha);
    if (existing) return existing as T;
    this.objects.set(object.sha, object);
    return object;
  }

  /** The commit id a ref points at; `name` is a full ref (`refs/heads/main`). */
  ref(name: string): string | undefined {
    return this.refs.get(name);
  }

  /** Points the full ref `name` at commit `sha` (creating it). */
  setRef(name: string, sha: string): void {
    this.refs.set(name, sha);
  }

  /** Deletes the full ref `name`; false when there was none. */
  deleteRef(name: string): boolean {
    return this.refs.delete(name);
  }

  /** The head commit of branch `name`, or undefined. */
  branch(name: string): string | undefined {
    return this.refs.get(`${HEADS}${name}`);
  }

  /** Every branch with its head commit, by name. */
  branches(): { name: string; sha: string }[] {
    return [...this.refs.entries()]
      .filter(([ref]) => ref.startsWith(HEADS))
      .map(([ref, sha]) => ({ name: ref.slice(HEADS.length), sha }))
      .sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  }

  /** Every tag with the commit it points at, by name. */
  tags(): { name: string; sha: string }[] {
    return [...this.refs.entries()]
      .filter(([ref]) => ref.startsWith(TAGS))
      .map(([ref, sha]) => ({ name: ref.slice(TAGS.length), sha }))
      .sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  }

  /** Every full ref name (`refs/heads/main`, `refs/tags/v1`) with its commit, sorted by name as git's `for-each-ref` does. */
  allRefs(): { name: string; sha: string }[] {
    return [...this.refs.entries()]
      .map(([name, sha]) => ({ name, sha }))
      .sort((a, b) => Buffer.compare(Buffer.from(a.name), Buffer.from(b.name)));
  }

  /** True when the repository has no refs at all (GitHub: "This repository is empty."). */
  isEmpty(): boolean {
    return this.refs.size === 0;
  }

  /**
   * The commit a `ref` names, as GitHub's `?ref=` reads it: a branch name, a tag name, `heads/x`, `tags/x`,
   * `refs/heads/x`, `refs/tags/x`, or a full 40-digit commit id. Undefined when it names nothing.
   */
  resolve(ref: string): string | undefined {
    const candidates = ref.startsWith('refs/')
      ? [ref]
      : ref.startsWith('heads/') || ref.startsWith('tags/')
        ? [`refs/${ref}`, `${HEADS}${ref}`]
        : [`${HEADS}${ref}`, `refs/tags/${ref}`];
    for (const name of candidates) {
      const sha = this.refs.get(name);
      if (sha !== undefined) return sha;
    }
    const lower = ref.toLowerCase();
    return FULL_SHA.test(lower) && this.commit(lower) ? lower : undefined;
  }

  /**
   * The commit an abbreviated id names (4 to 40 hex digits, case-insensitive), as git's `rev-parse` reads one; undefined
   * when no commit or more than one starts with it.
   */
  commitByPrefix(prefix: string): string | undefined {
    const lower = prefix.toLowerCase();
    if (!/^[0-9a-f]{4,40}$/.test(lower)) return undefined;
    let found: string | undefined;
    for (const object of this.objects.values()) {
      if (object.type !== 'commit' || !object.sha.startsWith(lower)) continue;
      if (found !== undefined) return undefined;
      found = object.sha;
    }
    return found;
  }

  /** The entry at `path` (`''` for the root) of tree `treeSha`: a blob, a sub-tree or a submodule; undefined when absent. */
  entryAt(treeSha: string, path: string): PathEntry | undefined {
    if (path === '') return { mode: '040000', type: 'tree', sha: treeSha };
    let current: PathEntry = { mode: '040000', type: 'tree', sha: treeSha };
    for (const name of path.split('/')) {
      if (current.type !== 'tree') return undefined;
      const found = this.tree(current.sha)?.entries.find((entry) => entry.name === name);
      if (!found) return undefined;
      current = found;
    }
    return current;
  }

  /** Every file, symlink and submodule under tree `treeSha`, by full path (`prefix` is prepended, with a slash). */
  files(treeSha: string, prefix = ''): Map<string, PathEntry> {
    const out = new Map<string, PathEntry>();
    const walk = (sha: string, at: string) => {
      for (const entry of this.tree(sha)?.entries ?? []) {
        const path = at === '' ? entry.name : `${at}/${entry.name}`;
        if (entry.type === 'tree') walk(entry.sha, path);
        else out.set(path, { mode: entry.mode, type: entry.type, sha: entry.sha });
      }
    };
    walk(treeSha, prefix);
    return out;
  }

  /** Stores the nested trees holding `files` (full path → entry) and returns the root tree. */
  writeFiles(files: ReadonlyMap<string, PathEntry>): GitTree {
    type Dir = { files: Map<string, PathEntry>; dirs: Map<string, Dir> };
    const root: Dir = { files: new Map(), dirs: new Map() };
    for (const [path, entry] of files) {
      const names = path.split('/');
      const fileName = names.pop() as string;
      let dir = root;
      for (const name of names) {
        let next = dir.dirs.get(name);
        if (!next) {
          next = { files: new Map(), dirs: new Map() };
          dir.dirs.set(name, next);
        }
        dir = next;
      }
      dir.files.set(fileName, entry);
    }
    const write = (dir: Dir): GitTree =>
      this.putTree([
        ...[...dir.files].map(([name, entry]) => ({ name, ...entry })),
        ...[...dir.dirs].map(([name, child]) => ({ name, mode: '040000' as const, type: 'tree' as const, sha: write(child).sha })),
      ]);
    return write(root);
  }

  /**
   * A new tree: `baseTree`'s files (none when undefined) with `changes` applied in order. An entry of type `tree` puts
   * that whole directory at its path (replacing what was there); `null` deletes a file or a whole directory (a path
   * that is not there is left alone). Returns the stored root tree.
   */
  applyChanges(baseTree: string | undefined, changes: readonly TreeChange[]): GitTree {
    const files = baseTree === undefined ? new Map<string, PathEntry>() : this.files(baseTree);
    const removeUnder = (path: string) => {
      files.delete(path);
      for (const key of [...files.keys()]) if (key.startsWith(`${path}/`)) files.delete(key);
    };
    for (const { path, entry } of changes) {
      removeUnder(path);
      // A file put where a directory of its path was (`a` when `a/b` exists) or under a file (`a/b` when `a` is a file).
      const parts = path.split('/');
      for (let i = 1; i < parts.length; i += 1) files.delete(parts.slice(0, i).join('/'));
      if (entry === null) continue;
      if (entry.type === 'tree') for (const [sub, leaf] of this.files(entry.sha, path)) files.set(sub, leaf);
      else files.set(path, entry);
    }
    return this.writeFiles(files);
  }

  /** Is commit `ancestor` reachable from `descendant` (or the same)? */
  isAncestor(ancestor: string, descendant: string): boolean {
    return this.ancestors(descendant).has(ancestor);
  }

  /** Every commit reachable from `sha`, itself included. */
  ancestors(sha: string): Set<string> {
    const seen = new Set<string>();
    const queue = [sha];
    while (queue.length > 0) {
      const next = queue.shift() as string;
      if (seen.has(next)) continue;
      seen.add(next);
      queue.push(...(this.commit(next)?.parents ?? []));
    }
    return seen;
  }

  /** The nearest common ancestor of two commits (breadth first from `b`), or undefined when their histories are unrelated. */
  mergeBase(a: string, b: string): string | undefined {
    const ofA = this.ancestors(a);
    const seen = new Set<string>();
    const queue = [b];
    while (queue.length > 0) {
      const next = queue.shift() as string;
      if (ofA.has(next)) return next;
      if (seen.has(next)) continue;
      seen.add(next);
      queue.push(...(this.commit(next)?.parents ?? []));
    }
    return undefined;
  }

  /** The paths whose entry differs between two trees, each with its entry in `to` (null: deleted there). */
  diff(fromTree: string | undefined, toTree: string): TreeChange[] {
    const from = fromTree === undefined ? new Map<string, PathEntry>() : this.files(fromTree);
    const to = this.files(toTree);
    const changes: TreeChange[] = [];
    for (const [path, entry] of to) {
      const before = from.get(path);
      if (!before || before.sha !== entry.sha || before.mode !== entry.mode) changes.push({ path, entry });
    }
    for (const path of from.keys()) if (!to.has(path)) changes.push({ path, entry: null });
    return changes;
  }
}

/** The author and committer of a seeded branch's commit: the repository's owner at the repository's creation time. */
function seedSignature(repo: EmulatedRepo): GitSignature {
  return { name: repo.owner, email: `${repo.owner.toLowerCase()}@users.noreply.github.com`, date: createdAt(repo) };
}

/**
 * A repository's git data as the seed describes it: each entry of `files` becomes a branch whose head is one root
 * commit ("Initial commit", by the owner, dated the repository's creation) of a tree of those files, or, for a key
 * `tags/<name>`, the lightweight tag `refs/tags/<name>` to such a commit (message "Release <name>"); a gitlink entry is
 * a tree entry of mode `160000`. Then each entry of `tags` points `refs/tags/<name>` at the commit of its `files` key.
 * Deterministic: the same seed gives the same ids on every start.
 */
export function repositoryFromSeed(repo: EmulatedRepo): GitRepository {
  const git = new GitRepository();
  const signature = seedSignature(repo);
  const commits = new Map<string, string>();
  for (const [key, files] of Object.entries(repo.files)) {
    const entries = new Map<string, PathEntry>();
    for (const [path, content] of Object.entries(files)) {
      entries.set(
        path,
        isGitlink(content)
          ? { mode: '160000', type: 'commit', sha: content.gitlink }
          : { mode: '100644', type: 'blob', sha: git.putBlob(content).sha },
      );
    }
    const tree = git.writeFiles(entries);
    const tag = key.startsWith(TAG_FILES_PREFIX) ? key.slice(TAG_FILES_PREFIX.length) : undefined;
    const message = tag === undefined ? 'Initial commit' : `Release ${tag}`;
    const commit = git.putCommit({ tree: tree.sha, parents: [], author: signature, committer: signature, message });
    commits.set(key, commit.sha);
    git.setRef(tag === undefined ? `${HEADS}${key}` : `${TAGS}${tag}`, commit.sha);
  }
  for (const [tag, key] of Object.entries(repo.tags)) {
    const sha = commits.get(key);
    if (sha !== undefined) git.setRef(`${TAGS}${tag}`, sha);
  }
  git.markSeeded();
  return git;
}

/** Every repository's git data for one emulator instance, built from the seed the first time a repository is asked for. */
export class GitStore {
  private readonly repos = new Map<number, GitRepository>();

  /** The git data of `repo` (built from its seed files on first use). */
  of(repo: EmulatedRepo): GitRepository {
    let git = this.repos.get(repo.id);
    if (!git) {
      git = repositoryFromSeed(repo);
      this.repos.set(repo.id, git);
    }
    return git;
  }
}
