import type { Express, Request, RequestHandler, Response } from 'express';
import { GitHubApiError, notFound, queryValue, sendJson } from '../github-http.ts';
import { applyLabels, issueOf, labelNames } from '../issue-routes.ts';
import { milestone } from '../pulls/representations.ts';
import { closePull, reopenPull } from '../pulls/state-changes.ts';
import {
  type IssueEntry,
  type IssueRecord,
  type IssueStateReason,
  type MilestoneRecord,
  nextIssueNumber,
  type RepoState,
} from '../repo-state.ts';
import { sendRepositoryEvent } from '../repository-webhooks.ts';
import { bodyOf, invalidRequest, optionalString } from '../request-body.ts';
import {
  forbidden,
  type RepoAccess,
  type RouteContext,
  refuseArchived,
  repoAccess,
  sendOne,
  sendPage,
  urlsOf,
  userOf,
} from '../route-helpers.ts';
import { type EditChanges, type EventDetail, issuesPayload, pullRequestPayload } from '../webhook-payloads.ts';
import type { EmulatedUser } from '../world.ts';
import { assignable, atLeast, MAX_ASSIGNEES, userByLogin } from './people.ts';
import { collaboratorPermission, issue } from './representations.ts';

/** `documentation_url`s of the issue, assignee, milestone and collaborator permission endpoints. */
export const TRACKER_DOCS = {
  createIssue: 'https://docs.github.com/rest/issues/issues#create-an-issue',
  listIssues: 'https://docs.github.com/rest/issues/issues#list-repository-issues',
  getIssue: 'https://docs.github.com/rest/issues/issues#get-an-issue',
  updateIssue: 'https://docs.github.com/rest/issues/issues#update-an-issue',
  addAssignees: 'https://docs.github.com/rest/issues/assignees#add-assignees-to-an-issue',
  removeAssignees: 'https://docs.github.com/rest/issues/assignees#remove-assignees-from-an-issue',
  checkAssignee: 'https://docs.github.com/rest/issues/assignees#check-if-a-user-can-be-assigned',
  listMilestones: 'https://docs.github.com/rest/issues/milestones#list-milestones',
  createMilestone: 'https://docs.github.com/rest/issues/milestones#create-a-milestone',
  getMilestone: 'https://docs.github.com/rest/issues/milestones#get-a-milestone',
  permission: 'https://docs.github.com/rest/collaborators/collaborators#get-repository-permissions-for-a-user',
} as const;

const STATE_REASONS = ['completed', 'not_planned', 'duplicate', 'reopened'] as const;

/** 422 `Validation Failed` naming one invalid field of a `resource` (GitHub's `validation-error`). */
function invalidField(docs: string, resource: string, field: string, code: string, value?: unknown): GitHubApiError {
  return new GitHubApiError(422, 'Validation Failed', docs, {
    errors: [{ resource, field, code, ...(value === undefined ? {} : { value }) }],
  });
}

/**
 * An issue's `title` (a string or an integer, as GitHub takes it); undefined when absent and not `required`.
 * @throws GitHubApiError 422 when missing but required, of another type, or blank
 */
function titleOf(body: Record<string, unknown>, required: boolean, docs: string): string | undefined {
  const value = body.title;
  if (value === undefined || (value === null && !required)) {
    if (required) throw invalidRequest(`"title" wasn't supplied.`, docs);
    return undefined;
  }
  if (typeof value !== 'string' && !Number.isInteger(value)) {
    throw invalidRequest(`For 'properties/title', ${JSON.stringify(value)} is not a string or integer.`, docs);
  }
  const title = String(value);
  if (title.trim() === '') throw invalidField(docs, 'Issue', 'title', 'missing_field');
  return title;
}

/**
 * The milestone `number` a body's `milestone` names (an integer or its digits; null: none), undefined when absent.
 * @throws GitHubApiError 422 when of another type, or naming no milestone of the repository (`code: invalid`)
 */
function milestoneField(body: Record<string, unknown>, state: RepoState, docs: string): number | null | undefined {
  if (!Object.hasOwn(body, 'milestone')) return undefined;
  const value = body.milestone;
  if (value === null) return null;
  const number = typeof value === 'number' ? value : typeof value === 'string' && /^\d{1,9}$/.test(value) ? Number(value) : Number.NaN;
  if (typeof value !== 'number' && typeof value !== 'string') {
    throw invalidRequest(`For 'properties/milestone', ${JSON.stringify(value)} is not a string or integer.`, docs);
  }
  if (!state.milestones.some((candidate) => candidate.number === number)) throw invalidField(docs, 'Issue', 'milestone', 'invalid', value);
  return number;
}

