import type { DirectoryRole } from '@switchyard/contracts';
import type { OutboxDatabase } from '@switchyard/messaging';
import type { Database } from '@switchyard/service-kit';
import type { Generated } from 'kysely';
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
  /**
   * What the directory is to us: a `peer` (RegisterPeer, zone transfers), a `child` (AddChildDirectory: its places are
   * proxied as ours) or our `parent` (`PEER_PARENT`: we are its child).
   */
  role: DirectoryRole;
}

/** What a remote directory is to this one (`peer.peer.role`): `DirectoryRole` of `@switchyard/contracts`. */
export type { DirectoryRole };

/** `peer.child_directory`: child directories recorded by AddChildDirectory, under one of our directory places. */
export interface ChildDirectoryTable {
  key: string;
  parent: string;
  url: string;
  added_at: Date;
}

/**
 * `peer.child_entry`: the places of our child directories as their transfers gave them (upstream's relay map,
 * `childEntries`), cost with the remote overhead added; what this directory advertises as proxies is derived from them.
 * One row per child and place key; `child` is the child's default directory key.
 */
export interface ChildEntryTable {
  child: string;
  key: string;
  data_id: string;
  cost: number;
  quality: number;
  expense: number;
  description: string;
  seen_at: Date;
}

/** `peer.client_place`: client places work bundles are enqueued for, name → RabbitMQ queue. */
export interface ClientPlaceTable {
  name: string;
  queue: string;
}

/**
 * `peer.work_bundle`: work bundles accepted while no broker is configured (no `AMQP_URL`), oldest first by `id`, until
 * an operator takes them (`GET /emissary/client-places/{name}/bundles`).
 */
export interface WorkBundleTable {
  id: Generated<string>;
  /** The client place's queue name. */
  queue: string;
  /** The bundle as JSON text, exactly as it would have been sent to RabbitMQ. */
  body: string;
  enqueued_at: Generated<Date>;
}

/**
 * `peer.directory_entry`: the places this directory knows (upstream's `DirectoryEntry`), keyed by the place key without
 * `$expense`. `source` is `local` (declared in this peer's configuration, or the directory itself) or the key of the
 * directory it was learned from; `seen_at` is when it was last confirmed.
 */
export interface DirectoryEntryTable {
  key: string;
  /** `DATATYPE::SERVICE_TYPE`. */
  data_id: string;
  cost: number;
  quality: number;
  /** `cost*100 + 100 - quality`. */
  expense: number;
  description: string;
  source: string;
  created_at: Date;
  seen_at: Date;
}

/** Tables of the `peer` schema, as Kysely sees them (queries run through `withSchema(PEER_SCHEMA)`), the outbox included. */
export interface PeerDatabase extends OutboxDatabase {
  peer: PeerTable;
  child_directory: ChildDirectoryTable;
  client_place: ClientPlaceTable;
  work_bundle: WorkBundleTable;
  directory_entry: DirectoryEntryTable;
  child_entry: ChildEntryTable;
}

/** The Kysely handle of the `peer` schema. */
export type PeerDb = Database<PeerDatabase>['db'];
