import type { OutboxDatabase } from '@switchyard/messaging';
import type { Database } from '@switchyard/service-kit';
import type { ChildEntryTable } from '../registry/child-entry.table.ts';
import type { DirectoryEntryTable } from '../registry/directory-entry.table.ts';
import type { ChildDirectoryTable, PeerTable } from '../registry/peer.table.ts';
import type { ClientPlaceTable } from '../work-bundle/client-place.table.ts';
import type { WorkBundleTable } from '../work-bundle/work-bundle.table.ts';

/** The PostgreSQL schema peer-svc owns; no other service reads it. */
export const PEER_SCHEMA = 'peer';

/** Tables of the `peer` schema, as Kysely sees them (queries run through `withSchema(PEER_SCHEMA)`), the outbox included. */
export interface PeerDatabase extends OutboxDatabase {
  peer: PeerTable;
  child_directory: ChildDirectoryTable;
  client_place: ClientPlaceTable;
  work_bundle: WorkBundleTable;
  directory_entry: DirectoryEntryTable;
  child_entry: ChildEntryTable;
}

/** The Kysely handle of the `peer` schema (a transaction on it fits too). */
export type PeerDb = Database<PeerDatabase>['db'];
