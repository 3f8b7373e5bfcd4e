import type { RepoState } from '../repo-state.ts';
import type { RepoRole } from '../seed.ts';
import type { EmulatedRepo, EmulatedUser, World } from '../world.ts';

/**
 * Who may be named on an issue or a pull request: assignees (https://docs.github.com/rest/issues/assignees) and
 * requested reviewers (https://docs.github.com/rest/pulls/review-requests).
 */

/** The most assignees an issue or pull request has (GitHub: 10). */
export const MAX_ASSIGNEES = 10;

const rank: Record<RepoRole, number> = { read: 1, triage: 2, write: 3, maintain: 4, admin: 5 };

/** Is `role` at least `needed`? (An absent role is below every role.) */
export function atLeast(role: RepoRole | undefined, needed: RepoRole): boolean {
  return role !== undefined && rank[role] >= rank[needed];
}

/** The user with `login` (case-insensitive), or undefined (no such login, or an organisation). */
export function userByLogin(world: World, login: string): EmulatedUser | undefined {
  const account = world.account(login);
  return account?.kind === 'user' ? account.user : undefined;
}

/**
 * May `user` be assigned issue `number` of `repo` (by `caller`, who may assign)? As GitHub's rule says
 * (https://docs.github.com/issues/tracking-your-work-with-issues/assigning-issues-and-pull-requests-to-other-github-users):
 * the caller themself, anyone with write access, members of the owning organisation who can read the repository, and
 * anyone who commented on the issue or pull request.
 */
export function assignable(
  world: World,
  repo: EmulatedRepo,
  state: RepoState,
  user: EmulatedUser,
  number?: number,
  caller?: EmulatedUser,
): boolean {
  if (caller !== undefined && caller.id === user.id) return true;
  const role = world.roleOn(user, repo);
  if (atLeast(role, 'write')) return true;
  if (role !== undefined && world.orgRole(user, repo.owner) !== undefined) return true;
  return number !== undefined && state.comments.some((comment) => comment.issue === number && comment.user.id === user.id);
}

/**
 * Is `user` a collaborator of `repo` for review requests (https://docs.github.com/rest/pulls/review-requests)? The
 * owner, a collaborator, or a member of the owning organisation with access to it; reading a public repository
 * alone is not enough.
 */
export function reviewCollaborator(world: World, repo: EmulatedRepo, user: EmulatedUser): boolean {
  return world.affiliations(user, repo).size > 0;
}
