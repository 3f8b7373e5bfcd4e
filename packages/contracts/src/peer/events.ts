import { z } from 'zod';
import { defineEvent } from '../events.ts';

/** The health of a peer directory as peer-svc tracks it from heartbeats. */
export const PEER_HEALTHS = ['not-contacted', 'up', 'unhealthy', 'failed'] as const;

/** What a remote directory is to peer-svc: a peer, a child directory, or its parent directory. */
export const DIRECTORY_ROLES = ['peer', 'child', 'parent'] as const;
export type DirectoryRole = (typeof DIRECTORY_ROLES)[number];

/** `directory.peer_changed` / `directory.peer_removed`: a peer directory's full state (as stored; times RFC 3339). */
export const PeerState = z.object({
  /** Its default directory key, `*.*.*.<hostUrl>DirectoryPlace`. */
  key: z.string(),
  /** Its directory place URL, normalised. */
  url: z.string(),
  /** `scheme://host:port`. */
  origin: z.string(),
  state: z.enum(PEER_HEALTHS),
  /** Heartbeats missed in a row. */
  missed: z.int().min(0),
  last_heartbeat_at: z.iso.datetime({ offset: true }).nullable(),
  registered_at: z.iso.datetime({ offset: true }).nullable(),
  /** What the directory is to the publisher: a `peer`, a `child` (its places proxied), or the publisher's `parent`. */
  role: z.enum(DIRECTORY_ROLES),
});
export type PeerState = z.infer<typeof PeerState>;

/** `directory.child_directory_added`: a child directory recorded under one of our directory places. */
export const ChildDirectoryState = z.object({
  key: z.string(),
  parent: z.string(),
  url: z.string(),
  added_at: z.iso.datetime({ offset: true }),
});
export type ChildDirectoryState = z.infer<typeof ChildDirectoryState>;

/**
 * `directory.entries_changed`: directory entries (places) of one source were added, changed or removed. `source` is
 * `local` (this peer's own places, from its configuration) or the key of the directory the entries were learned from;
 * `upserted` the keys added or changed (cost, quality or description), `removed` the keys dropped, `data_ids` every
 * data id (`DATATYPE::SERVICE_TYPE`) touched. Keys and data ids in code-point order.
 */
export const DirectoryEntriesChanged = z.object({
  source: z.string(),
  data_ids: z.array(z.string()),
  upserted: z.array(z.string()),
  removed: z.array(z.string()),
});
export type DirectoryEntriesChanged = z.infer<typeof DirectoryEntriesChanged>;

/** `directory.peer_changed`: a peer registered, or its health changed. */
export const PeerChangedEvent = defineEvent('directory.peer_changed', PeerState);
/** `directory.peer_removed`: a peer forgotten (its last state). */
export const PeerRemovedEvent = defineEvent('directory.peer_removed', PeerState);
/** `directory.child_directory_added`. */
export const ChildDirectoryAddedEvent = defineEvent('directory.child_directory_added', ChildDirectoryState);

/** `directory.entries_changed`. */
export const DirectoryEntriesChangedEvent = defineEvent('directory.entries_changed', DirectoryEntriesChanged);

/** Every event peer-svc publishes. */
export const DIRECTORY_EVENTS = [PeerChangedEvent, PeerRemovedEvent, ChildDirectoryAddedEvent, DirectoryEntriesChangedEvent] as const;
