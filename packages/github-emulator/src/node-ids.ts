import { randomBytes } from 'node:crypto';

/**
 * Node ids of the objects an emulator world makes while it runs (pull requests, issues, milestones, labels, issue
 * comments, commit statuses). GitHub's node ids are opaque global ids, unique across all of GitHub and never reused
 * (https://docs.github.com/graphql/guides/using-global-node-ids); its current format is a type prefix and a base64url
 * key (`PR_kwDOAHz1OX4uYAah`, https://docs.github.com/graphql/guides/migrating-graphql-global-node-ids). The database
 * ids of these objects count from 1 in every world, so the key here is the world's random id followed by the
 * database id: a pull request #1 of a fresh world never has the node id of the #1 of another world, while a world
 * restored from its saved state (`persistence/`) keeps its id and so its node ids.
 */

/** Bytes of a world id (96 random bits). */
const WORLD_ID_BYTES = 12;

/** A world id as {@link newWorldId} makes it: 16 base64url characters. */
export const WORLD_ID = /^[A-Za-z0-9_-]{16}$/;

/** A new random world id: 12 random bytes as base64url (16 characters). */
export function newWorldId(): string {
  return randomBytes(WORLD_ID_BYTES).toString('base64url');
}

/** The objects a world makes at run time, with GitHub's node id type prefixes. */
const PREFIXES = { PullRequest: 'PR', Issue: 'I', Milestone: 'MI', Label: 'LA', IssueComment: 'IC', StatusContext: 'SC' } as const;

/** A kind of object a world makes at run time, named as GitHub's GraphQL types are. */
export type WorldObjectKind = keyof typeof PREFIXES;

/**
 * The node id of the `kind` object with database id `id` (a positive safe integer) in world `worldId`:
 * `<prefix>_<base64url of the 12 world id bytes and the id as 6 bytes big-endian>`, 24 characters after the prefix
 * (`PR_…`, `I_…`, `MI_…`, `LA_…`, `IC_…`, `SC_…`).
 * @throws RangeError when `worldId` is not a world id or `id` is not below 2^48
 */
export function worldNodeId(worldId: string, kind: WorldObjectKind, id: number): string {
  if (!WORLD_ID.test(worldId)) throw new RangeError(`not a world id: ${worldId}`);
  const key = Buffer.alloc(WORLD_ID_BYTES + 6);
  Buffer.from(worldId, 'base64url').copy(key, 0);
  key.writeUIntBE(id, WORLD_ID_BYTES, 6);
  return `${PREFIXES[kind]}_${key.toString('base64url')}`;
}
