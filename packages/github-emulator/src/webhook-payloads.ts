import { treeChanges } from './diff/tree-changes.ts';
import type { GitCommit } from './git/objects.ts';
import type { GitRepository } from './git/repository-store.ts';
import { repoCommit } from './git/representations.ts';
import { issue } from './issues/representations.ts';
import { issueComment, pullRequest, type RepoView } from './pulls/representations.ts';
import type { CommentRecord, IssueEntry, IssueRecord, PullRequestRecord, RepoState, StatusRecord } from './repo-state.ts';
import { repository, simpleUser, type Urls } from './representations.ts';
import type { RepoRole } from './seed.ts';
import type { EmulatedRepo, EmulatedUser, World } from './world.ts';

/**
 * Payloads of the webhook events the emulator sends, in GitHub's shapes
 * (https://docs.github.com/webhooks/webhook-events-and-payloads): `push`, `pull_request`, `status`, `issues` and
 * `issue_comment`.
 */

const ZERO_SHA = '0000000000000000000000000000000000000000';

function viewOf(world: World, repo: EmulatedRepo, role: RepoRole): RepoView {
  const owner = world.account(repo.owner);
  if (!owner) throw new Error(`seed repo ${repo.owner}/${repo.name} has no owner`);
  return { repo, owner, role };
}

/** A ref change for a `push` payload: the full ref, the commit before and after (undefined: created / deleted). */
export interface RefChange {
  ref: string;
  before: string | undefined;
  after: string | undefined;
  forced: boolean;
}

/** The most commits a `push` payload lists, as on GitHub (the newest are kept). */
export const MAX_PUSH_COMMITS = 2048;

/**
 * The commits a ref change pushed, oldest first (parents before children): those reachable from `after` and not from
 * `before`, or, for a created ref, not from any other branch; none for a deleted ref. At most {@link MAX_PUSH_COMMITS}.
 */
export function pushedCommits(git: GitRepository, change: RefChange): GitCommit[] {
  if (change.after === undefined) return [];
  // Everything reachable from what the repository had: one walk over the history, however many branches there are.
  const known = new Set<string>();
  const walk =
    change.before !== undefined
      ? [change.before]
      : git
          .branches()
          .filter((branch) => `refs/heads/${branch.name}` !== change.ref)
          .map((branch) => branch.sha);
  while (walk.length > 0) {
    const sha = walk.pop() as string;
    if (known.has(sha)) continue;
    known.add(sha);
    for (const parent of git.commit(sha)?.parents ?? []) if (!known.has(parent)) walk.push(parent);
  }
  // Depth first from `after`, each commit listed once all of its new parents are: git's topological order.
  const ordered: GitCommit[] = [];
  const seen = new Set<string>();
  const stack: { sha: string; expanded: boolean }[] = [{ sha: change.after, expanded: false }];
  while (stack.length > 0) {
    const top = stack.pop() as { sha: string; expanded: boolean };
    const commit = git.commit(top.sha);
    if (!commit) continue;
    if (top.expanded) {
      ordered.push(commit);
      continue;
    }
    if (seen.has(top.sha) || known.has(top.sha)) continue;
    seen.add(top.sha);
    stack.push({ sha: top.sha, expanded: true });
    for (const parent of [...commit.parents].reverse())
      if (!seen.has(parent) && !known.has(parent)) stack.push({ sha: parent, expanded: false });
  }
  return ordered.slice(-MAX_PUSH_COMMITS);
}

/**
 * The paths a commit changed against its first parent (a root commit: every file added), as a `push` payload lists
 * them: a renamed file is removed at its old path and added at its new one; a file whose mode alone changed is modified.
 */
export function commitPaths(git: GitRepository, commit: GitCommit): { added: string[]; removed: string[]; modified: string[] } {
  const parent = commit.parents[0] === undefined ? undefined : git.commit(commit.parents[0]);
  const paths = { added: [] as string[], removed: [] as string[], modified: [] as string[] };
  for (const change of treeChanges(git, parent?.tree, commit.tree)) {
    if (change.status === 'added') paths.added.push(change.path);
    else if (change.status === 'removed') paths.removed.push(change.path);
    else if (change.status === 'renamed') {
      paths.added.push(change.path);
      paths.removed.push(change.previousPath as string);
    } else paths.modified.push(change.path);
  }
  return paths;
}

