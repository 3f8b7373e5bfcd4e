import { issueLines } from '@switchyard/service-kit';
import { z } from 'zod';
import type { AppsStateInit } from '../apps/installations.ts';
import type { GitObject } from '../git/objects.ts';
import { type GitRepository, repositoryFromSeed } from '../git/repository-store.ts';
import { WORLD_ID } from '../node-ids.ts';
import type { EmulatorState, RepoRecords, WorldStateInit } from '../repo-state.ts';
import type { ParsedSeed } from '../seed.ts';
import { AppPermissions } from '../seed-apps.ts';
import { botUserOf, type EmulatedUser } from '../world.ts';
import { SavedStateError } from './saved-state-error.ts';

/**
 * `world.json`, the index of a saved world (see the README, "Saved state"): which world it is (`worldId`), the seed it
 * was made from (users, organisations, repositories, Apps, installations, releases, advisories, rate limit), the next id
 * to hand out, the GitHub App installations as they are now and their unexpired installation access tokens (`apps`,
 * absent in worlds saved before they were kept: the seed's installations then), and for each repository that changed since the seed its refs, the ids of the git objects made through the
 * API (their bytes are files of `objects/`, `object-files.ts`), its pull requests (with their assignees, requested
 * reviewers and milestone), issues, milestones, labels, issue labels, comments (with when they were last edited),
 * commit statuses and forced ref updates. Users are named by id. JSON, versioned by `version`; read back with zod, so a
 * damaged file is refused with every problem listed. Version 1 (before issues, milestones, assignees, review requests
 * and comment edits were kept) is still read: what it lacks starts empty.
 */

/** The name of the index file in the data folder. */
export const WORLD_FILE = 'world.json';
/** What `format` says: this is an emulator world. */
export const WORLD_FORMAT = 'switchyard-github-emulator-world';
/** The version of the format this code writes (it reads this one and every one before). */
export const WORLD_VERSION = 2;
/** The versions this code reads. */
const READABLE_VERSIONS = [1, 2] as const;

const Sha = z.string().regex(/^[0-9a-f]{40}$/);
const Id = z.number().int().positive();
const Timestamp = z.string().min(1);

const SavedPull = z.strictObject({
  id: Id,
  nodeId: z.string().min(1),
  number: Id,
  title: z.string(),
  body: z.string().nullable(),
  state: z.enum(['open', 'closed']),
  draft: z.boolean(),
  head: z.string(),
  base: z.string(),
  headSha: Sha,
  baseSha: Sha,
  user: Id,
  createdAt: Timestamp,
  updatedAt: Timestamp,
  closedAt: Timestamp.nullable(),
  mergedAt: Timestamp.nullable(),
  mergedBy: Id.nullable(),
  mergeCommitSha: Sha.nullable(),
  comments: z.number().int().min(0),
  /** Absent in version 1, as are the fields below. */
  closedBy: Id.nullable().default(null),
  assignees: z.array(Id).default([]),
  requestedReviewers: z.array(Id).default([]),
  milestone: Id.nullable().default(null),
});

const SavedIssue = z.strictObject({
  id: Id,
  nodeId: z.string().min(1),
  number: Id,
  title: z.string(),
  body: z.string().nullable(),
  state: z.enum(['open', 'closed']),
  stateReason: z.enum(['completed', 'not_planned', 'duplicate', 'reopened']).nullable(),
  user: Id,
  createdAt: Timestamp,
  updatedAt: Timestamp,
  closedAt: Timestamp.nullable(),
  closedBy: Id.nullable(),
  comments: z.number().int().min(0),
  assignees: z.array(Id),
  milestone: Id.nullable(),
});

const SavedMilestone = z.strictObject({
  id: Id,
  nodeId: z.string().min(1),
  number: Id,
  title: z.string(),
  description: z.string().nullable(),
  state: z.enum(['open', 'closed']),
  dueOn: Timestamp.nullable(),
  creator: Id,
  createdAt: Timestamp,
  updatedAt: Timestamp,
  closedAt: Timestamp.nullable(),
});

const SavedLabel = z.strictObject({
  id: Id,
  nodeId: z.string().min(1),
  name: z.string(),
  color: z.string(),
  description: z.string().nullable(),
  default: z.boolean(),
});

