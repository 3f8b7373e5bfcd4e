import { AppsState, type AppsStateInit, appsFromSeed } from './apps/installations.ts';
import { FileDiffs } from './diff/file-diffs.ts';
import { type GitRepository, GitStore } from './git/repository-store.ts';
import { newWorldId, type WorldObjectKind, worldNodeId } from './node-ids.ts';
import type { ParsedSeed } from './seed.ts';
import type { EmulatedRepo, EmulatedUser } from './world.ts';

/**
 * A pull request (also issue `number` of its repository, as on GitHub: pull requests and issues share one sequence of
 * numbers). Same-repository heads only (no forks).
 */
export interface PullRequestRecord {
  /** Unique across the emulator instance. */
  id: number;
  /** Unique across emulator worlds (`node-ids.ts`). */
  nodeId: string;
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
  /** Who closed it (the merger, for a merge); null while open and in worlds saved before it was kept. */
  closedBy: EmulatedUser | null;
  /** Assigned users, in the order assigned (at most 10, as on GitHub). */
  assignees: EmulatedUser[];
  /** Users whose review is requested and not yet removed, in the order requested. */
  requestedReviewers: EmulatedUser[];
  /** The `number` of its milestone, or null. */
  milestone: number | null;
}

/** Why an issue is in its state (GitHub's `state_reason`). */
export type IssueStateReason = 'completed' | 'not_planned' | 'duplicate' | 'reopened';

/** An issue that is not a pull request (https://docs.github.com/rest/issues/issues). Its `number` is shared with pull requests. */
export interface IssueRecord {
  /** Unique across the emulator instance. */
  id: number;
  /** Unique across emulator worlds (`node-ids.ts`). */
  nodeId: string;
  number: number;
  title: string;
  body: string | null;
  state: 'open' | 'closed';
  /** Null while open and never closed; `reopened` once reopened. */
  stateReason: IssueStateReason | null;
  user: EmulatedUser;
  /** ISO 8601 timestamps. */
  createdAt: string;
  updatedAt: string;
  closedAt: string | null;
  closedBy: EmulatedUser | null;
  /** Issue comments made on it. */
  comments: number;
  /** Assigned users, in the order assigned (at most 10). */
  assignees: EmulatedUser[];
  /** The `number` of its milestone, or null. */
  milestone: number | null;
}

/** A repository milestone (https://docs.github.com/rest/issues/milestones). */
export interface MilestoneRecord {
  id: number;
  nodeId: string;
  /** 1, 2, … per repository. */
  number: number;
  title: string;
  description: string | null;
  state: 'open' | 'closed';
  /** ISO 8601, or null. */
  dueOn: string | null;
  creator: EmulatedUser;
  createdAt: string;
  updatedAt: string;
  closedAt: string | null;
}

/** A commit a forced update discarded whose author is not the pusher. */
export interface DiscardedCommit {
  sha: string;
  author: { name: string; email: string };
}

/** One forced ref update (not a fast forward), as recorded when it was made (`forced-updates.ts`). */
export interface ForcedUpdateRecord {
  /** The full ref (`refs/heads/<branch>`). */
  ref: string;
  /** The commits the ref named before and after. */
  before: string;
  after: string;
  /** The login of the token's user who pushed. */
  pusher: string;
  /** When, ISO 8601 in whole seconds (the emulator's clock). */
  at: string;
  /** How many commits were reachable from `before` and are not from `after`. */
  discarded: number;
  /** Of those, the ones whose author's email is not the pusher's. */
  othersDiscarded: DiscardedCommit[];
}

/** A repository label. `color` is 6 hex digits without `#`. */
export interface LabelRecord {
  id: number;
  nodeId: string;
  name: string;
  color: string;
  description: string | null;
  default: boolean;
}

/** An issue comment, on an issue or a pull request (`issue` is the number). */
export interface CommentRecord {
  id: number;
  nodeId: string;
  issue: number;
  body: string;
  user: EmulatedUser;
  createdAt: string;
  /** When its body was last edited (its `createdAt` until then). */
  updatedAt: string;
}

/** A commit status (https://docs.github.com/rest/commits/statuses). */
export interface StatusRecord {
  id: number;
  nodeId: string;
  sha: string;
  state: 'error' | 'failure' | 'pending' | 'success';
  targetUrl: string | null;
  description: string | null;
  context: string;
  creator: EmulatedUser;
  createdAt: string;
}

/**
 * What the emulator keeps per repository beyond its git data: pull requests, issues, milestones, labels, comments,
 * statuses, forced updates.
 */
export interface RepoRecords {
  pulls: PullRequestRecord[];
  /** Issues that are not pull requests, in the order opened. */
  issues: IssueRecord[];
  /** In the order created (`number` 1, 2, …). */
  milestones: MilestoneRecord[];
  /** By lower-cased name (GitHub's label names are case-insensitive). */
  labels: Map<string, LabelRecord>;
  /** Lower-cased label names by issue number (issues and pull requests), in the order added. */
  issueLabels: Map<number, string[]>;
  /** Comments on issues and pull requests, oldest first (a deleted one is removed). */
  comments: CommentRecord[];
  /** In the order created (newest last). */
  statuses: StatusRecord[];
  /** Forced ref updates (not fast forwards), in the order made (`forced-updates.ts`). */
  forcedUpdates: ForcedUpdateRecord[];
}

