import { lineTotals } from '../diff/changed-files.ts';
import type {
  CommentRecord,
  LabelRecord,
  MilestoneRecord,
  PullRequestRecord,
  RepoRecords,
  RepoState,
  StatusRecord,
} from '../repo-state.ts';
import { minimalRepository, repository, simpleUser, type Urls } from '../representations.ts';
import type { RepoRole } from '../seed.ts';
import type { EmulatedAccount, EmulatedRepo, EmulatedUser, World } from '../world.ts';
import { mergeabilityOf } from './mergeability.ts';
import { pullDiff } from './pull-diff.ts';

/**
 * Builders of GitHub's pull request, label, milestone, issue comment and commit status objects
 * (https://docs.github.com/rest/pulls, /issues, /commits/statuses) with every field GitHub's OpenAPI description
 * requires.
 */

/** The repository, its owner and the caller's role, as the builders need them. */
export interface RepoView {
  repo: EmulatedRepo;
  owner: EmulatedAccount;
  role: RepoRole;
}

const repoApi = (urls: Urls, repo: EmulatedRepo) => `${urls.apiBase}/repos/${repo.owner}/${repo.name}`;
const repoHtml = (urls: Urls, repo: EmulatedRepo) => `${urls.htmlBase}/${repo.owner}/${repo.name}`;
const userAccount = (user: EmulatedUser): EmulatedAccount => ({ kind: 'user', user });

/** GitHub's `author_association` of `user` on `repo`: OWNER, MEMBER (of the owning organisation), COLLABORATOR or NONE. */
export function authorAssociation(world: World, user: EmulatedUser, repo: EmulatedRepo): 'OWNER' | 'MEMBER' | 'COLLABORATOR' | 'NONE' {
  const how = world.affiliations(user, repo);
  if (how.has('owner')) return 'OWNER';
  if (world.orgRole(user, repo.owner) !== undefined) return 'MEMBER';
  if (how.has('collaborator')) return 'COLLABORATOR';
  return 'NONE';
}

/** GitHub's `label`. */
export function label(urls: Urls, repo: EmulatedRepo, record: LabelRecord) {
  return {
    id: record.id,
    node_id: record.nodeId,
    url: `${repoApi(urls, repo)}/labels/${encodeURIComponent(record.name)}`,
    name: record.name,
    description: record.description,
    color: record.color,
    default: record.default,
  };
}

/** GitHub's `reaction-rollup` of an object at `url` (the emulator keeps no reactions: every count is 0). */
export function reactions(url: string) {
  return { url: `${url}/reactions`, total_count: 0, '+1': 0, '-1': 0, laugh: 0, confused: 0, heart: 0, hooray: 0, eyes: 0, rocket: 0 };
}

/**
 * GitHub's `milestone` (https://docs.github.com/rest/issues/milestones#get-a-milestone): `open_issues` and
 * `closed_issues` count the repository's issues and pull requests set to it.
 */
export function milestone(urls: Urls, repo: EmulatedRepo, records: Pick<RepoRecords, 'pulls' | 'issues'>, record: MilestoneRecord) {
  const api = `${repoApi(urls, repo)}/milestones/${record.number}`;
  const members = [...records.pulls, ...records.issues].filter((item) => item.milestone === record.number);
  return {
    url: api,
    html_url: `${repoHtml(urls, repo)}/milestone/${record.number}`,
    labels_url: `${api}/labels`,
    id: record.id,
    node_id: record.nodeId,
    number: record.number,
    state: record.state,
    title: record.title,
    description: record.description,
    creator: simpleUser(urls, userAccount(record.creator)),
    open_issues: members.filter((item) => item.state === 'open').length,
    closed_issues: members.filter((item) => item.state === 'closed').length,
    created_at: record.createdAt,
    updated_at: record.updatedAt,
    closed_at: record.closedAt,
    due_on: record.dueOn,
  };
}

/** The `milestone` of an issue or pull request set to milestone `number` (null: none, or one that is gone). */
export function milestoneOf(urls: Urls, repo: EmulatedRepo, state: RepoState, number: number | null) {
  const record = number === null ? undefined : state.milestones.find((candidate) => candidate.number === number);
  return record ? milestone(urls, repo, state, record) : null;
}