/** The logins of a body's `assignees` (plus the older `assignee`), undefined when neither is there. @throws GitHubApiError 422 on a wrong type */
function assigneeLogins(body: Record<string, unknown>, docs: string): string[] | undefined {
  const list = body.assignees;
  const single = body.assignee;
  if ((list === undefined || list === null) && (single === undefined || single === null)) return undefined;
  const logins: string[] = [];
  if (list !== undefined && list !== null) {
    if (!Array.isArray(list)) throw invalidRequest(`For 'properties/assignees', ${JSON.stringify(list)} is not an array.`, docs);
    for (const item of list) {
      const login = typeof item === 'string' ? item : (item as { login?: unknown } | null)?.login;
      if (typeof login !== 'string') throw invalidRequest(`For 'items', ${JSON.stringify(item)} is not a string.`, docs);
      logins.push(login);
    }
  }
  if (single !== undefined && single !== null) {
    if (typeof single !== 'string') throw invalidRequest(`For 'properties/assignee', ${JSON.stringify(single)} is not a string.`, docs);
    logins.unshift(single);
  }
  return logins;
}

/**
 * The distinct users of `logins` that `caller` may assign ({@link assignable}); with `strict`, 422 for a login of no
 * one assignable (`code: invalid`), else such logins are dropped.
 */
function assigneesOf(
  context: RouteContext,
  access: RepoAccess,
  caller: EmulatedUser,
  number: number | undefined,
  logins: readonly string[],
  strict: boolean,
  docs: string,
): EmulatedUser[] {
  const users: EmulatedUser[] = [];
  for (const login of logins) {
    const user = userByLogin(context.world, login);
    if (!user || !assignable(context.world, access.repo, access.state, user, number, caller)) {
      if (strict) throw invalidField(docs, 'Issue', 'assignees', 'invalid', login);
      continue;
    }
    if (!users.some((known) => known.id === user.id)) users.push(user);
  }
  return users;
}

/** Sets an issue's or pull request's assignees to the distinct `users` (at most 10); returns who was added and who removed. */
function setAssignees(record: { assignees: EmulatedUser[] }, users: readonly EmulatedUser[]) {
  const next = users.filter((user, index) => users.findIndex((other) => other.id === user.id) === index).slice(0, MAX_ASSIGNEES);
  const added = next.filter((user) => !record.assignees.some((known) => known.id === user.id));
  const removed = record.assignees.filter((known) => !next.some((user) => user.id === known.id));
  record.assignees = next;
  return { added, removed };
}

/** The milestone `:number` of the request. @throws GitHubApiError 404 when there is none */
function milestoneOfRequest(req: Request, access: RepoAccess, docs: string): MilestoneRecord {
  const text = String(req.params.number);
  const number = /^\d{1,9}$/.test(text) ? Number(text) : Number.NaN;
  const found = access.state.milestones.find((candidate) => candidate.number === number);
  if (!found) throw notFound(docs);
  return found;
}

/** A query parameter that must be one of `allowed`. @throws GitHubApiError 422 `Validation Failed` otherwise */
function queryOneOf<T extends string>(req: Request, name: string, allowed: readonly T[], resource: string, docs: string): T | undefined {
  const value = queryValue(req, name);
  if (value === undefined) return undefined;
  if (!(allowed as readonly string[]).includes(value)) {
    throw new GitHubApiError(422, 'Validation Failed', docs, {
      errors: [{ resource, field: name, code: 'invalid', message: `${name} must be one of ${allowed.join(', ')}` }],
    });
  }
  return value as T;
}

/**
 * Mounts GitHub's issue endpoints (https://docs.github.com/rest/issues) under `/repos/{owner}/{repo}`: `POST` and
 * `GET /issues` (pull requests listed too, with their `pull_request` key), `GET` and `PATCH /issues/{n}` (on a pull
 * request's number, closing, reopening and editing it), `POST` and `DELETE /issues/{n}/assignees`,
 * `GET /assignees/{assignee}`, `GET` and `POST /milestones`, `GET /milestones/{n}`; and
 * `GET /collaborators/{username}/permission` (https://docs.github.com/rest/collaborators/collaborators). Issues and
 * pull requests share one sequence of numbers. Reading and opening issues needs read access; labels, assignees and
 * milestones are set only by callers with triage access or more (silently dropped otherwise, as GitHub drops them for
 * users without push access); editing an issue needs to be its author or to have triage access (403); creating a
 * milestone and reading a permission need write access (403 `Must have push access to view collaborator
 * permission.`). Issues send `issues` webhooks (`opened`, `closed`, `reopened`, `edited`, `assigned`, `unassigned`);
 * a pull request changed through these routes sends the `pull_request` webhook of the same action.
 */
