import type { Express, Request, RequestHandler } from 'express';
import { GitHubApiError, notFound, sendJson } from './github-http.ts';
import { combinedStatus, commitStatus, issueComment, issueLabels, label } from './pulls/representations.ts';
import type { LabelRecord, PullRequestRecord, StatusRecord } from './repo-state.ts';
import { bodyOf, invalidRequest, optionalString, requiredString, slashedParam } from './request-body.ts';
import { ownerOf, type RepoAccess, type RouteContext, repoAccess, sendOne, sendPage, urlsOf, userOf } from './route-helpers.ts';
import { statusPayload } from './webhook-payloads.ts';

/** `documentation_url`s of the label, comment and status endpoints. */
export const ISSUE_DOCS = {
  listLabels: 'https://docs.github.com/rest/issues/labels#list-labels-for-a-repository',
  createLabel: 'https://docs.github.com/rest/issues/labels#create-a-label',
  addLabels: 'https://docs.github.com/rest/issues/labels#add-labels-to-an-issue',
  listIssueLabels: 'https://docs.github.com/rest/issues/labels#list-labels-for-an-issue',
  createComment: 'https://docs.github.com/rest/issues/comments#create-an-issue-comment',
  listComments: 'https://docs.github.com/rest/issues/comments#list-issue-comments',
  createStatus: 'https://docs.github.com/rest/commits/statuses#create-a-commit-status',
  combinedStatus: 'https://docs.github.com/rest/commits/statuses#get-the-combined-status-for-a-specific-reference',
  checkRuns: 'https://docs.github.com/rest/checks/runs#list-check-runs-for-a-git-reference',
} as const;

/** The colour GitHub gives a label created without one. */
const DEFAULT_LABEL_COLOR = 'ededed';
const STATUS_STATES = ['error', 'failure', 'pending', 'success'] as const;

/** The issue (a pull request here: the emulator has no other issues) `:number`. @throws GitHubApiError 404 when there is none */
function issueOf(req: Request, access: RepoAccess, docs: string): PullRequestRecord {
  const text = String(req.params.number);
  const number = /^\d{1,9}$/.test(text) ? Number(text) : Number.NaN;
  const found = access.state.pulls.find((pr) => pr.number === number);
  if (!found) throw notFound(docs);
  return found;
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

/** The label names of `POST /issues/{n}/labels`: `{"labels": ["a", {"name": "b"}]}`, or the array itself. */
function labelNames(body: unknown, docs: string): string[] {
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
 * as GitHub does), `GET` and `POST /issues/{n}/comments`, `POST /statuses/{sha}`, `GET /commits/{ref}/status`
 * (combined) and `GET /commits/{ref}/check-runs` (always empty: the emulator has no check runs). Labels need triage,
 * statuses write, comments read access (404 for a repository the token cannot see, 403 below the role).
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
    const issue = issueOf(req, access, docs);
    sendPage(req, res, issueLabels(urlsOf(req, context), access.repo, access.state, issue.number), (item) => item);
  });

  // https://docs.github.com/rest/issues/labels#add-labels-to-an-issue
  app.post(`${base}/issues/:number/labels`, auth, (req, res) => {
    const docs = ISSUE_DOCS.addLabels;
    const access = repoAccess(req, res, context, 'triage', docs);
    const issue = issueOf(req, access, docs);
    const names = labelNames(req.body, docs);
    const current = access.state.issueLabels.get(issue.number) ?? [];
    for (const name of names) {
      const key = name.toLowerCase();
      if (!access.state.labels.has(key))
        access.state.labels.set(key, newLabel(state.nextObject('Label'), name, undefined, undefined, docs));
      if (!current.includes(key)) current.push(key);
    }
    access.state.issueLabels.set(issue.number, current);
    issue.updatedAt = state.timestamp();
    sendOne(res, issueLabels(urlsOf(req, context), access.repo, access.state, issue.number));
  });

  // https://docs.github.com/rest/issues/comments#list-issue-comments
  app.get(`${base}/issues/:number/comments`, auth, (req, res) => {
    const docs = ISSUE_DOCS.listComments;
    const access = repoAccess(req, res, context, 'read', docs);
    const issue = issueOf(req, access, docs);
    const urls = urlsOf(req, context);
    const comments = access.state.comments.filter((comment) => comment.issue === issue.number);
    sendPage(req, res, comments, (comment) => issueComment(urls, world, access.repo, comment));
  });

  // https://docs.github.com/rest/issues/comments#create-an-issue-comment
  app.post(`${base}/issues/:number/comments`, auth, (req, res) => {
    const docs = ISSUE_DOCS.createComment;
    const access = repoAccess(req, res, context, 'read', docs);
    const issue = issueOf(req, access, docs);
    const body = requiredString(bodyOf(req, docs), 'body', docs);
    if (body.trim() === '') {
      throw new GitHubApiError(422, 'Validation Failed', docs, {
        errors: [{ resource: 'IssueComment', code: 'missing_field', field: 'body' }],
      });
    }
    const comment = { ...state.nextObject('IssueComment'), issue: issue.number, body, user: userOf(res), createdAt: state.timestamp() };
    access.state.comments.push(comment);
    issue.comments += 1;
    issue.updatedAt = comment.createdAt;
    sendJson(res, 201, issueComment(urlsOf(req, context), world, access.repo, comment));
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
    context.webhooks.send('status', () => statusPayload(urlsOf(req, context), world, access, userOf(res), record));
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