/** The labels of issue `number`, in the order they were added. */
export function issueLabels(urls: Urls, repo: EmulatedRepo, state: RepoState, number: number) {
  return (state.issueLabels.get(number) ?? []).flatMap((name) => {
    const record = state.labels.get(name);
    return record ? [label(urls, repo, record)] : [];
  });
}

/** The head commit of a pull request: the live branch head while open and the branch exists, else the last one seen. */
export function currentHeadSha(state: RepoState, pr: PullRequestRecord): string {
  if (pr.state === 'open') {
    const live = state.git.branch(pr.head);
    if (live !== undefined) pr.headSha = live;
  }
  return pr.headSha;
}

/** The base branch's head while the pull request is open (kept as it was once merged or closed). */
export function currentBaseSha(state: RepoState, pr: PullRequestRecord): string {
  if (pr.state === 'open' && pr.mergedAt === null) {
    const live = state.git.branch(pr.base);
    if (live !== undefined) pr.baseSha = live;
  }
  return pr.baseSha;
}

/**
 * GitHub's `pull-request-simple` (as `GET /pulls` lists them), with its `milestone`, `assignee`/`assignees` and
 * `requested_reviewers` (users; `requested_teams` is always empty: the emulator has no teams).
 */
export function pullRequestSimple(urls: Urls, world: World, view: RepoView, state: RepoState, pr: PullRequestRecord) {
  const { repo, owner, role } = view;
  const api = repoApi(urls, repo);
  const html = repoHtml(urls, repo);
  const self = `${api}/pulls/${pr.number}`;
  const issue = `${api}/issues/${pr.number}`;
  const headSha = currentHeadSha(state, pr);
  const ownerUser = simpleUser(urls, owner);
  const repoJson = repository(urls, repo, owner, role);
  const statuses = `${api}/statuses/${headSha}`;
  return {
    url: self,
    id: pr.id,
    node_id: pr.nodeId,
    html_url: `${html}/pull/${pr.number}`,
    diff_url: `${html}/pull/${pr.number}.diff`,
    patch_url: `${html}/pull/${pr.number}.patch`,
    issue_url: issue,
    commits_url: `${self}/commits`,
    review_comments_url: `${self}/comments`,
    review_comment_url: `${api}/pulls/comments{/number}`,
    comments_url: `${issue}/comments`,
    statuses_url: statuses,
    number: pr.number,
    state: pr.state,
    locked: false,
    title: pr.title,
    user: simpleUser(urls, userAccount(pr.user)),
    body: pr.body,
    labels: issueLabels(urls, repo, state, pr.number),
    milestone: milestoneOf(urls, repo, state, pr.milestone),
    active_lock_reason: null,
    created_at: pr.createdAt,
    updated_at: pr.updatedAt,
    closed_at: pr.closedAt,
    merged_at: pr.mergedAt,
    merge_commit_sha: pr.mergeCommitSha,
    assignee: pr.assignees[0] === undefined ? null : simpleUser(urls, userAccount(pr.assignees[0])),
    assignees: pr.assignees.map((user) => simpleUser(urls, userAccount(user))),
    requested_reviewers: pr.requestedReviewers.map((user) => simpleUser(urls, userAccount(user))),
    // The emulator has no teams.
    requested_teams: [] as unknown[],
    head: { label: `${repo.owner}:${pr.head}`, ref: pr.head, sha: headSha, user: ownerUser, repo: repoJson },
    base: { label: `${repo.owner}:${pr.base}`, ref: pr.base, sha: currentBaseSha(state, pr), user: ownerUser, repo: repoJson },
    _links: {
      self: { href: self },
      html: { href: `${html}/pull/${pr.number}` },
      issue: { href: issue },
      comments: { href: `${issue}/comments` },
      review_comments: { href: `${self}/comments` },
      review_comment: { href: `${api}/pulls/comments{/number}` },
      commits: { href: `${self}/commits` },
      statuses: { href: statuses },
    },
    author_association: authorAssociation(world, pr.user, repo),
    auto_merge: null,
    draft: pr.draft,
  };
}

