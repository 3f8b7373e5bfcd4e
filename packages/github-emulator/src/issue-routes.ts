import type { Express, Request, RequestHandler, Response } from 'express';
import { GitHubApiError, notFound, sendJson } from './github-http.ts';
import { atLeast } from './issues/people.ts';
import { combinedStatus, commitStatus, issueComment, issueLabels, label } from './pulls/representations.ts';
import { type CommentRecord, type IssueEntry, issueEntry, type LabelRecord, type RepoState, type StatusRecord } from './repo-state.ts';
import { sendRepositoryEvent } from './repository-webhooks.ts';
import { bodyOf, invalidRequest, optionalString, requiredString, slashedParam } from './request-body.ts';
import {
  forbidden,
  ownerOf,
  type RepoAccess,
  type RouteContext,
  refuseArchived,
  repoAccess,
  sendOne,
  sendPage,
  urlsOf,
  userOf,
} from './route-helpers.ts';
import { issueCommentPayload, statusPayload } from './webhook-payloads.ts';

/** `documentation_url`s of the label, comment and status endpoints. */
export const ISSUE_DOCS = {
  listLabels: 'https://docs.github.com/rest/issues/labels#list-labels-for-a-repository',
  createLabel: 'https://docs.github.com/rest/issues/labels#create-a-label',
  addLabels: 'https://docs.github.com/rest/issues/labels#add-labels-to-an-issue',
  listIssueLabels: 'https://docs.github.com/rest/issues/labels#list-labels-for-an-issue',
  createComment: 'https://docs.github.com/rest/issues/comments#create-an-issue-comment',
  listComments: 'https://docs.github.com/rest/issues/comments#list-issue-comments',
  getComment: 'https://docs.github.com/rest/issues/comments#get-an-issue-comment',
  updateComment: 'https://docs.github.com/rest/issues/comments#update-an-issue-comment',
  deleteComment: 'https://docs.github.com/rest/issues/comments#delete-an-issue-comment',
  createStatus: 'https://docs.github.com/rest/commits/statuses#create-a-commit-status',
  combinedStatus: 'https://docs.github.com/rest/commits/statuses#get-the-combined-status-for-a-specific-reference',
  checkRuns: 'https://docs.github.com/rest/checks/runs#list-check-runs-for-a-git-reference',
} as const;

/** The colour GitHub gives a label created without one. */
const DEFAULT_LABEL_COLOR = 'ededed';
const STATUS_STATES = ['error', 'failure', 'pending', 'success'] as const;

/**
 * The issue `:number` of the request: an issue, or a pull request (every pull request is an issue).
 * @throws GitHubApiError 404 when there is none
 */
export function issueOf(req: Request, access: { state: RepoState }, docs: string): IssueEntry {
  const text = String(req.params.number);
  const found = /^\d{1,9}$/.test(text) ? issueEntry(access.state, Number(text)) : undefined;
  if (!found) throw notFound(docs);
  return found;
}

/** The comment `:comment_id` of the repository. @throws GitHubApiError 404 when there is none */
function commentOf(req: Request, access: RepoAccess, docs: string): CommentRecord {
  const text = String(req.params.comment_id);
  const id = /^\d{1,15}$/.test(text) ? Number(text) : Number.NaN;
  const found = access.state.comments.find((comment) => comment.id === id);
  if (!found) throw notFound(docs);
  return found;
}

/** A comment's body: a non-empty string. @throws GitHubApiError 422 when missing, not a string or blank */
function commentBody(body: Record<string, unknown>, docs: string): string {
  const text = requiredString(body, 'body', docs);
  if (text.trim() === '') {
    throw new GitHubApiError(422, 'Validation Failed', docs, {
      errors: [{ resource: 'IssueComment', code: 'missing_field', field: 'body' }],
    });
  }
  return text;
}

