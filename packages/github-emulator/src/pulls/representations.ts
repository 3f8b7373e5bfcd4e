import { lineTotals } from '../diff/changed-files.ts';
import type { CommentRecord, LabelRecord, PullRequestRecord, RepoState, StatusRecord } from '../repo-state.ts';
import { minimalRepository, repository, simpleUser, type Urls } from '../representations.ts';
import type { RepoRole } from '../seed.ts';
import type { EmulatedAccount, EmulatedRepo, EmulatedUser, World } from '../world.ts';
import { mergeabilityOf } from './mergeability.ts';
import { pullDiff } from './pull-diff.ts';

/**
 * Builders of GitHub's pull request, label, issue comment and commit status objects
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

/** GitHub's `pull-request-simple` (as `GET /pulls` lists them). */
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
    milestone: null,
    active_lock_reason: null,
    created_at: pr.createdAt,
    updated_at: pr.updatedAt,
    closed_at: pr.closedAt,
    merged_at: pr.mergedAt,
    merge_commit_sha: pr.mergeCommitSha,
    assignee: null,
    assignees: [] as unknown[],
    requested_reviewers: [] as unknown[],
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

/** GitHub's `issue-comment`. */
export function issueComment(urls: Urls, world: World, repo: EmulatedRepo, comment: CommentRecord) {
  const api = repoApi(urls, repo);
  return {
    id: comment.id,
    node_id: comment.nodeId,
    url: `${api}/issues/comments/${comment.id}`,
    html_url: `${repoHtml(urls, repo)}/pull/${comment.issue}#issuecomment-${comment.id}`,
    body: comment.body,
    user: simpleUser(urls, userAccount(comment.user)),
    created_at: comment.createdAt,
    updated_at: comment.createdAt,
    issue_url: `${api}/issues/${comment.issue}`,
    author_association: authorAssociation(world, comment.user, repo),
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
