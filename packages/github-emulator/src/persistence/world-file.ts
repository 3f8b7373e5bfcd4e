import { issueLines } from '@switchyard/service-kit';
import { z } from 'zod';
import type { GitObject } from '../git/objects.ts';
import { type GitRepository, repositoryFromSeed } from '../git/repository-store.ts';
import { WORLD_ID } from '../node-ids.ts';
import type { EmulatorState, RepoRecords, WorldStateInit } from '../repo-state.ts';
import type { ParsedSeed } from '../seed.ts';
import type { EmulatedUser } from '../world.ts';
import { SavedStateError } from './saved-state-error.ts';

/**
 * `world.json`, the index of a saved world (see the README, "Saved state"): which world it is (`worldId`), the seed it
 * was made from (users, organisations, repositories, installations, releases, advisories, rate limit), the next id to
 * hand out, and for each repository that changed since the seed its refs, the ids of the git objects made through the
 * API (their bytes are files of `objects/`, `object-files.ts`), its pull requests, labels, issue labels, comments,
 * commit statuses and forced ref updates. Users are named by id. JSON, versioned by `version`; read back with zod, so a damaged file is
 * refused with every problem listed.
 */

/** The name of the index file in the data folder. */
export const WORLD_FILE = 'world.json';
/** What `format` says: this is an emulator world. */
export const WORLD_FORMAT = 'switchyard-github-emulator-world';
/** The version of the format this code writes and reads. */
export const WORLD_VERSION = 1;

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
  labels: z.array(SavedLabel),
  /** `[issue number, lower-cased label names]`. */
  issueLabels: z.array(z.tuple([Id, z.array(z.string())])),
  comments: z.array(SavedComment),
  statuses: z.array(SavedStatus),
  /** Forced ref updates (absent in worlds saved before they were kept). */
  forcedUpdates: z.array(SavedForcedUpdate).default([]),
});

/** The shape of `world.json`. */
export const WorldFile = z.strictObject({
  format: z.literal(WORLD_FORMAT),
  version: z.literal(WORLD_VERSION),
  worldId: z.string().regex(WORLD_ID),
  /** When the world was made and last saved (ISO 8601). */
  createdAt: Timestamp,
  savedAt: Timestamp,
  nextId: Id,
  /** The seed the world was made from, as validated (defaults applied). */
  seed: z.unknown(),
  repos: z.array(SavedRepo),
});
/** `world.json` as read. */
export type WorldFile = z.output<typeof WorldFile>;
type SavedRepo = z.output<typeof SavedRepo>;

/** A save to write: the index's text and the objects it names (some perhaps already written). */
export interface WorldSnapshot {
  index: string;
  objects: GitObject[];
}

const untouched = (records: RepoRecords & { git: GitRepository }) =>
  !records.git.changedSinceSeed() &&
  records.pulls.length === 0 &&
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
    const ids = (type: GitObject['type']) => added.filter((object) => object.type === type).map((object) => object.sha);
    repos.push({
      id,
      refs: Object.fromEntries(records.git.allRefs().map(({ name, sha }) => [name, sha])),
      objects: { blob: ids('blob'), tree: ids('tree'), commit: ids('commit') },
      pulls: records.pulls.map((pr) => ({ ...pr, user: pr.user.id, mergedBy: pr.mergedBy?.id ?? null })),
      labels: [...records.labels.values()],
      issueLabels: [...records.issueLabels],
      comments: records.comments.map((comment) => ({ ...comment, user: comment.user.id })),
      statuses: records.statuses.map((status) => ({ ...status, creator: status.creator.id })),
      forcedUpdates: records.forcedUpdates,
    });
  }
  const head = { format: WORLD_FORMAT, version: WORLD_VERSION, worldId: state.worldId, createdAt, savedAt, nextId: state.peekNextId() };
  // The seed never changes: its JSON is made once (`seedJson`) and set in, not stringified on every save.
  return { index: `${JSON.stringify(head).slice(0, -1)},"seed":${seedJson},"repos":${JSON.stringify(repos)}}`, objects };
}

/**
 * Reads `world.json`'s text.
 * @throws SavedStateError when it is not JSON, not this format, of another version, or not of the shape above
 */
export function parseWorldFile(text: string, path: string): WorldFile {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (error) {
    throw new SavedStateError(`${path}: not JSON: ${(error as Error).message}`);
  }
  const found = json as { format?: unknown; version?: unknown } | null;
  if (found?.format === WORLD_FORMAT && found.version !== WORLD_VERSION) {
    throw new SavedStateError(
      `${path}: saved by another version of the emulator (format version ${String(found.version)}, this one reads ${WORLD_VERSION})`,
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
  const users = new Map(seed.users.map((user) => [user.id, user]));
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
    repos.set(saved.id, {
      git,
      pulls: saved.pulls.map((pr) => ({
        ...pr,
        user: userOf(pr.user, `${at}#${pr.number}`),
        mergedBy: pr.mergedBy === null ? null : userOf(pr.mergedBy, `${at}#${pr.number}`),
      })),
      labels: new Map(saved.labels.map((label) => [label.name.toLowerCase(), label])),
      issueLabels: new Map(saved.issueLabels),
      comments: saved.comments.map((comment) => ({ ...comment, user: userOf(comment.user, `${at} comment ${comment.id}`) })),
      statuses: saved.statuses.map((status) => ({ ...status, creator: userOf(status.creator, `${at} status ${status.id}`) })),
      forcedUpdates: saved.forcedUpdates,
    });
  }
  return { worldId: file.worldId, nextId: file.nextId, repos };
}