/**
 * The `push` event payload of a ref change (https://docs.github.com/webhooks/webhook-events-and-payloads#push): `ref`,
 * `before`/`after` (all zeros when created or deleted), `created`, `deleted`, `forced`, `base_ref` (null), `compare`,
 * `commits` (those pushed, {@link pushedCommits}, oldest first, each with `id`, `tree_id`, `distinct`, `message`,
 * `timestamp`, `url`, `author`, `committer` and the paths it `added`, `removed` and `modified` against its first
 * parent, {@link commitPaths}), `head_commit` (the commit `after` names, `distinct` when it was pushed; null when
 * deleted), `repository`, `pusher`, `sender`.
 */
export function pushPayload(
  urls: Urls,
  world: World,
  access: { repo: EmulatedRepo; role: RepoRole; state: RepoState },
  user: EmulatedUser,
  change: RefChange,
) {
  const view = viewOf(world, access.repo, access.role);
  const { git } = access.state;
  const head = change.after === undefined ? undefined : git.commit(change.after);
  const html = `${urls.htmlBase}/${access.repo.owner}/${access.repo.name}`;
  const pushed = pushedCommits(git, change);
  const commitJson = (commit: GitCommit, distinct: boolean) => ({
    id: commit.sha,
    tree_id: commit.tree,
    distinct,
    message: commit.message,
    timestamp: commit.committer.date,
    url: `${html}/commit/${commit.sha}`,
    author: { name: commit.author.name, email: commit.author.email },
    committer: { name: commit.committer.name, email: commit.committer.email },
    ...commitPaths(git, commit),
  });
  return {
    ref: change.ref,
    before: change.before ?? ZERO_SHA,
    after: change.after ?? ZERO_SHA,
    created: change.before === undefined,
    deleted: change.after === undefined,
    forced: change.forced,
    base_ref: null,
    compare: `${html}/compare/${(change.before ?? ZERO_SHA).slice(0, 12)}...${(change.after ?? ZERO_SHA).slice(0, 12)}`,
    commits: pushed.map((commit) => commitJson(commit, true)),
    head_commit: head
      ? commitJson(
          head,
          pushed.some((commit) => commit.sha === head.sha),
        )
      : null,
    repository: repository(urls, view.repo, view.owner, view.role),
    pusher: { name: user.login, email: user.email ?? null },
    sender: simpleUser(urls, { kind: 'user', user }),
  };
}

/** The actions of the `pull_request` events the emulator sends. */
export type PullRequestAction =
  | 'opened'
  | 'closed'
  | 'reopened'
  | 'edited'
  | 'synchronize'
  | 'assigned'
  | 'unassigned'
  | 'review_requested'
  | 'review_request_removed';

/**
 * What an `edited` event says changed: the previous `title` and `body` (only those that changed), and for a pull
 * request the previous `base` branch.
 */
export interface EditChanges {
  title?: string;
  body?: string | null;
  /** The base branch and its head before the change. */
  base?: { ref: string; sha: string };
}

/** GitHub's `changes` object of an `edited` event: `{ title: { from }, body: { from }, base: { ref: { from } } }`. */
function changesJson(changes: EditChanges) {
  return {
    ...(changes.title === undefined ? {} : { title: { from: changes.title } }),
    ...(changes.body === undefined ? {} : { body: { from: changes.body ?? '' } }),
    ...(changes.base === undefined ? {} : { base: { ref: { from: changes.base.ref }, sha: { from: changes.base.sha } } }),
  };
}

/**
 * What an event says beyond its object: `changes` of an `edited` event, the `assignee` of an `assigned` /
 * `unassigned` one, the `requested_reviewer` of a `review_requested` / `review_request_removed` one.
 */
export interface EventDetail {
  changes?: EditChanges;
  assignee?: EmulatedUser;
  requestedReviewer?: EmulatedUser;
}

function detailJson(urls: Urls, detail: EventDetail) {
  return {
    ...(detail.changes === undefined ? {} : { changes: changesJson(detail.changes) }),
    ...(detail.assignee === undefined ? {} : { assignee: simpleUser(urls, { kind: 'user', user: detail.assignee }) }),
    ...(detail.requestedReviewer === undefined
      ? {}
      : { requested_reviewer: simpleUser(urls, { kind: 'user', user: detail.requestedReviewer }) }),
  };
}

/**
 * The `pull_request` event payload (https://docs.github.com/webhooks/webhook-events-and-payloads#pull_request):
 * `action` (`opened`, `closed`, `reopened`, `edited` with `changes`, `synchronize` when its head branch moved,
 * `assigned` / `unassigned` with `assignee`, `review_requested` / `review_request_removed` with `requested_reviewer`),
 * `number`, `pull_request` (the `pull-request` the API answers: `node_id`, `head.ref`, `merged`, `merged_by`,
 * `additions`, `assignees`, `requested_reviewers`, …), `repository`, `sender`.
 */
