import { outboxMigration, outboxVersionMigration } from '@switchyard/messaging';
import type { Migration } from '@switchyard/service-kit';
import * as createPeer from './2026_11_21_0001_create_peer.ts';
import * as createWorkBundle from './2026_11_25_0001_create_work_bundle.ts';
import * as createDirectoryEntry from './2026_11_25_0002_create_directory_entry.ts';
import * as childDirectories from './2026_11_25_0003_child_directories.ts';

/** Every migration of the `peer` schema by name; names sort in the order they apply. */
export const peerMigrations: Record<string, Migration> = {
  '2026_11_21_0001_create_peer': createPeer,
  '2026_11_21_0002_create_outbox': outboxMigration('peer'),
  '2026_11_23_0001_add_outbox_version': outboxVersionMigration('peer'),
  '2026_11_25_0001_create_work_bundle': createWorkBundle,
  '2026_11_25_0002_create_directory_entry': createDirectoryEntry,
  '2026_11_25_0003_child_directories': childDirectories,
};
