import type { OutboxDatabase } from '@switchyard/messaging';
import type { Database } from '@switchyard/service-kit';
import type { PeerHealth } from '../directory/peer-state.ts';

/** The PostgreSQL schema peer-svc owns; no other service reads it. */
export const PEER_SCHEMA = 'peer';

/** `peer.peer`: one row per known peer directory, keyed by its default directory key (`*.*.*.<hostUrl>DirectoryPlace`). */
export interface PeerTable {
  key: string;
  /** The peer's directory place URL, normalised. */
  url: string;
  /** `scheme://host:port`. */
  origin: string;
  state: PeerHealth;
  missed: number;
  last_heartbeat_at: Date | null;
  registered_at: Date | null;
}

/** `peer.child_directory`: child directories recorded by AddChildDirectory, under one of our directory places. */
export interface ChildDirectoryTable {
  key: string;
  parent: string;
  url: string;
  added_at: Date;
}

/** `peer.client_place`: client places work bundles are enqueued for, name → RabbitMQ queue. */
export interface ClientPlaceTable {
  name: string;
  queue: string;
}

/** Tables of the `peer` schema, as Kysely sees them (queries run through `withSchema(PEER_SCHEMA)`), the outbox included. */
export interface PeerDatabase extends OutboxDatabase {
  peer: PeerTable;
  child_directory: ChildDirectoryTable;
  client_place: ClientPlaceTable;
}

/** The Kysely handle of the `peer` schema. */
export type PeerDb = Database<PeerDatabase>['db'];