export function mountIssueTrackerRoutes(app: Express, context: RouteContext, auth: RequestHandler): void {
  const { world, state } = context;
  const base = '/repos/:owner/:repo';

  const notify = (
    req: Request,
    res: Response,
    access: RepoAccess,
    entry: IssueEntry,
    action: 'opened' | 'closed' | 'reopened' | 'edited' | 'assigned' | 'unassigned',
    detail: EventDetail = {},
  ) => {
    const urls = urlsOf(req, context);
    if (entry.kind === 'pull') {
      sendRepositoryEvent(context, access.repo, 'pull_request', () =>
        pullRequestPayload(urls, world, access, userOf(res), action, entry.record, detail),
      );
    } else {
      sendRepositoryEvent(context, access.repo, 'issues', () =>
        issuesPayload(urls, world, access, userOf(res), action, entry.record, detail),
      );
    }
  };
  const notifyAssignees = (
    req: Request,
    res: Response,
    access: RepoAccess,
    entry: IssueEntry,
    changed: ReturnType<typeof setAssignees>,
  ) => {
    for (const user of changed.added) notify(req, res, access, entry, 'assigned', { assignee: user });
    for (const user of changed.removed) notify(req, res, access, entry, 'unassigned', { assignee: user });
  };
  const render = (req: Request, access: RepoAccess, entry: IssueEntry) =>
    issue(urlsOf(req, context), world, access.repo, access.state, entry);

  // https://docs.github.com/rest/issues/issues#create-an-issue
  app.post(`${base}/issues`, auth, (req, res) => {
    const docs = TRACKER_DOCS.createIssue;
    const access = repoAccess(req, res, context, 'read', docs);
    refuseArchived(access, docs);
    const body = bodyOf(req, docs);
    const title = titleOf(body, true, docs) as string;
    const text = optionalString(body, 'body', docs) ?? null;
    const labels = body.labels === undefined || body.labels === null ? undefined : labelNames({ labels: body.labels }, docs);
    const logins = assigneeLogins(body, docs);
    const milestoneNumber = milestoneField(body, access.state, docs);
    // GitHub silently drops labels, assignees and a milestone from a caller who may not set them.
    const mayTriage = atLeast(access.role, 'triage');
    const assignees = mayTriage && logins ? assigneesOf(context, access, userOf(res), undefined, logins, true, docs) : [];
    const now = state.timestamp();
    const record: IssueRecord = {
      ...state.nextObject('Issue'),
      number: nextIssueNumber(access.state),
      title,
      body: text,
      state: 'open',
      stateReason: null,
      user: userOf(res),
      createdAt: now,
      updatedAt: now,
      closedAt: null,
      closedBy: null,
      comments: 0,
      assignees: assignees.slice(0, MAX_ASSIGNEES),
      milestone: mayTriage ? (milestoneNumber ?? null) : null,
    };
    if (mayTriage && labels) applyLabels(access.state, () => state.nextObject('Label'), record.number, labels, true, docs);
    access.state.issues.push(record);
    const entry: IssueEntry = { kind: 'issue', record };
    notify(req, res, access, entry, 'opened');
    const urls = urlsOf(req, context);
    res.setHeader('location', `${urls.apiBase}/repos/${access.repo.owner}/${access.repo.name}/issues/${record.number}`);
    sendJson(res, 201, render(req, access, entry));
  });

  // https://docs.github.com/rest/issues/issues#list-repository-issues
  app.get(`${base}/issues`, auth, (req, res) => {
    const docs = TRACKER_DOCS.listIssues;
    const access = repoAccess(req, res, context, 'read', docs);
    const wanted = queryOneOf(req, 'state', ['open', 'closed', 'all'] as const, 'Issue', docs) ?? 'open';
    const sort = queryOneOf(req, 'sort', ['created', 'updated', 'comments'] as const, 'Issue', docs) ?? 'created';
    const direction = queryOneOf(req, 'direction', ['asc', 'desc'] as const, 'Issue', docs) ?? 'desc';
    const creator = queryValue(req, 'creator')?.toLowerCase();
    const assignee = queryValue(req, 'assignee')?.toLowerCase();
    const milestoneFilter = queryValue(req, 'milestone');
    const labels = (queryValue(req, 'labels') ?? '')
      .split(',')
      .map((name) => name.trim().toLowerCase())
      .filter((name) => name !== '');
    const since = queryValue(req, 'since');
    const sinceMs = since === undefined ? undefined : Date.parse(since);
    if (sinceMs !== undefined && Number.isNaN(sinceMs)) {
      throw new GitHubApiError(422, 'Validation Failed', docs, {
        errors: [{ resource: 'Issue', field: 'since', code: 'invalid', message: 'since must be an ISO 8601 timestamp' }],
      });
    }
    const entries: IssueEntry[] = [
      ...access.state.pulls.map((record): IssueEntry => ({ kind: 'pull', record })),
      ...access.state.issues.map((record): IssueEntry => ({ kind: 'issue', record })),
    ];
    const matching = entries
      .filter(({ record }) => wanted === 'all' || record.state === wanted)
      .filter(({ record }) => creator === undefined || record.user.login.toLowerCase() === creator)
      .filter(({ record }) => {
        if (assignee === undefined) return true;
        if (assignee === 'none') return record.assignees.length === 0;
        if (assignee === '*') return record.assignees.length > 0;
        return record.assignees.some((user) => user.login.toLowerCase() === assignee);
      })
      .filter(({ record }) => {
        if (milestoneFilter === undefined) return true;
        if (milestoneFilter === 'none') return record.milestone === null;
        if (milestoneFilter === '*') return record.milestone !== null;
        return String(record.milestone) === milestoneFilter;
      })
      .filter(({ record }) => {
        const own = access.state.issueLabels.get(record.number) ?? [];
        return labels.every((name) => own.includes(name));
      })
      .filter(({ record }) => sinceMs === undefined || Date.parse(record.updatedAt) >= sinceMs)
      .sort((a, b) => {
        const key = ({ record }: IssueEntry) =>
          sort === 'comments' ? record.comments : Date.parse(sort === 'updated' ? record.updatedAt : record.createdAt);
        const order = key(a) - key(b) || a.record.number - b.record.number;
        return direction === 'asc' ? order : -order;
      });
    sendPage(req, res, matching, (entry) => render(req, access, entry));
  });

  // https://docs.github.com/rest/issues/issues#get-an-issue
  app.get(`${base}/issues/:number`, auth, (req, res) => {
    const docs = TRACKER_DOCS.getIssue;
    const access = repoAccess(req, res, context, 'read', docs);
    sendOne(res, render(req, access, issueOf(req, access, docs)));
  });

  // https://docs.github.com/rest/issues/issues#update-an-issue
  app.patch(`${base}/issues/:number`, auth, (req, res) => {
    const docs = TRACKER_DOCS.updateIssue;
    const access = repoAccess(req, res, context, 'read', docs);
    const entry = issueOf(req, access, docs);
    const { record } = entry;
    const caller = userOf(res);
    const mayTriage = atLeast(access.role, 'triage');
    if (!mayTriage && record.user.id !== caller.id) throw forbidden(res, docs);
    refuseArchived(access, docs);
    const body = bodyOf(req, docs);
    const title = titleOf(body, false, docs);
    const text = Object.hasOwn(body, 'body') ? (optionalString(body, 'body', docs) ?? null) : undefined;
    const wanted = optionalString(body, 'state', docs);
    if (wanted !== undefined && wanted !== 'open' && wanted !== 'closed') {
      throw invalidRequest(`For 'properties/state', ${JSON.stringify(wanted)} is not one of open, closed.`, docs);
    }
    const reason = optionalString(body, 'state_reason', docs);
    if (reason !== undefined && !(STATE_REASONS as readonly string[]).includes(reason)) {
      throw invalidRequest(`For 'properties/state_reason', ${JSON.stringify(reason)} is not one of ${STATE_REASONS.join(', ')}.`, docs);
    }
    const labels = body.labels === undefined || body.labels === null ? undefined : labelNames({ labels: body.labels }, docs);
    const logins = assigneeLogins(body, docs);
    const milestoneNumber = milestoneField(body, access.state, docs);
    const assignees = mayTriage && logins ? assigneesOf(context, access, caller, record.number, logins, true, docs) : undefined;
    const now = state.timestamp();

    let action: 'closed' | 'reopened' | undefined;
    if (wanted === 'closed' && record.state === 'open') {
      if (entry.kind === 'pull') closePull(access.state, entry.record, caller, now);
      else {
        entry.record.state = 'closed';
        entry.record.stateReason = reason === undefined || reason === 'reopened' ? 'completed' : (reason as IssueStateReason);
        entry.record.closedAt = now;
        entry.record.closedBy = caller;
      }
      action = 'closed';
    } else if (wanted === 'open' && record.state === 'closed') {
      if (entry.kind === 'pull') reopenPull(access.state, entry.record, docs);
      else {
        entry.record.state = 'open';
        entry.record.stateReason = 'reopened';
        entry.record.closedAt = null;
        entry.record.closedBy = null;
      }
      action = 'reopened';
    }
    const changes: EditChanges = {
      ...(title !== undefined && title !== record.title ? { title: record.title } : {}),
      ...(text !== undefined && text !== record.body ? { body: record.body } : {}),
    };
    if (title !== undefined) record.title = title;
    if (text !== undefined) record.body = text;
    if (mayTriage && labels) applyLabels(access.state, () => state.nextObject('Label'), record.number, labels, true, docs);
    if (mayTriage && milestoneNumber !== undefined) record.milestone = milestoneNumber;
    const assigned = assignees ? setAssignees(record, assignees) : { added: [], removed: [] };
    record.updatedAt = now;
    if (action) notify(req, res, access, entry, action);
    if (Object.keys(changes).length > 0) notify(req, res, access, entry, 'edited', { changes });
    notifyAssignees(req, res, access, entry, assigned);
    sendOne(res, render(req, access, entry));
  });

  // https://docs.github.com/rest/issues/assignees#add-assignees-to-an-issue
  app.post(`${base}/issues/:number/assignees`, auth, (req, res) => {
    const docs = TRACKER_DOCS.addAssignees;
    const access = repoAccess(req, res, context, 'read', docs);
    refuseArchived(access, docs);
    const entry = issueOf(req, access, docs);
    const logins = assigneeLogins(bodyOf(req, docs), docs) ?? [];
    // Only callers who may assign do; the others' assignees, and logins that cannot be assigned, are silently dropped.
    if (atLeast(access.role, 'triage')) {
      const users = assigneesOf(context, access, userOf(res), entry.record.number, logins, false, docs);
      const changed = setAssignees(entry.record, [...entry.record.assignees, ...users]);
      if (changed.added.length > 0) entry.record.updatedAt = state.timestamp();
      notifyAssignees(req, res, access, entry, changed);
    }
    sendJson(res, 201, render(req, access, entry));
  });

  // https://docs.github.com/rest/issues/assignees#remove-assignees-from-an-issue
  app.delete(`${base}/issues/:number/assignees`, auth, (req, res) => {
    const docs = TRACKER_DOCS.removeAssignees;
    const access = repoAccess(req, res, context, 'read', docs);
    refuseArchived(access, docs);
    const entry = issueOf(req, access, docs);
    const body: Record<string, unknown> = req.body === undefined ? {} : bodyOf(req, docs);
    const logins = new Set((assigneeLogins(body, docs) ?? []).map((login) => login.toLowerCase()));
    if (atLeast(access.role, 'triage')) {
      const kept = entry.record.assignees.filter((user) => !logins.has(user.login.toLowerCase()));
      const changed = setAssignees(entry.record, kept);
      if (changed.removed.length > 0) entry.record.updatedAt = state.timestamp();
      notifyAssignees(req, res, access, entry, changed);
    }
    sendOne(res, render(req, access, entry));
  });

  // https://docs.github.com/rest/issues/assignees#check-if-a-user-can-be-assigned
  app.get(`${base}/assignees/:assignee`, auth, (req, res) => {
    const docs = TRACKER_DOCS.checkAssignee;
    const access = repoAccess(req, res, context, 'read', docs);
    const user = userByLogin(world, String(req.params.assignee));
    if (!user || !assignable(world, access.repo, access.state, user)) throw notFound(docs);
    res.status(204).end();
  });

  // https://docs.github.com/rest/issues/milestones#list-milestones
  app.get(`${base}/milestones`, auth, (req, res) => {
    const docs = TRACKER_DOCS.listMilestones;
    const access = repoAccess(req, res, context, 'read', docs);
    const wanted = queryOneOf(req, 'state', ['open', 'closed', 'all'] as const, 'Milestone', docs) ?? 'open';
    const sort = queryOneOf(req, 'sort', ['due_on', 'completeness'] as const, 'Milestone', docs) ?? 'due_on';
    const direction = queryOneOf(req, 'direction', ['asc', 'desc'] as const, 'Milestone', docs) ?? 'asc';
    const urls = urlsOf(req, context);
    const rendered = access.state.milestones
      .filter((record) => wanted === 'all' || record.state === wanted)
      .map((record) => milestone(urls, access.repo, access.state, record));
    const key = (item: (typeof rendered)[number]) => {
      if (sort === 'completeness') {
        const total = item.open_issues + item.closed_issues;
        return total === 0 ? 0 : item.closed_issues / total;
      }
      // Milestones without a due date come after those with one.
      return item.due_on === null ? Number.POSITIVE_INFINITY : Date.parse(item.due_on);
    };
    rendered.sort((a, b) => {
      const order = key(a) === key(b) ? a.number - b.number : key(a) < key(b) ? -1 : 1;
      return direction === 'asc' ? order : -order;
    });
    sendPage(req, res, rendered, (item) => item);
  });

  // https://docs.github.com/rest/issues/milestones#create-a-milestone
  app.post(`${base}/milestones`, auth, (req, res) => {
    const docs = TRACKER_DOCS.createMilestone;
    const access = repoAccess(req, res, context, 'write', docs);
    const body = bodyOf(req, docs);
    const title = optionalString(body, 'title', docs);
    if (title === undefined) throw invalidRequest(`"title" wasn't supplied.`, docs);
    if (title.trim() === '') throw invalidField(docs, 'Milestone', 'title', 'missing_field');
    const wanted = optionalString(body, 'state', docs) ?? 'open';
    if (wanted !== 'open' && wanted !== 'closed') {
      throw invalidRequest(`For 'properties/state', ${JSON.stringify(wanted)} is not one of open, closed.`, docs);
    }
    const dueOn = optionalString(body, 'due_on', docs);
    if (dueOn !== undefined && Number.isNaN(Date.parse(dueOn))) {
      throw invalidRequest(`For 'properties/due_on', ${JSON.stringify(dueOn)} is not a date-time.`, docs);
    }
    if (access.state.milestones.some((record) => record.title.toLowerCase() === title.toLowerCase())) {
      throw invalidField(docs, 'Milestone', 'title', 'already_exists');
    }
    const now = state.timestamp();
    const record: MilestoneRecord = {
      ...state.nextObject('Milestone'),
      number: access.state.milestones.reduce((highest, item) => Math.max(highest, item.number), 0) + 1,
      title,
      description: optionalString(body, 'description', docs) ?? null,
      state: wanted,
      dueOn: dueOn === undefined ? null : new Date(Date.parse(dueOn)).toISOString().replace(/\.\d{3}Z$/, 'Z'),
      creator: userOf(res),
      createdAt: now,
      updatedAt: now,
      closedAt: wanted === 'closed' ? now : null,
    };
    access.state.milestones.push(record);
    const urls = urlsOf(req, context);
    res.setHeader('location', `${urls.apiBase}/repos/${access.repo.owner}/${access.repo.name}/milestones/${record.number}`);
    sendJson(res, 201, milestone(urls, access.repo, access.state, record));
  });

  // https://docs.github.com/rest/issues/milestones#get-a-milestone
  app.get(`${base}/milestones/:number`, auth, (req, res) => {
    const docs = TRACKER_DOCS.getMilestone;
    const access = repoAccess(req, res, context, 'read', docs);
    sendOne(res, milestone(urlsOf(req, context), access.repo, access.state, milestoneOfRequest(req, access, docs)));
  });

  // https://docs.github.com/rest/collaborators/collaborators#get-repository-permissions-for-a-user
  app.get(`${base}/collaborators/:username/permission`, auth, (req, res) => {
    const docs = TRACKER_DOCS.permission;
    const access = repoAccess(req, res, context, 'read', docs);
    if (!atLeast(access.role, 'write')) throw forbidden(res, docs, 'Must have push access to view collaborator permission.');
    const user = userByLogin(world, String(req.params.username));
    if (!user) throw notFound(docs);
    sendOne(res, collaboratorPermission(urlsOf(req, context), user, world.roleOn(user, access.repo)));
  });
}