const SavedComment = z.strictObject({
  id: Id,
  nodeId: z.string().min(1),
  issue: Id,
  body: z.string(),
  user: Id,
  createdAt: Timestamp,
  /** Absent in version 1 (the comment's `createdAt` then). */
  updatedAt: Timestamp.optional(),
});

const SavedStatus = z.strictObject({
  id: Id,
  nodeId: z.string().min(1),
  sha: Sha,
  state: z.enum(['error', 'failure', 'pending', 'success']),
  targetUrl: z.string().nullable(),
  description: z.string().nullable(),
  context: z.string(),
  creator: Id,
  createdAt: Timestamp,
});

const SavedForcedUpdate = z.strictObject({
  ref: z.string().min(1),
  before: Sha,
  after: Sha,
  pusher: z.string().min(1),
  at: Timestamp,
  discarded: z.number().int().min(0),
  othersDiscarded: z.array(z.strictObject({ sha: Sha, author: z.strictObject({ name: z.string(), email: z.string() }) })),
});

const SavedRepo = z.strictObject({
  id: Id,
  /** Every ref (full name → commit id). */
  refs: z.record(z.string(), Sha),
  /** The ids of the objects made through the API, by type. */
  objects: z.strictObject({ blob: z.array(Sha), tree: z.array(Sha), commit: z.array(Sha) }),
  pulls: z.array(SavedPull),
  /** Issues that are not pull requests, and milestones (absent in version 1). */
  issues: z.array(SavedIssue).default([]),
  milestones: z.array(SavedMilestone).default([]),
  labels: z.array(SavedLabel),
  /** `[issue number, lower-cased label names]`. */
  issueLabels: z.array(z.tuple([Id, z.array(z.string())])),
  comments: z.array(SavedComment),
  statuses: z.array(SavedStatus),
  /** Forced ref updates (absent in worlds saved before they were kept). */
  forcedUpdates: z.array(SavedForcedUpdate).default([]),
});

const SavedInstallation = z.strictObject({
  id: Id,
  appId: Id,
  appSlug: z.string().min(1),
  account: z.string().min(1),
  repositorySelection: z.enum(['all', 'selected']),
  repositoryIds: z.array(Id),
  permissions: AppPermissions,
  events: z.array(z.string()),
  createdAt: Timestamp,
  updatedAt: Timestamp,
  suspendedAt: Timestamp.nullable(),
  suspendedBy: Id.nullable(),
});

const SavedInstallationToken = z.strictObject({
  token: z.string().regex(/^ghs_[A-Za-z0-9]+$/),
  installationId: Id,
  createdAt: Timestamp,
  expiresAt: Timestamp,
  permissions: AppPermissions,
  repositoryIds: z.array(Id).nullable(),
});

/** The GitHub App installations and their unexpired tokens (absent in worlds saved before they were kept). */
const SavedApps = z.strictObject({
  nextInstallationId: Id,
  installations: z.array(SavedInstallation),
  tokens: z.array(SavedInstallationToken),
});

/** The shape of `world.json`. */
export const WorldFile = z.strictObject({
  format: z.literal(WORLD_FORMAT),
  version: z.literal(READABLE_VERSIONS),
  worldId: z.string().regex(WORLD_ID),
  /** When the world was made and last saved (ISO 8601). */
  createdAt: Timestamp,
  savedAt: Timestamp,
  nextId: Id,
  /** The seed the world was made from, as validated (defaults applied). */
  seed: z.unknown(),
  repos: z.array(SavedRepo),
  apps: SavedApps.optional(),
});
/** `world.json` as read. */
export type WorldFile = z.output<typeof WorldFile>;
type SavedRepo = z.output<typeof SavedRepo>;

/** A save to write: the index's text and the objects it names (some perhaps already written). */
export interface WorldSnapshot {
  index: string;
  objects: GitObject[];
}

const ids = (users: readonly EmulatedUser[]) => users.map((user) => user.id);

const untouched = (records: RepoRecords & { git: GitRepository }) =>
  !records.git.changedSinceSeed() &&
  records.pulls.length === 0 &&
  records.issues.length === 0 &&
  records.milestones.length === 0 &&
  records.labels.size === 0 &&
  records.issueLabels.size === 0 &&
  records.comments.length === 0 &&
  records.statuses.length === 0 &&
  records.forcedUpdates.length === 0;

