import type { Express, Request, RequestHandler, Response } from 'express';
import { notifyPush, userSignature } from './git-routes.ts';
import { GitHubApiError, notFound, queryValue, sendJson } from './github-http.ts';
import { reviewCollaborator, userByLogin } from './issues/people.ts';
import { type MergeMethod, mergeabilityOf, mergeCommits, mergedTree } from './pulls/mergeability.ts';
import { checkPullRequest, openPullRequest } from './pulls/open-pull.ts';
import { pullDiff } from './pulls/pull-diff.ts';
import { currentBaseSha, currentHeadSha, pullRequest, pullRequestSimple, type RepoView } from './pulls/representations.ts';
import { closePull, pullValidation, reopenPull } from './pulls/state-changes.ts';
import type { PullRequestRecord } from './repo-state.ts';
import { sendRepositoryEvent } from './repository-webhooks.ts';
import { bodyOf, invalidRequest, optionalBoolean, optionalString, requiredString } from './request-body.ts';
import { diffMediaType, rangeText, sendDiffText } from './review/media-types.ts';
import { ownerOf, type RepoAccess, type RouteContext, repoAccess, sendOne, sendPage, urlsOf, userOf } from './route-helpers.ts';
import { type EditChanges, type EventDetail, type PullRequestAction, pullRequestPayload } from './webhook-payloads.ts';
import type { EmulatedUser } from './world.ts';

/** `documentation_url`s of the pull request endpoints. */
export const PULL_DOCS = {
  create: 'https://docs.github.com/rest/pulls/pulls#create-a-pull-request',
  list: 'https://docs.github.com/rest/pulls/pulls#list-pull-requests',
  get: 'https://docs.github.com/rest/pulls/pulls#get-a-pull-request',
  update: 'https://docs.github.com/rest/pulls/pulls#update-a-pull-request',
  merge: 'https://docs.github.com/rest/pulls/pulls#merge-a-pull-request',
  checkMerged: 'https://docs.github.com/rest/pulls/pulls#check-if-a-pull-request-has-been-merged',
  updateBranch: 'https://docs.github.com/rest/pulls/pulls#update-a-pull-request-branch',
  requestReviewers: 'https://docs.github.com/rest/pulls/review-requests#request-reviewers-for-a-pull-request',
  removeReviewers: 'https://docs.github.com/rest/pulls/review-requests#remove-requested-reviewers-from-a-pull-request',
} as const;

/**
 * The logins of a review request body's `field` (`reviewers`, `team_reviewers`); `[]` when absent unless `required`.
 * @throws GitHubApiError 422 `Invalid request.` when it is missing but required, or not an array of strings
 */
function loginList(body: Record<string, unknown>, field: string, required: boolean, docs: string): string[] {
  const value = body[field];
  if (value === undefined || value === null) {
    if (required) throw invalidRequest(`"${field}" wasn't supplied.`, docs);
    return [];
  }
  if (!Array.isArray(value) || value.some((item) => typeof item !== 'string')) {
    throw invalidRequest(`For 'properties/${field}', ${JSON.stringify(value)} is not an array of strings.`, docs);
  }
  return value as string[];
}

/** The branch of a `head` or `base` value: `branch` or `owner:branch` (the owner must be the repository's: no forks here). */
function branchOf(value: string, owner: string): string | undefined {
  const colon = value.indexOf(':');
  if (colon === -1) return value;
  return value.slice(0, colon).toLowerCase() === owner.toLowerCase() ? value.slice(colon + 1) : undefined;
}

function viewOf(context: RouteContext, access: RepoAccess): RepoView {
  return { repo: access.repo, owner: ownerOf(context.world, access.repo), role: access.role };
}

/** The pull request `:number` of the repository. @throws GitHubApiError 404 when there is none */
export function pullOf(req: Request, access: RepoAccess, docs: string): PullRequestRecord {
  const text = String(req.params.number);
  const number = /^\d{1,9}$/.test(text) ? Number(text) : Number.NaN;
  const found = access.state.pulls.find((pr) => pr.number === number);
  if (!found) throw notFound(docs);
  return found;
}