/** What the emulator keeps per repository beyond the seed: git data and {@link RepoRecords}, and the instance's diffs. */
export interface RepoState extends RepoRecords {
  git: GitRepository;
  /** The line diffs of this emulator instance (shared by its repositories). */
  diffs: FileDiffs;
}

/** The number the next issue or pull request of a repository gets: pull requests and issues count together, as on GitHub. */
export function nextIssueNumber(records: Pick<RepoRecords, 'pulls' | 'issues'>): number {
  let highest = 0;
  for (const pr of records.pulls) highest = Math.max(highest, pr.number);
  for (const issue of records.issues) highest = Math.max(highest, issue.number);
  return highest + 1;
}

/** The issue `number` of a repository: a plain issue, or a pull request seen as an issue; undefined when there is none. */
export type IssueEntry = { kind: 'issue'; record: IssueRecord } | { kind: 'pull'; record: PullRequestRecord };

/** The issue or pull request numbered `number`, or undefined. */
export function issueEntry(records: Pick<RepoRecords, 'pulls' | 'issues'>, number: number): IssueEntry | undefined {
  const pr = records.pulls.find((candidate) => candidate.number === number);
  if (pr) return { kind: 'pull', record: pr };
  const issue = records.issues.find((candidate) => candidate.number === number);
  return issue ? { kind: 'issue', record: issue } : undefined;
}

/**
 * A world as saved (`persistence/`): its id, the next id to hand out, each repository's git data and records, and its
 * GitHub App installations and tokens (absent in worlds saved before they were kept: the seed's then).
 */
export interface WorldStateInit {
  worldId: string;
  nextId: number;
  repos: ReadonlyMap<number, RepoRecords & { git: GitRepository }>;
  apps?: AppsStateInit;
}

/**
 * The writable state of one emulator world, in memory: its id (random, made with the world, see `node-ids.ts`), per
 * repository a {@link RepoState} (made on first use, its git data from the seed), the ids of new pull requests,
 * issues, milestones, labels, comments and statuses, and the GitHub App installations and their tokens (`apps`). A new
 * instance starts a new world from the seed, unless given a saved one (`init`).
 */
export class EmulatorState {
  private readonly git = new GitStore();
  private readonly repos = new Map<number, RepoState>();
  private readonly diffs = new FileDiffs();
  private nextIdValue: number;

  /** The clock of timestamps, epoch milliseconds. */
  readonly now: () => number;
  /** The world's id: 16 base64url characters, kept with its saved state. */
  readonly worldId: string;

  /** The GitHub App installations and installation access tokens of this world. */
  readonly apps: AppsState;

  /**
   * @param now the clock, epoch milliseconds
   * @param init a saved world to go on with
   * @param seed the seed whose installations a world starts with when `init` has none (none without it)
   */
  constructor(now: () => number, init?: WorldStateInit, seed?: ParsedSeed) {
    this.now = now;
    this.apps = new AppsState(init?.apps ?? (seed ? appsFromSeed(seed) : { nextInstallationId: 1, installations: [], tokens: [] }));
    this.worldId = init?.worldId ?? newWorldId();
    this.nextIdValue = init?.nextId ?? 1;
    for (const [id, records] of init?.repos ?? []) this.repos.set(id, { ...records, diffs: this.diffs });
  }

  /** The state of `repo`. */
  of(repo: EmulatedRepo): RepoState {
    let state = this.repos.get(repo.id);
    if (!state) {
      state = {
        git: this.git.of(repo),
        diffs: this.diffs,
        pulls: [],
        issues: [],
        milestones: [],
        labels: new Map(),
        issueLabels: new Map(),
        comments: [],
        statuses: [],
        forcedUpdates: [],
      };
      this.repos.set(repo.id, state);
    }
    return state;
  }

  /** The repositories whose state was asked for (or restored), by repository id. */
  repoStates(): ReadonlyMap<number, RepoState> {
    return this.repos;
  }

  /** The id the next object will get. */
  peekNextId(): number {
    return this.nextIdValue;
  }

  /** A new id, unique across everything this instance creates. */
  nextId(): number {
    const id = this.nextIdValue;
    this.nextIdValue += 1;
    return id;
  }

  /** A new id ({@link nextId}) and the node id of a `kind` object with it, unique across worlds. */
  nextObject(kind: WorldObjectKind): { id: number; nodeId: string } {
    const id = this.nextId();
    return { id, nodeId: worldNodeId(this.worldId, kind, id) };
  }

  /** Now as GitHub writes timestamps: ISO 8601 in whole seconds, UTC. */
  timestamp(): string {
    return new Date(Math.floor(this.now() / 1000) * 1000).toISOString().replace('.000Z', 'Z');
  }
}