/**
 * GitHub's `pull-request` (one pull request): {@link pullRequestSimple} plus `merged`, `mergeable` (null once closed,
 * as GitHub stops computing it), `mergeable_state` (see `mergeability.ts`; `unknown` once closed), `merged_by`, and
 * what it changes ({@link pullDiff}): `commits`, `changed_files`, and the lines added and removed (`additions`,
 * `deletions`; 0 for binary files, as GitHub counts them).
 */
export function pullRequest(urls: Urls, world: World, view: RepoView, state: RepoState, pr: PullRequestRecord) {
  const simple = pullRequestSimple(urls, world, view, state, pr);
  const mergeability = pr.state === 'open' ? mergeabilityOf(state.git, simple.base.sha, simple.head.sha) : undefined;
  const changes = pullDiff(state, simple.base.sha, simple.head.sha);
  const { additions, deletions } = lineTotals(changes.files);
  return {
    ...simple,
    merged: pr.mergedAt !== null,
    mergeable: mergeability?.mergeable ?? null,
    rebaseable: mergeability?.mergeable ?? null,
    mergeable_state: mergeability?.state ?? 'unknown',
    merged_by: pr.mergedBy === null ? null : simpleUser(urls, userAccount(pr.mergedBy)),
    comments: pr.comments,
    review_comments: 0,
    maintainer_can_modify: false,
    commits: changes.commits.length,
    additions,
    deletions,
    changed_files: changes.files.length,
  };
}

/**
 * GitHub's `issue-comment` (https://docs.github.com/rest/issues/comments#get-an-issue-comment): its `html_url` is on the
 * pull request's page (`/pull/{n}`) when its issue is a pull request, else on the issue's (`/issues/{n}`).
 */
export function issueComment(urls: Urls, world: World, repo: EmulatedRepo, records: Pick<RepoRecords, 'pulls'>, comment: CommentRecord) {
  const api = repoApi(urls, repo);
  const page = records.pulls.some((pr) => pr.number === comment.issue) ? 'pull' : 'issues';
  const url = `${api}/issues/comments/${comment.id}`;
  return {
    id: comment.id,
    node_id: comment.nodeId,
    url,
    html_url: `${repoHtml(urls, repo)}/${page}/${comment.issue}#issuecomment-${comment.id}`,
    body: comment.body,
    user: simpleUser(urls, userAccount(comment.user)),
    created_at: comment.createdAt,
    updated_at: comment.updatedAt,
    issue_url: `${api}/issues/${comment.issue}`,
    author_association: authorAssociation(world, comment.user, repo),
    performed_via_github_app: null,
    reactions: reactions(url),
  };
}

/** GitHub's `status` (one commit status). */
export function commitStatus(urls: Urls, repo: EmulatedRepo, status: StatusRecord) {
  return {
    url: `${repoApi(urls, repo)}/statuses/${status.sha}`,
    avatar_url: null,
    id: status.id,
    node_id: status.nodeId,
    state: status.state,
    description: status.description,
    target_url: status.targetUrl,
    context: status.context,
    created_at: status.createdAt,
    updated_at: status.createdAt,
    creator: simpleUser(urls, userAccount(status.creator)),
  };
}

/**
 * GitHub's `combined-commit-status` of commit `sha` (https://docs.github.com/rest/commits/statuses#get-the-combined-status-for-a-specific-reference):
 * the latest status per context; `state` is `failure` if any is `error` or `failure`, `pending` if any is `pending`
 * or there are none, else `success`.
 */
export function combinedStatus(urls: Urls, view: RepoView, state: RepoState, sha: string) {
  const latest = new Map<string, StatusRecord>();
  for (const status of state.statuses) if (status.sha === sha) latest.set(status.context, status);
  const statuses = [...latest.values()];
  const combined = statuses.some((s) => s.state === 'error' || s.state === 'failure')
    ? 'failure'
    : statuses.length === 0 || statuses.some((s) => s.state === 'pending')
      ? 'pending'
      : 'success';
  const api = repoApi(urls, view.repo);
  return {
    state: combined,
    statuses: statuses.map((s) => {
      const { creator: _creator, ...simple } = commitStatus(urls, view.repo, s);
      return simple;
    }),
    sha,
    total_count: statuses.length,
    repository: minimalRepository(urls, view.repo, view.owner, view.role),
    commit_url: `${api}/commits/${sha}`,
    url: `${api}/commits/${sha}/status`,
  };
}
