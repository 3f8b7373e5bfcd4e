import { isCodeHostError } from '../errors.ts';
import type { CodeHost, CodeHostIssue, RepoPermission, RepoRef } from '../port.ts';
import type { CallGitHub } from './writes.ts';

/** The issue methods of the port, as the GitHub adapter implements them. */
export type GitHubIssues = Required<
  Pick<CodeHost, 'openIssue' | 'getIssue' | 'updateIssue' | 'requestReviewers' | 'addAssignees' | 'collaboratorPermission'>
>;

/** The fields of GitHub's issue object this adapter reads. */
interface IssueData {
  number: number;
  html_url: string;
  state: string;
  title: string;
  body?: string | null;
  pull_request?: unknown;
}

function toIssue(data: IssueData): CodeHostIssue {
  return {
    number: data.number,
    htmlUrl: data.html_url,
    state: data.state === 'closed' ? 'closed' : 'open',
    title: data.title,
    body: data.body ?? null,
  };
}

/** An issue number: a whole number of at least 1. @throws RangeError otherwise */
function checkedNumber(number: number): number {
  if (!Number.isSafeInteger(number) || number < 1) throw new RangeError(`not an issue number: ${number}`);
  return number;
}

/**
 * GitHub's `permission` of `GET /collaborators/{username}/permission` as the port's four levels: `maintain` can push
 * (`write`), `triage` cannot (`read`).
 */
function toPermission(permission: string | undefined, roleName: string | undefined): RepoPermission {
  if (permission === 'admin') return 'admin';
  if (permission === 'write' || roleName === 'maintain') return 'write';
  if (permission === 'read' || roleName === 'triage') return 'read';
  return 'none';
}

/**
 * The port's issue methods on GitHub's REST API (https://docs.github.com/rest/issues/issues):
 * - `openIssue`: `POST /repos/{o}/{r}/issues` (410 when the repository has issues turned off → `not_found`, status 410);
 * - `getIssue`: `GET /issues/{n}` (404, or a pull request's number → undefined);
 * - `updateIssue`: `PATCH /issues/{n}` (`title`, `body`, `state`, `state_reason`, `milestone`);
 * - `requestReviewers`: `POST /pulls/{n}/requested_reviewers` (`org/team` entries as `team_reviewers` by their slug;
 *   https://docs.github.com/rest/pulls/review-requests#request-reviewers-for-a-pull-request);
 * - `addAssignees`: `POST /issues/{n}/assignees` (https://docs.github.com/rest/issues/assignees#add-assignees-to-an-issue);
 * - `collaboratorPermission`: `GET /collaborators/{username}/permission`
 *   (https://docs.github.com/rest/collaborators/collaborators#get-repository-permissions-for-a-user; 404 → `none`).
 * Bad arguments (a number below 1, an empty login) are a `RangeError` without a request.
 */
export function gitHubIssues(call: CallGitHub): GitHubIssues {
  const where = (repo: RepoRef) => `/repos/${repo.owner}/${repo.name}`;
  return {
    async openIssue(token, repo, input) {
      const what = `POST ${where(repo)}/issues`;
      return call(token, what, async (octokit) => {
        const { data } = await octokit.request('POST /repos/{owner}/{repo}/issues', {
          owner: repo.owner,
          repo: repo.name,
          title: input.title,
          body: input.body,
          ...(input.labels ? { labels: [...input.labels] } : {}),
        });
        return toIssue(data);
      });
    },

    async getIssue(token, repo, number) {
      const what = `GET ${where(repo)}/issues/${checkedNumber(number)}`;
      try {
        const data = await call(
          token,
          what,
          async (octokit) =>
            (
              await octokit.request('GET /repos/{owner}/{repo}/issues/{issue_number}', {
                owner: repo.owner,
                repo: repo.name,
                issue_number: number,
              })
            ).data,
        );
        return data.pull_request ? undefined : toIssue(data);
      } catch (error) {
        if (isCodeHostError(error, 'not_found')) return undefined;
        throw error;
      }
    },

    async updateIssue(token, repo, number, update) {
      const what = `PATCH ${where(repo)}/issues/${checkedNumber(number)}`;
      return call(token, what, async (octokit) => {
        const { data } = await octokit.request('PATCH /repos/{owner}/{repo}/issues/{issue_number}', {
          owner: repo.owner,
          repo: repo.name,
          issue_number: number,
          ...(update.title === undefined ? {} : { title: update.title }),
          ...(update.body === undefined ? {} : { body: update.body }),
          ...(update.state === undefined ? {} : { state: update.state }),
          ...(update.stateReason === undefined ? {} : { state_reason: update.stateReason }),
          ...(update.milestone === undefined ? {} : { milestone: update.milestone }),
        });
        return toIssue(data);
      });
    },

    async requestReviewers(token, repo, number, reviewers) {
      const what = `POST ${where(repo)}/pulls/${checkedNumber(number)}/requested_reviewers`;
      const users = reviewers.filter((name) => !name.includes('/'));
      const teams = reviewers.filter((name) => name.includes('/')).map((name) => name.slice(name.indexOf('/') + 1));
      await call(token, what, (octokit) =>
        octokit.request('POST /repos/{owner}/{repo}/pulls/{pull_number}/requested_reviewers', {
          owner: repo.owner,
          repo: repo.name,
          pull_number: number,
          reviewers: users,
          team_reviewers: teams,
        }),
      );
    },

    async addAssignees(token, repo, number, logins) {
      const what = `POST ${where(repo)}/issues/${checkedNumber(number)}/assignees`;
      await call(token, what, (octokit) =>
        octokit.request('POST /repos/{owner}/{repo}/issues/{issue_number}/assignees', {
          owner: repo.owner,
          repo: repo.name,
          issue_number: number,
          assignees: [...logins],
        }),
      );
    },

    async collaboratorPermission(token, repo, login) {
      if (login.trim() === '') throw new RangeError('not a user login: ""');
      const what = `GET ${where(repo)}/collaborators/${login}/permission`;
      try {
        const data = await call(
          token,
          what,
          async (octokit) =>
            (
              await octokit.request('GET /repos/{owner}/{repo}/collaborators/{username}/permission', {
                owner: repo.owner,
                repo: repo.name,
                username: login,
              })
            ).data,
        );
        return toPermission(data.permission, (data as { role_name?: string }).role_name);
      } catch (error) {
        if (isCodeHostError(error, 'not_found')) return 'none';
        throw error;
      }
    },
  };
}