/** A new label record; `color` without `#`, 6 hex digits (422 otherwise). */
function newLabel(
  ids: { id: number; nodeId: string },
  name: string,
  color: string | undefined,
  description: string | undefined,
  docs: string,
): LabelRecord {
  const hex = (color ?? DEFAULT_LABEL_COLOR).replace(/^#/, '').toLowerCase();
  if (!/^[0-9a-f]{6}$/.test(hex)) {
    throw new GitHubApiError(422, 'Validation Failed', docs, { errors: [{ resource: 'Label', code: 'invalid', field: 'color' }] });
  }
  if (name.trim() === '' || name.length > 50) {
    throw new GitHubApiError(422, 'Validation Failed', docs, { errors: [{ resource: 'Label', code: 'invalid', field: 'name' }] });
  }
  return { ...ids, name, color: hex, description: description ?? null, default: false };
}

/**
 * Sets the labels of issue `number` to `names` (`replace`) or adds them, creating missing labels with the default
 * colour, as GitHub does (https://docs.github.com/rest/issues/labels#add-labels-to-an-issue).
 * @throws GitHubApiError 422 for a name GitHub refuses (blank, over 50 characters)
 */
export function applyLabels(
  state: RepoState,
  newIds: () => { id: number; nodeId: string },
  number: number,
  names: readonly string[],
  replace: boolean,
  docs: string,
): void {
  const current = replace ? [] : (state.issueLabels.get(number) ?? []);
  for (const name of names) {
    const key = name.toLowerCase();
    if (!state.labels.has(key)) state.labels.set(key, newLabel(newIds(), name, undefined, undefined, docs));
    if (!current.includes(key)) current.push(key);
  }
  if (current.length === 0) state.issueLabels.delete(number);
  else state.issueLabels.set(number, current);
}

/** The label names of `POST /issues/{n}/labels`: `{"labels": ["a", {"name": "b"}]}`, or the array itself. */
export function labelNames(body: unknown, docs: string): string[] {
  const list = Array.isArray(body) ? body : (body as { labels?: unknown } | null)?.labels;
  if (!Array.isArray(list)) throw invalidRequest(`"labels" wasn't supplied.`, docs);
  return list.map((item) => {
    const name = typeof item === 'string' ? item : (item as { name?: unknown } | null)?.name;
    if (typeof name !== 'string') throw invalidRequest(`For 'items', ${JSON.stringify(item)} is not a string.`, docs);
    return name;
  });
}

/**
 * Mounts GitHub's label, issue comment, commit status and check run endpoints under `/repos/{owner}/{repo}`:
 * `GET` and `POST /labels`, `GET` and `POST /issues/{n}/labels` (missing labels are created with the default colour,
 * as GitHub does), `GET` and `POST /issues/{n}/comments`, `GET`, `PATCH` and `DELETE /issues/comments/{comment_id}`,
 * `POST /statuses/{sha}`, `GET /commits/{ref}/status` (combined) and `GET /commits/{ref}/check-runs` (always empty: the
 * emulator has no check runs). `{n}` is an issue or a pull request. Labels need triage, statuses write, comments read
 * access (editing or deleting someone else's comment: write) (404 for a repository the token cannot see, 403 below
 * the role). Creating, editing and deleting a comment send `issue_comment` webhooks (`created`, `edited`, `deleted`).
 */
export function mountIssueRoutes(app: Express, context: RouteContext, auth: RequestHandler): void {
  const { world, state } = context;
  const base = '/repos/:owner/:repo';

  // https://docs.github.com/rest/issues/labels#list-labels-for-a-repository
  app.get(`${base}/labels`, auth, (req, res) => {
    const access = repoAccess(req, res, context, 'read', ISSUE_DOCS.listLabels);
    const urls = urlsOf(req, context);
    const all = [...access.state.labels.values()].sort((a, b) => (a.name.toLowerCase() < b.name.toLowerCase() ? -1 : 1));
    sendPage(req, res, all, (record) => label(urls, access.repo, record));
  });

  // https://docs.github.com/rest/issues/labels#create-a-label
  app.post(`${base}/labels`, auth, (req, res) => {
    const docs = ISSUE_DOCS.createLabel;
    const access = repoAccess(req, res, context, 'write', docs);
    const body = bodyOf(req, docs);
    const name = requiredString(body, 'name', docs);
    const record = newLabel(
      state.nextObject('Label'),
      name,
      optionalString(body, 'color', docs),
      optionalString(body, 'description', docs),
      docs,
    );
    if (access.state.labels.has(name.toLowerCase())) {
      throw new GitHubApiError(422, 'Validation Failed', docs, { errors: [{ resource: 'Label', code: 'already_exists', field: 'name' }] });
    }
    access.state.labels.set(name.toLowerCase(), record);
    sendJson(res, 201, label(urlsOf(req, context), access.repo, record));
  });

  // https://docs.github.com/rest/issues/labels#list-labels-for-an-issue
  app.get(`${base}/issues/:number/labels`, auth, (req, res) => {
    const docs = ISSUE_DOCS.listIssueLabels;
    const access = repoAccess(req, res, context, 'read', docs);
    const { record } = issueOf(req, access, docs);
    sendPage(req, res, issueLabels(urlsOf(req, context), access.repo, access.state, record.number), (item) => item);
  });

  // https://docs.github.com/rest/issues/labels#add-labels-to-an-issue
  app.post(`${base}/issues/:number/labels`, auth, (req, res) => {
    const docs = ISSUE_DOCS.addLabels;
    const access = repoAccess(req, res, context, 'triage', docs);
    const { record } = issueOf(req, access, docs);
    applyLabels(access.state, () => state.nextObject('Label'), record.number, labelNames(req.body, docs), false, docs);
    record.updatedAt = state.timestamp();
    sendOne(res, issueLabels(urlsOf(req, context), access.repo, access.state, record.number));
  });

  // https://docs.github.com/rest/issues/comments#list-issue-comments
  app.get(`${base}/issues/:number/comments`, auth, (req, res) => {
    const docs = ISSUE_DOCS.listComments;
    const access = repoAccess(req, res, context, 'read', docs);
    const { record } = issueOf(req, access, docs);
    const urls = urlsOf(req, context);
    const comments = access.state.comments.filter((comment) => comment.issue === record.number);
    sendPage(req, res, comments, (comment) => issueComment(urls, world, access.repo, access.state, comment));
  });

  // https://docs.github.com/rest/issues/comments#create-an-issue-comment
  app.post(`${base}/issues/:number/comments`, auth, (req, res) => {
    const docs = ISSUE_DOCS.createComment;
    const access = repoAccess(req, res, context, 'read', docs);
    refuseArchived(access, docs);
    const entry = issueOf(req, access, docs);
    const body = commentBody(bodyOf(req, docs), docs);
    const now = state.timestamp();
    const comment: CommentRecord = {
      ...state.nextObject('IssueComment'),
      issue: entry.record.number,
      body,
      user: userOf(res),
      createdAt: now,
      updatedAt: now,
    };
    access.state.comments.push(comment);
    entry.record.comments += 1;
    entry.record.updatedAt = now;
    const urls = urlsOf(req, context);
    sendRepositoryEvent(context, access.repo, 'issue_comment', () =>
      issueCommentPayload(urls, world, access, userOf(res), 'created', entry, comment),
    );
    res.setHeader('location', `${urls.apiBase}/repos/${access.repo.owner}/${access.repo.name}/issues/comments/${comment.id}`);
    sendJson(res, 201, issueComment(urls, world, access.repo, access.state, comment));
  });

  // https://docs.github.com/rest/issues/comments#get-an-issue-comment
  app.get(`${base}/issues/comments/:comment_id`, auth, (req, res) => {
    const docs = ISSUE_DOCS.getComment;
    const access = repoAccess(req, res, context, 'read', docs);
    sendOne(res, issueComment(urlsOf(req, context), world, access.repo, access.state, commentOf(req, access, docs)));
  });

  /** The comment of the request, when the caller may change it: its author, or anyone with write access. @throws 403, 404 */
  const changeableComment = (req: Request, res: Response, access: RepoAccess, docs: string): CommentRecord => {
    refuseArchived(access, docs);
    const comment = commentOf(req, access, docs);
    if (comment.user.id !== userOf(res).id && !atLeast(access.role, 'write')) throw forbidden(res, docs);
    return comment;
  };

  // https://docs.github.com/rest/issues/comments#update-an-issue-comment
  app.patch(`${base}/issues/comments/:comment_id`, auth, (req, res) => {
    const docs = ISSUE_DOCS.updateComment;
    const access = repoAccess(req, res, context, 'read', docs);
    const comment = changeableComment(req, res, access, docs);
    const body = commentBody(bodyOf(req, docs), docs);
    const previous = comment.body;
    comment.body = body;
    comment.updatedAt = state.timestamp();
    const entry = issueEntry(access.state, comment.issue);
    const urls = urlsOf(req, context);
    if (entry && previous !== body) {
      sendRepositoryEvent(context, access.repo, 'issue_comment', () =>
        issueCommentPayload(urls, world, access, userOf(res), 'edited', entry, comment, previous),
      );
    }
    sendOne(res, issueComment(urls, world, access.repo, access.state, comment));
  });

  // https://docs.github.com/rest/issues/comments#delete-an-issue-comment
  app.delete(`${base}/issues/comments/:comment_id`, auth, (req, res) => {
    const docs = ISSUE_DOCS.deleteComment;
    const access = repoAccess(req, res, context, 'read', docs);
    const comment = changeableComment(req, res, access, docs);
    access.state.comments.splice(access.state.comments.indexOf(comment), 1);
    const entry = issueEntry(access.state, comment.issue);
    if (entry) {
      entry.record.comments = Math.max(0, entry.record.comments - 1);
      const urls = urlsOf(req, context);
      sendRepositoryEvent(context, access.repo, 'issue_comment', () =>
        issueCommentPayload(urls, world, access, userOf(res), 'deleted', entry, comment),
      );
    }
    res.status(204).end();
  });

  // https://docs.github.com/rest/commits/statuses#create-a-commit-status
  app.post(`${base}/statuses/:sha`, auth, (req, res) => {
    const docs = ISSUE_DOCS.createStatus;
    const access = repoAccess(req, res, context, 'write', docs);
    const sha = String(req.params.sha).toLowerCase();
    if (!access.state.git.commit(sha)) throw new GitHubApiError(422, `No commit found for SHA: ${req.params.sha}`, docs);
    const body = bodyOf(req, docs);
    const wanted = requiredString(body, 'state', docs);
    if (!(STATUS_STATES as readonly string[]).includes(wanted)) {
      throw new GitHubApiError(422, 'Validation Failed', docs, {
        errors: [{ resource: 'Status', code: 'custom', field: 'state', message: `state is not included in the list` }],
      });
    }
    const record: StatusRecord = {
      ...state.nextObject('StatusContext'),
      sha,
      state: wanted as StatusRecord['state'],
      targetUrl: optionalString(body, 'target_url', docs) ?? null,
      description: optionalString(body, 'description', docs) ?? null,
      context: optionalString(body, 'context', docs) ?? 'default',
      creator: userOf(res),
      createdAt: state.timestamp(),
    };
    access.state.statuses.push(record);
    sendRepositoryEvent(context, access.repo, 'status', () => statusPayload(urlsOf(req, context), world, access, userOf(res), record));
    sendJson(res, 201, commitStatus(urlsOf(req, context), access.repo, record));
  });

  // https://docs.github.com/rest/commits/statuses#get-the-combined-status-for-a-specific-reference
  app.get(`${base}/commits/*ref/status`, auth, (req, res) => {
    const docs = ISSUE_DOCS.combinedStatus;
    const access = repoAccess(req, res, context, 'read', docs);
    const ref = slashedParam(req, 'ref');
    const sha = access.state.git.resolve(ref);
    if (sha === undefined) throw new GitHubApiError(404, `No commit found for SHA: ${ref}`, docs);
    const view = { repo: access.repo, owner: ownerOf(world, access.repo), role: access.role };
    sendOne(res, combinedStatus(urlsOf(req, context), view, access.state, sha));
  });

  // https://docs.github.com/rest/checks/runs#list-check-runs-for-a-git-reference
  app.get(`${base}/commits/*ref/check-runs`, auth, (req, res) => {
    const docs = ISSUE_DOCS.checkRuns;
    const access = repoAccess(req, res, context, 'read', docs);
    const ref = slashedParam(req, 'ref');
    if (access.state.git.resolve(ref) === undefined) throw new GitHubApiError(422, `No commit found for SHA: ${ref}`, docs);
    sendOne(res, { total_count: 0, check_runs: [] });
  });
}