/**
 * The snapshot of `state` (taken at once, so it is consistent; the objects are immutable): `world.json`'s text and the
 * objects made through the API. `seedJson` is the JSON of the world's validated seed. Repositories unchanged since the
 * seed are left out (they are made again from it).
 */
export function snapshotWorld(state: EmulatorState, seedJson: string, createdAt: string, savedAt: string): WorldSnapshot {
  const objects: GitObject[] = [];
  const repos: SavedRepo[] = [];
  for (const [id, records] of state.repoStates()) {
    if (untouched(records)) continue;
    const added = records.git.addedObjects();
    objects.push(...added);
    const shas = (type: GitObject['type']) => added.filter((object) => object.type === type).map((object) => object.sha);
    repos.push({
      id,
      refs: Object.fromEntries(records.git.allRefs().map(({ name, sha }) => [name, sha])),
      objects: { blob: shas('blob'), tree: shas('tree'), commit: shas('commit') },
      pulls: records.pulls.map((pr) => ({
        ...pr,
        user: pr.user.id,
        mergedBy: pr.mergedBy?.id ?? null,
        closedBy: pr.closedBy?.id ?? null,
        assignees: ids(pr.assignees),
        requestedReviewers: ids(pr.requestedReviewers),
      })),
      issues: records.issues.map((issue) => ({
        ...issue,
        user: issue.user.id,
        closedBy: issue.closedBy?.id ?? null,
        assignees: ids(issue.assignees),
      })),
      milestones: records.milestones.map((milestone) => ({ ...milestone, creator: milestone.creator.id })),
      labels: [...records.labels.values()],
      issueLabels: [...records.issueLabels],
      comments: records.comments.map((comment) => ({ ...comment, user: comment.user.id })),
      statuses: records.statuses.map((status) => ({ ...status, creator: status.creator.id })),
      forcedUpdates: records.forcedUpdates,
    });
  }
  const head = { format: WORLD_FORMAT, version: WORLD_VERSION, worldId: state.worldId, createdAt, savedAt, nextId: state.peekNextId() };
  const apps: z.input<typeof SavedApps> = state.apps.snapshot(state.now());
  // The seed never changes: its JSON is made once (`seedJson`) and set in, not stringified on every save.
  return {
    index: `${JSON.stringify(head).slice(0, -1)},"seed":${seedJson},"repos":${JSON.stringify(repos)},"apps":${JSON.stringify(apps)}}`,
    objects,
  };
}

/**
 * Reads `world.json`'s text, of this version or an older one (what an older one lacks filled in empty).
 * @throws SavedStateError when it is not JSON, not this format, of a version this code does not read, or not of the shape above
 */
export function parseWorldFile(text: string, path: string): WorldFile {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (error) {
    throw new SavedStateError(`${path}: not JSON: ${(error as Error).message}`);
  }
  const found = json as { format?: unknown; version?: unknown } | null;
  if (found?.format === WORLD_FORMAT && !(READABLE_VERSIONS as readonly unknown[]).includes(found.version)) {
    throw new SavedStateError(
      `${path}: saved by another version of the emulator (format version ${String(found.version)}, this one reads ${READABLE_VERSIONS.join(' and ')})`,
    );
  }
  const parsed = WorldFile.safeParse(json);
  if (!parsed.success)
    throw new SavedStateError(`${path}: not a saved emulator world:\n  ${issueLines(parsed.error, '(file)').join('\n  ')}`);
  return parsed.data;
}

/**
 * The state of a saved world for {@link EmulatorState}: each saved repository's git data made from `seed` and then
 * `loadObjects` (which stores the saved objects in it), its refs as saved, and its records with users looked up by id.
 * @throws SavedStateError when a repository or user it names is not in the seed; what `loadObjects` throws
 */
