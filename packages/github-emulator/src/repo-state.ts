import { type GitRepository, GitStore } from './git/repository-store.ts';
import type { EmulatedRepo, EmulatedUser } from './world.ts';

/** A pull request (also issue `number` of its repository, as on GitHub). Same-repository heads only (no forks). */
export interface PullRequestRecord {
  /** Unique across the emulator instance. */
  id: number;
  number: number;
  title: string;
  body: string | null;
  state: 'open' | 'closed';
  draft: boolean;
  /** Branch names in the pull request's repository. */
  head: string;
  base: string;
  /** The head commit when the branch was last seen (kept after a merge or when the branch is deleted). */
  headSha: string;
  /** The base branch's head when the pull request was opened or last merged. */
  baseSha: string;
  user: EmulatedUser;
  /** ISO 8601 timestamps. */
  createdAt: string;
  updatedAt: string;
  closedAt: string | null;
  mergedAt: string | null;
  mergedBy: EmulatedUser | null;
  mergeCommitSha: string | null;
  /** Issue comments made on it. */
  comments: number;
}

/** A repository label. `color` is 6 hex digits without `#`. */
export interface LabelRecord {
  id: number;
  name: string;
  color: string;
  description: string | null;
  default: boolean;
}

/** An issue comment (on a pull request: issues are pull requests here). */
export interface CommentRecord {
  id: number;
  issue: number;
  body: string;
  user: EmulatedUser;
  createdAt: string;
}

/** A commit status (https://docs.github.com/rest/commits/statuses). */
export interface StatusRecord {
  id: number;
  sha: string;
  state: 'error' | 'failure' | 'pending' | 'success';
  targetUrl: string | null;
  description: string | null;
  context: string;
  creator: EmulatedUser;
  createdAt: string;
}

/** What the emulator keeps per repository beyond the seed: git data, pull requests, labels, comments, statuses. */
export interface RepoState {
  git: GitRepository;
  pulls: PullRequestRecord[];
  /** By lower-cased name (GitHub's label names are case-insensitive). */
  labels: Map<string, LabelRecord>;
  /** Lower-cased label names by issue number, in the order added. */
  issueLabels: Map<number, string[]>;
  comments: CommentRecord[];
  /** In the order created (newest last). */
  statuses: StatusRecord[];
}

/**
 * The writable state of one emulator instance, in memory: per repository a {@link RepoState} (made on first use, its
 * git data from the seed), and the ids of new pull requests, labels, comments and statuses. A new instance starts
 * again from the seed.
 */
export class EmulatorState {
  private readonly git = new GitStore();
  private readonly repos = new Map<number, RepoState>();
  private nextIdValue = 1;

  /** The clock of timestamps, epoch milliseconds. */
  readonly now: () => number;

  constructor(now: () => number) {
    this.now = now;
  }

  /** The state of `repo`. */
  of(repo: EmulatedRepo): RepoState {
    let state = this.repos.get(repo.id);
    if (!state) {
      state = { git: this.git.of(repo), pulls: [], labels: new Map(), issueLabels: new Map(), comments: [], statuses: [] };
      this.repos.set(repo.id, state);
    }
    return state;
  }

  /** A new id, unique across everything this instance creates. */
  nextId(): number {
    const id = this.nextIdValue;
    this.nextIdValue += 1;
    return id;
  }

  /** Now as GitHub writes timestamps: ISO 8601 in whole seconds, UTC. */
  timestamp(): string {
    return new Date(Math.floor(this.now() / 1000) * 1000).toISOString().replace('.000Z', 'Z');
  }
}
