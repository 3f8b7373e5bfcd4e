import {
  ChildDirectoryAddedEvent,
  type ChildDirectoryState,
  DIRECTORY_EVENTS,
  type DirectoryEntriesChanged,
  DirectoryEntriesChangedEvent,
  PeerChangedEvent,
  PeerRemovedEvent,
  type PeerState,
} from '@switchyard/contracts';
import { eventOutbox, type PendingEvent } from '@switchyard/messaging';
import { type ChildDirectoryTable, PEER_SCHEMA, type PeerTable } from '../db/schema.ts';

/**
 * peer-svc's side of the transactional outbox: only the catalogued directory events (`DIRECTORY_EVENTS` of
 * `@switchyard/contracts`), written to `peer.outbox` with source `peer-svc`.
 */
export const directoryOutbox = eventOutbox({ schema: PEER_SCHEMA, source: 'peer-svc', events: DIRECTORY_EVENTS });

/** One directory event ready for `directoryOutbox.append`. */
export type DirectoryEvent = PendingEvent<(typeof DIRECTORY_EVENTS)[number]>;

/** A peer row as the events carry it: every column, times as RFC 3339 strings (UTC, milliseconds). */
export function peerState(row: PeerTable): PeerState {
  return {
    key: row.key,
    url: row.url,
    origin: row.origin,
    state: row.state,
    missed: row.missed,
    last_heartbeat_at: row.last_heartbeat_at?.toISOString() ?? null,
    registered_at: row.registered_at?.toISOString() ?? null,
    role: row.role,
  };
}

/** A child directory row as its event carries it (`added_at` as an RFC 3339 string). */
export function childDirectoryState(row: ChildDirectoryTable): ChildDirectoryState {
  return { key: row.key, parent: row.parent, url: row.url, added_at: row.added_at.toISOString() };
}

/** `directory.peer_changed` with the peer's full state. */
export const peerChanged = (row: PeerTable): DirectoryEvent => directoryOutbox.event(PeerChangedEvent, peerState(row));

/** `directory.peer_removed` with the peer's last state. */
export const peerRemoved = (row: PeerTable): DirectoryEvent => directoryOutbox.event(PeerRemovedEvent, peerState(row));

/** `directory.child_directory_added` with the child as recorded. */
export const childDirectoryAdded = (row: ChildDirectoryTable): DirectoryEvent =>
  directoryOutbox.event(ChildDirectoryAddedEvent, childDirectoryState(row));

/** `directory.entries_changed` with the source, the data ids touched and the keys upserted and removed. */
export const entriesChanged = (change: DirectoryEntriesChanged): DirectoryEvent =>
  directoryOutbox.event(DirectoryEntriesChangedEvent, change);
