import { authorAssociation, issueLabels, milestoneOf, reactions } from '../pulls/representations.ts';
import type { IssueEntry, RepoState } from '../repo-state.ts';
import { permissionsOf, simpleUser, type Urls } from '../representations.ts';
import type { RepoRole } from '../seed.ts';
import type { EmulatedRepo, EmulatedUser, World } from '../world.ts';

/**
 * Builders of GitHub's `issue` object (an issue, or a pull request seen through the issues API) and of the answer of
 * `GET /repos/{owner}/{repo}/collaborators/{username}/permission`, with every field GitHub's OpenAPI description
 * requires.
 */

const userJson = (urls: Urls, user: EmulatedUser) => simpleUser(urls, { kind: 'user', user });

/**
 * GitHub's `issue` (https://docs.github.com/rest/issues/issues#get-an-issue) of an issue or of a pull request: a pull
 * request carries `pull_request` (`url`, `html_url`, `diff_url`, `patch_url`, `merged_at`) and `draft`, and its
 * `html_url` is its `/pull/{n}` page, as on GitHub; `labels`, `assignee`/`assignees`, `milestone`, `comments` (the
 * count), `state_reason` (null for a pull request), `closed_by` and `author_association` from the records; no
 * reactions (every count 0) and never locked.
 */
export function issue(urls: Urls, world: World, repo: EmulatedRepo, state: RepoState, entry: IssueEntry) {
  const { record } = entry;
  const api = `${urls.apiBase}/repos/${repo.owner}/${repo.name}`;
  const self = `${api}/issues/${record.number}`;
  const html = `${urls.htmlBase}/${repo.owner}/${repo.name}/${entry.kind === 'pull' ? 'pull' : 'issues'}/${record.number}`;
  const assignee = record.assignees[0];
  return {
    id: record.id,
    node_id: record.nodeId,
    url: self,
    repository_url: api,
    labels_url: `${self}/labels{/name}`,
    comments_url: `${self}/comments`,
    events_url: `${self}/events`,
    html_url: html,
    number: record.number,
    state: record.state,
    state_reason: entry.kind === 'issue' ? entry.record.stateReason : null,
    title: record.title,
    body: record.body,
    user: userJson(urls, record.user),
    labels: issueLabels(urls, repo, state, record.number),
    assignee: assignee === undefined ? null : userJson(urls, assignee),
    assignees: record.assignees.map((user) => userJson(urls, user)),
    milestone: milestoneOf(urls, repo, state, record.milestone),
    locked: false,
    active_lock_reason: null,
    comments: record.comments,
    ...(entry.kind === 'pull'
      ? {
          pull_request: {
            url: `${api}/pulls/${record.number}`,
            html_url: html,
            diff_url: `${html}.diff`,
            patch_url: `${html}.patch`,
            merged_at: entry.record.mergedAt,
          },
          draft: entry.record.draft,
        }
      : {}),
    closed_at: record.closedAt,
    created_at: record.createdAt,
    updated_at: record.updatedAt,
    closed_by: record.closedBy === null ? null : userJson(urls, record.closedBy),
    author_association: authorAssociation(world, record.user, repo),
    reactions: reactions(self),
    timeline_url: `${self}/timeline`,
    performed_via_github_app: null,
  };
}

/** GitHub's legacy base role of a role: maintain counts as write, triage as read (`none`: no access). */
export function legacyPermission(role: RepoRole | undefined): 'admin' | 'write' | 'read' | 'none' {
  if (role === undefined) return 'none';
  if (role === 'admin') return 'admin';
  return role === 'maintain' || role === 'write' ? 'write' : 'read';
}

/**
 * GitHub's `repository-collaborator-permission`
 * (https://docs.github.com/rest/collaborators/collaborators#get-repository-permissions-for-a-user) of `user` holding
 * `role` on a repository (undefined: no access): `permission` the legacy base role ({@link legacyPermission}),
 * `role_name` the role itself (`none` without access), and `user` as a `collaborator` with its `permissions` and
 * `role_name`.
 */
export function collaboratorPermission(urls: Urls, user: EmulatedUser, role: RepoRole | undefined) {
  const roleName = role ?? 'none';
  const permissions = role === undefined ? { admin: false, maintain: false, push: false, triage: false, pull: false } : permissionsOf(role);
  return {
    permission: legacyPermission(role),
    role_name: roleName,
    user: { ...userJson(urls, user), name: user.name ?? null, email: user.email ?? null, permissions, role_name: roleName },
  };
}