export function pullRequestPayload(
  urls: Urls,
  world: World,
  access: { repo: EmulatedRepo; role: RepoRole; state: RepoState },
  user: EmulatedUser,
  action: PullRequestAction,
  pr: PullRequestRecord,
  detail: EventDetail = {},
) {
  const view = viewOf(world, access.repo, access.role);
  return {
    action,
    number: pr.number,
    ...detailJson(urls, detail),
    pull_request: pullRequest(urls, world, view, access.state, pr),
    repository: repository(urls, view.repo, view.owner, view.role),
    sender: simpleUser(urls, { kind: 'user', user }),
  };
}

/** The actions of the `issues` events the emulator sends. */
export type IssuesAction = 'opened' | 'closed' | 'reopened' | 'edited' | 'assigned' | 'unassigned';

/**
 * The `issues` event payload of an issue that is not a pull request
 * (https://docs.github.com/webhooks/webhook-events-and-payloads#issues): `action` (`opened`, `closed`, `reopened`,
 * `edited` with `changes`, `assigned` / `unassigned` with `assignee`), `issue` (the `issue` the API answers),
 * `repository`, `sender`.
 */
export function issuesPayload(
  urls: Urls,
  world: World,
  access: { repo: EmulatedRepo; role: RepoRole; state: RepoState },
  user: EmulatedUser,
  action: IssuesAction,
  record: IssueRecord,
  detail: EventDetail = {},
) {
  const view = viewOf(world, access.repo, access.role);
  return {
    action,
    ...detailJson(urls, detail),
    issue: issue(urls, world, access.repo, access.state, { kind: 'issue', record }),
    repository: repository(urls, view.repo, view.owner, view.role),
    sender: simpleUser(urls, { kind: 'user', user }),
  };
}

/**
 * The `issue_comment` event payload (https://docs.github.com/webhooks/webhook-events-and-payloads#issue_comment):
 * `action` (`created`, `edited` with `changes.body.from`, `deleted`), `issue` (the `issue` the API answers, with its
 * `pull_request` key when it is a pull request), `comment` (the `issue-comment`: `id`, `node_id`, `body`, `user`,
 * `author_association`, `created_at`, `updated_at`, `html_url`, …), `repository`, `sender` (who acted).
 */
export function issueCommentPayload(
  urls: Urls,
  world: World,
  access: { repo: EmulatedRepo; role: RepoRole; state: RepoState },
  user: EmulatedUser,
  action: 'created' | 'edited' | 'deleted',
  entry: IssueEntry,
  comment: CommentRecord,
  previousBody?: string,
) {
  const view = viewOf(world, access.repo, access.role);
  return {
    action,
    ...(previousBody === undefined ? {} : { changes: { body: { from: previousBody } } }),
    issue: issue(urls, world, access.repo, access.state, entry),
    comment: issueComment(urls, world, access.repo, access.state, comment),
    repository: repository(urls, view.repo, view.owner, view.role),
    sender: simpleUser(urls, { kind: 'user', user }),
  };
}

/**
 * The `status` event payload of a commit status created
 * (https://docs.github.com/webhooks/webhook-events-and-payloads#status): `id`, `sha`, `name` (`owner/repo`), `state`,
 * `context`, `description`, `target_url`, `commit` (the commits API's `commit` object of `sha`), `branches` (those whose
 * head is the commit, each `{ name, commit: { sha, url }, protected }`), `created_at`/`updated_at`, `repository`,
 * `sender`; valid against the `status` webhook schema of GitHub's description (`x-webhooks`).
 * @throws Error when the repository has no commit `status.sha` (the status route checks it first)
 */
export function statusPayload(
  urls: Urls,
  world: World,
  access: { repo: EmulatedRepo; role: RepoRole; state: RepoState },
  user: EmulatedUser,
  status: StatusRecord,
) {
  const view = viewOf(world, access.repo, access.role);
  const { git } = access.state;
  const commit = git.commit(status.sha);
  if (!commit) throw new Error(`${access.repo.owner}/${access.repo.name} has no commit ${status.sha}`);
  const described = repoCommit(urls, access.repo, commit);
  const branches = git
    .branches()
    .filter((branch) => branch.sha === status.sha)
    .map((branch) => ({ name: branch.name, commit: { sha: branch.sha, url: described.url }, protected: false }));
  return {
    id: status.id,
    sha: status.sha,
    name: `${access.repo.owner}/${access.repo.name}`,
    target_url: status.targetUrl,
    context: status.context,
    description: status.description,
    state: status.state,
    commit: described,
    branches,
    created_at: status.createdAt,
    updated_at: status.createdAt,
    repository: repository(urls, view.repo, view.owner, view.role),
    sender: simpleUser(urls, { kind: 'user', user }),
  };
}