/**
 * Mounts GitHub's pull request endpoints (https://docs.github.com/rest/pulls/pulls) under `/repos/{owner}/{repo}`:
 * `POST /pulls`, `GET /pulls` (`state`, `head`, `base`, `sort`, `direction`, pagination), `GET` (JSON, or the
 * `application/vnd.github.diff` / `.patch` media types: `review/media-types.ts`) and `PATCH /pulls/{n}`, `GET` and
 * `PUT /pulls/{n}/merge`, `PUT /pulls/{n}/update-branch`, and `POST` / `DELETE /pulls/{n}/requested_reviewers`
 * (https://docs.github.com/rest/pulls/review-requests). Heads are branches of the same repository (no forks). Reads
 * need read access; opening, editing and merging need write, review requests triage (403), as on GitHub for a
 * repository's own branches. Opening, closing, reopening, editing, merging and review requests send `pull_request`
 * webhooks; a merge also a `push` of the base branch.
 */
export function mountPullRoutes(app: Express, context: RouteContext, auth: RequestHandler): void {
  const { world, state } = context;
  const base = '/repos/:owner/:repo/pulls';
  const send = (req: Request, res: Response, access: RepoAccess, action: PullRequestAction, pr: PullRequestRecord, detail?: EventDetail) =>
    sendRepositoryEvent(context, access.repo, 'pull_request', () =>
      pullRequestPayload(urlsOf(req, context), world, access, userOf(res), action, pr, detail),
    );

  // https://docs.github.com/rest/pulls/pulls#create-a-pull-request
  app.post(base, auth, (req, res) => {
    const docs = PULL_DOCS.create;
    const access = repoAccess(req, res, context, 'write', docs);
    const body = bodyOf(req, docs);
    const title = requiredString(body, 'title', docs);
    const headValue = requiredString(body, 'head', docs);
    const baseValue = requiredString(body, 'base', docs);
    const text = optionalString(body, 'body', docs) ?? null;
    const draft = optionalBoolean(body, 'draft', docs) ?? false;
    if (title.trim() === '') throw pullValidation(docs, { field: 'title', code: 'missing_field' });
    const head = branchOf(headValue, access.repo.owner);
    const check = checkPullRequest(access.state, head, baseValue);
    if (head === undefined || check.headSha === undefined) throw pullValidation(docs, { field: 'head', code: 'invalid' });
    if (check.baseSha === undefined) throw pullValidation(docs, { field: 'base', code: 'invalid' });
    if (check.noCommits) throw pullValidation(docs, { code: 'custom', message: `No commits between ${baseValue} and ${head}` });
    if (check.exists)
      throw pullValidation(docs, { code: 'custom', message: `A pull request already exists for ${access.repo.owner}:${head}.` });
    const pr = openPullRequest(state, access.state, userOf(res), {
      title,
      body: text,
      draft,
      head,
      base: baseValue,
      headSha: check.headSha,
      baseSha: check.baseSha,
    });
    send(req, res, access, 'opened', pr);
    res.setHeader('location', `${urlsOf(req, context).apiBase}/repos/${access.repo.owner}/${access.repo.name}/pulls/${pr.number}`);
    sendJson(res, 201, pullRequest(urlsOf(req, context), world, viewOf(context, access), access.state, pr));
  });

  // https://docs.github.com/rest/pulls/pulls#list-pull-requests
  app.get(base, auth, (req, res) => {
    const docs = PULL_DOCS.list;
    const access = repoAccess(req, res, context, 'read', docs);
    const oneOf = <T extends string>(name: string, allowed: readonly T[]): T | undefined => {
      const value = queryValue(req, name);
      if (value === undefined) return undefined;
      if (!(allowed as readonly string[]).includes(value)) {
        throw new GitHubApiError(422, 'Validation Failed', docs, {
          errors: [{ resource: 'PullRequest', field: name, code: 'invalid', message: `${name} must be one of ${allowed.join(', ')}` }],
        });
      }
      return value as T;
    };
    const wanted = oneOf('state', ['open', 'closed', 'all'] as const) ?? 'open';
    const sort = oneOf('sort', ['created', 'updated', 'popularity', 'long-running'] as const) ?? 'created';
    const direction = oneOf('direction', ['asc', 'desc'] as const) ?? 'desc';
    const headFilter = queryValue(req, 'head');
    const baseFilter = queryValue(req, 'base');
    const head = headFilter === undefined ? undefined : headFilter.includes(':') ? branchOf(headFilter, access.repo.owner) : undefined;
    const matching = access.state.pulls
      .filter((pr) => wanted === 'all' || pr.state === wanted)
      // GitHub's `head` is `user:ref-name`; another owner (a fork) matches nothing here, a bare name is ignored.
      .filter((pr) => headFilter === undefined || !headFilter.includes(':') || pr.head === head)
      .filter((pr) => baseFilter === undefined || pr.base === baseFilter)
      .sort((a, b) => {
        const key = (pr: PullRequestRecord) => (sort === 'updated' ? pr.updatedAt : pr.createdAt);
        const order = key(a) < key(b) ? -1 : key(a) > key(b) ? 1 : a.number - b.number;
        return direction === 'asc' ? order : -order;
      });
    const urls = urlsOf(req, context);
    const view = viewOf(context, access);
    sendPage(req, res, matching, (pr) => pullRequestSimple(urls, world, view, access.state, pr));
  });

  // https://docs.github.com/rest/pulls/pulls#get-a-pull-request (and its diff and patch media types)
  app.get(`${base}/:number`, auth, (req, res) => {
    const docs = PULL_DOCS.get;
    const access = repoAccess(req, res, context, 'read', docs);
    const pr = pullOf(req, access, docs);
    const kind = diffMediaType(req);
    if (kind) {
      const changes = pullDiff(access.state, currentBaseSha(access.state, pr), currentHeadSha(access.state, pr));
      sendDiffText(res, kind, rangeText(access.state, kind, changes.files, changes.commits));
      return;
    }
    sendOne(res, pullRequest(urlsOf(req, context), world, viewOf(context, access), access.state, pr));
  });

  // https://docs.github.com/rest/pulls/pulls#update-a-pull-request
  app.patch(`${base}/:number`, auth, (req, res) => {
    const docs = PULL_DOCS.update;
    const access = repoAccess(req, res, context, 'write', docs);
    const pr = pullOf(req, access, docs);
    const body = bodyOf(req, docs);
    const title = optionalString(body, 'title', docs);
    const text = Object.hasOwn(body, 'body') ? (optionalString(body, 'body', docs) ?? null) : undefined;
    const wanted = optionalString(body, 'state', docs);
    const newBase = optionalString(body, 'base', docs);
    if (wanted !== undefined && wanted !== 'open' && wanted !== 'closed') {
      throw invalidRequest(`For 'properties/state', ${JSON.stringify(wanted)} is not one of open, closed.`, docs);
    }
    if (title !== undefined && title.trim() === '') throw pullValidation(docs, { field: 'title', code: 'missing_field' });
    if (newBase !== undefined && access.state.git.branch(newBase) === undefined)
      throw pullValidation(docs, { field: 'base', code: 'invalid' });
    let action: 'closed' | 'reopened' | 'edited' | undefined;
    if (wanted === 'open' && pr.state === 'closed') {
      reopenPull(access.state, pr, docs);
      action = 'reopened';
    } else if (wanted === 'closed' && pr.state === 'open') {
      closePull(access.state, pr, userOf(res), state.timestamp());
      action = 'closed';
    }
    const changes: EditChanges = {
      ...(title !== undefined && title !== pr.title ? { title: pr.title } : {}),
      ...(text !== undefined && text !== pr.body ? { body: pr.body } : {}),
      ...(newBase !== undefined && newBase !== pr.base ? { base: { ref: pr.base, sha: currentBaseSha(access.state, pr) } } : {}),
    };
    if (Object.keys(changes).length > 0) action ??= 'edited';
    if (title !== undefined) pr.title = title;
    if (text !== undefined) pr.body = text;
    if (newBase !== undefined) pr.base = newBase;
    pr.updatedAt = state.timestamp();
    if (action) send(req, res, access, action, pr, action === 'edited' ? { changes } : {});
    sendOne(res, pullRequest(urlsOf(req, context), world, viewOf(context, access), access.state, pr));
  });

  // https://docs.github.com/rest/pulls/pulls#check-if-a-pull-request-has-been-merged
  app.get(`${base}/:number/merge`, auth, (req, res) => {
    const docs = PULL_DOCS.checkMerged;
    const access = repoAccess(req, res, context, 'read', docs);
    if (pullOf(req, access, docs).mergedAt === null) throw notFound(docs);
    res.status(204).end();
  });

  // https://docs.github.com/rest/pulls/pulls#merge-a-pull-request
  app.put(`${base}/:number/merge`, auth, (req, res) => {
    const docs = PULL_DOCS.merge;
    const access = repoAccess(req, res, context, 'write', docs);
    const pr = pullOf(req, access, docs);
    const body: Record<string, unknown> = req.body === undefined ? {} : bodyOf(req, docs);
    const method = (optionalString(body, 'merge_method', docs) ?? 'merge') as MergeMethod;
    if (!['merge', 'squash', 'rebase'].includes(method)) {
      throw invalidRequest(`For 'properties/merge_method', ${JSON.stringify(method)} is not one of merge, squash, rebase.`, docs);
    }
    const expected = optionalString(body, 'sha', docs);
    const commitTitle = optionalString(body, 'commit_title', docs);
    const commitMessage = optionalString(body, 'commit_message', docs);
    const notMergeable = () => new GitHubApiError(405, 'Pull Request is not mergeable', docs);
    if (pr.state !== 'open') throw notMergeable();
    if (pr.draft) throw new GitHubApiError(405, 'Pull Request is still a draft', docs);
    const { git } = access.state;
    const headSha = git.branch(pr.head);
    const baseSha = git.branch(pr.base);
    if (headSha === undefined || baseSha === undefined) throw notMergeable();
    if (expected !== undefined && expected.toLowerCase() !== headSha) {
      throw new GitHubApiError(409, 'Head branch was modified. Review and try the merge again.', docs);
    }
    const mergeability = mergeabilityOf(git, baseSha, headSha);
    if (!mergeability.mergeable || mergeability.mergeBase === undefined) throw notMergeable();
    const user = userOf(res);
    const defaultTitle =
      method === 'merge' ? `Merge pull request #${pr.number} from ${access.repo.owner}/${pr.head}` : `${pr.title} (#${pr.number})`;
    const defaultMessage = method === 'merge' ? pr.title : (pr.body ?? '');
    const titleLine = commitTitle ?? defaultTitle;
    const message = (commitMessage ?? defaultMessage) === '' ? titleLine : `${titleLine}\n\n${commitMessage ?? defaultMessage}`;
    const newBase = mergeCommits(git, {
      method,
      baseSha,
      headSha,
      mergeBase: mergeability.mergeBase,
      message,
      committer: userSignature(user, state.now()),
    });
    git.setRef(`refs/heads/${pr.base}`, newBase);
    const now = state.timestamp();
    pr.state = 'closed';
    pr.headSha = headSha;
    pr.baseSha = baseSha;
    pr.mergedAt = now;
    pr.closedAt = now;
    pr.updatedAt = now;
    pr.mergedBy = user;
    pr.closedBy = user;
    pr.mergeCommitSha = newBase;
    notifyPush(req, res, context, access, `refs/heads/${pr.base}`, baseSha, newBase);
    send(req, res, access, 'closed', pr);
    sendOne(res, { sha: newBase, merged: true, message: 'Pull Request successfully merged' });
  });

  // https://docs.github.com/rest/pulls/pulls#update-a-pull-request-branch: merges the base into the head branch.
  app.put(`${base}/:number/update-branch`, auth, (req, res) => {
    const docs = PULL_DOCS.updateBranch;
    const access = repoAccess(req, res, context, 'write', docs);
    const pr = pullOf(req, access, docs);
    const body: Record<string, unknown> = req.body === undefined ? {} : bodyOf(req, docs);
    const expected = optionalString(body, 'expected_head_sha', docs);
    const { git } = access.state;
    const headSha = git.branch(pr.head);
    const baseSha = git.branch(pr.base);
    if (pr.state !== 'open' || headSha === undefined || baseSha === undefined) {
      throw new GitHubApiError(422, 'Validation Failed', docs, {
        errors: [{ resource: 'PullRequest', code: 'custom', message: 'Pull request is closed' }],
      });
    }
    if (expected !== undefined && expected.toLowerCase() !== headSha) {
      throw new GitHubApiError(422, 'expected head sha didn’t match current head ref.', docs);
    }
    const mergeability = mergeabilityOf(git, baseSha, headSha);
    if (mergeability.mergeBase === undefined || !mergeability.mergeable)
      throw new GitHubApiError(422, 'merge conflict between base and head', docs);
    if (mergeability.state === 'behind') {
      const tree = mergedTree(git, mergeability.mergeBase, headSha, baseSha);
      const signature = userSignature(userOf(res), state.now());
      const commit = git.putCommit({
        tree,
        parents: [headSha, baseSha],
        author: signature,
        committer: signature,
        message: `Merge branch '${pr.base}' into ${pr.head}`,
      });
      git.setRef(`refs/heads/${pr.head}`, commit.sha);
      pr.updatedAt = state.timestamp();
      notifyPush(req, res, context, access, `refs/heads/${pr.head}`, headSha, commit.sha);
    }
    sendJson(res, 202, {
      message: 'Updating pull request branch.',
      url: `${context.htmlBaseUrl}/${access.repo.owner}/${access.repo.name}/pull/${pr.number}`,
    });
  });
  // https://docs.github.com/rest/pulls/review-requests#request-reviewers-for-a-pull-request
  app.post(`${base}/:number/requested_reviewers`, auth, (req, res) => {
    const docs = PULL_DOCS.requestReviewers;
    const access = repoAccess(req, res, context, 'triage', docs);
    const pr = pullOf(req, access, docs);
    const body = bodyOf(req, docs);
    const logins = loginList(body, 'reviewers', false, docs);
    const teams = loginList(body, 'team_reviewers', false, docs);
    const users = logins.flatMap((login) => userByLogin(world, login) ?? []);
    if (users.some((user) => user.id === pr.user.id)) {
      throw new GitHubApiError(422, 'Review cannot be requested from pull request author.', docs);
    }
    // The emulator has no teams: any team named is not a collaborator; nor is a login of no user.
    if (teams.length > 0 || users.length < logins.length || users.some((user) => !reviewCollaborator(world, access.repo, user))) {
      throw new GitHubApiError(
        422,
        `Reviews may only be requested from collaborators. One or more of the users or teams you specified is not a collaborator of the ${access.repo.owner}/${access.repo.name} repository.`,
        docs,
      );
    }
    const added: EmulatedUser[] = [];
    for (const user of users) {
      if (pr.requestedReviewers.some((reviewer) => reviewer.id === user.id)) continue;
      pr.requestedReviewers.push(user);
      added.push(user);
    }
    if (added.length > 0) pr.updatedAt = state.timestamp();
    for (const user of added) send(req, res, access, 'review_requested', pr, { requestedReviewer: user });
    sendJson(res, 201, pullRequestSimple(urlsOf(req, context), world, viewOf(context, access), access.state, pr));
  });

  // https://docs.github.com/rest/pulls/review-requests#remove-requested-reviewers-from-a-pull-request
  app.delete(`${base}/:number/requested_reviewers`, auth, (req, res) => {
    const docs = PULL_DOCS.removeReviewers;
    const access = repoAccess(req, res, context, 'triage', docs);
    const pr = pullOf(req, access, docs);
    const body = bodyOf(req, docs);
    const logins = new Set(loginList(body, 'reviewers', true, docs).map((login) => login.toLowerCase()));
    loginList(body, 'team_reviewers', false, docs);
    const removed = pr.requestedReviewers.filter((user) => logins.has(user.login.toLowerCase()));
    if (removed.length > 0) {
      pr.requestedReviewers = pr.requestedReviewers.filter((user) => !logins.has(user.login.toLowerCase()));
      pr.updatedAt = state.timestamp();
    }
    for (const user of removed) send(req, res, access, 'review_request_removed', pr, { requestedReviewer: user });
    sendOne(res, pullRequestSimple(urlsOf(req, context), world, viewOf(context, access), access.state, pr));
  });
}
