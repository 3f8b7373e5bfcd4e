import {
  ChildDirectoryAddedEvent,
  type ChildDirectoryState,
  type DirectoryEntriesChanged,
  DirectoryEntriesChangedEvent,
  PeerChangedEvent,
  PeerRemovedEvent,
  type PeerState,
} from '@switchyard/contracts';
import { type DirectoryEvent, directoryOutbox } from '../db/outbox.ts';
import type { ChildDirectoryTable, PeerRow } from './peer.table.ts';

/**
 * A peer row as the events carry it (`PeerState` of `@switchyard/contracts`): every column, times as RFC 3339 strings
 * (UTC, milliseconds).
 */
export function peerState(row: PeerRow): PeerState {
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

/** A child directory row as its event carries it (`ChildDirectoryState`, `added_at` as an RFC 3339 string). */
export function childDirectoryState(row: ChildDirectoryTable): ChildDirectoryState {
  return { key: row.key, parent: row.parent, url: row.url, added_at: row.added_at.toISOString() };
}

/** `directory.peer_changed` with the peer's full state. */
export const peerChanged = (row: PeerRow): DirectoryEvent => directoryOutbox.event(PeerChangedEvent, peerState(row));

/** `directory.peer_removed` with the peer's last state. */
export const peerRemoved = (row: PeerRow): DirectoryEvent => directoryOutbox.event(PeerRemovedEvent, peerState(row));

/** `directory.child_directory_added` with the child as recorded. */
export const childDirectoryAdded = (row: ChildDirectoryTable): DirectoryEvent =>
  directoryOutbox.event(ChildDirectoryAddedEvent, childDirectoryState(row));

/** `directory.entries_changed` with the source, the data ids touched and the keys upserted and removed. */
export const entriesChanged = (change: DirectoryEntriesChanged): DirectoryEvent =>
  directoryOutbox.event(DirectoryEntriesChangedEvent, change);