export async function restoreWorld(
  file: WorldFile,
  seed: ParsedSeed,
  loadObjects: (git: GitRepository, objects: SavedRepo['objects']) => Promise<void>,
): Promise<WorldStateInit> {
  const users = new Map([...seed.users, ...seed.apps.map(botUserOf)].map((user) => [user.id, user]));
  const userOf = (id: number, what: string): EmulatedUser => {
    const user = users.get(id);
    if (!user) throw new SavedStateError(`${what}: no user ${id} in the saved seed`);
    return user;
  };
  const seedRepos = new Map(seed.repos.map((repo) => [repo.id, repo]));
  const repos = new Map<number, RepoRecords & { git: GitRepository }>();
  for (const saved of file.repos) {
    const repo = seedRepos.get(saved.id);
    if (!repo) throw new SavedStateError(`repository ${saved.id}: not in the saved seed`);
    const git = repositoryFromSeed(repo);
    await loadObjects(git, saved.objects);
    git.replaceRefs(Object.entries(saved.refs));
    const at = `${repo.owner}/${repo.name}`;
    const usersOf = (list: number[], what: string) => list.map((id) => userOf(id, what));
    const maybeUser = (id: number | null, what: string) => (id === null ? null : userOf(id, what));
    repos.set(saved.id, {
      git,
      pulls: saved.pulls.map((pr) => ({
        ...pr,
        user: userOf(pr.user, `${at}#${pr.number}`),
        mergedBy: maybeUser(pr.mergedBy, `${at}#${pr.number}`),
        closedBy: maybeUser(pr.closedBy, `${at}#${pr.number}`),
        assignees: usersOf(pr.assignees, `${at}#${pr.number}`),
        requestedReviewers: usersOf(pr.requestedReviewers, `${at}#${pr.number}`),
      })),
      issues: saved.issues.map((issue) => ({
        ...issue,
        user: userOf(issue.user, `${at}#${issue.number}`),
        closedBy: maybeUser(issue.closedBy, `${at}#${issue.number}`),
        assignees: usersOf(issue.assignees, `${at}#${issue.number}`),
      })),
      milestones: saved.milestones.map((milestone) => ({
        ...milestone,
        creator: userOf(milestone.creator, `${at} milestone ${milestone.number}`),
      })),
      labels: new Map(saved.labels.map((label) => [label.name.toLowerCase(), label])),
      issueLabels: new Map(saved.issueLabels),
      comments: saved.comments.map(({ updatedAt, ...comment }) => ({
        ...comment,
        updatedAt: updatedAt ?? comment.createdAt,
        user: userOf(comment.user, `${at} comment ${comment.id}`),
      })),
      statuses: saved.statuses.map((status) => ({ ...status, creator: userOf(status.creator, `${at} status ${status.id}`) })),
      forcedUpdates: saved.forcedUpdates,
    });
  }
  return { worldId: file.worldId, nextId: file.nextId, repos, ...(file.apps ? { apps: restoreApps(file.apps, seed) } : {}) };
}

/**
 * The saved installations and tokens, checked against the seed: each installation's account and repositories, its App
 * (when the seed has Apps), who suspended it; each token's installation.
 * @throws SavedStateError when one names what the seed lacks
 */
function restoreApps(saved: z.output<typeof SavedApps>, seed: ParsedSeed): AppsStateInit {
  const logins = new Set([...seed.users, ...seed.organizations].map((account) => account.login.toLowerCase()));
  const repoIds = new Set(seed.repos.map((repo) => repo.id));
  const appIds = new Set(seed.apps.map((app) => app.id));
  const userIds = new Set(seed.users.map((user) => user.id));
  for (const installation of saved.installations) {
    const what = `installation ${installation.id}`;
    if (!logins.has(installation.account.toLowerCase()))
      throw new SavedStateError(`${what}: no account ${installation.account} in the saved seed`);
    if (seed.apps.length > 0 && !appIds.has(installation.appId))
      throw new SavedStateError(`${what}: no app ${installation.appId} in the saved seed`);
    const missing = installation.repositoryIds.find((id) => !repoIds.has(id));
    if (missing !== undefined) throw new SavedStateError(`${what}: no repository ${missing} in the saved seed`);
    if (installation.suspendedBy !== null && !userIds.has(installation.suspendedBy)) {
      throw new SavedStateError(`${what}: no user ${installation.suspendedBy} in the saved seed`);
    }
  }
  const installationIds = new Set(saved.installations.map((installation) => installation.id));
  return { ...saved, tokens: saved.tokens.filter((token) => installationIds.has(token.installationId)) };
}
