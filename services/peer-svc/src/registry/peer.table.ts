import type { DirectoryRole } from '@switchyard/contracts';
import type { PeerHealth } from '../directory/peer-state.policy.ts';

/** `peer.peer`: one row per known directory, keyed by its default directory key (`*.*.*.<hostUrl>DirectoryPlace`). */
export interface PeerTable {
  key: string;
  /** The directory place URL, normalised. */
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

/** A peer as stored. */
export type PeerRow = PeerTable;

/** `peer.child_directory`: child directories recorded by AddChildDirectory, under one of our directory places. */
export interface ChildDirectoryTable {
  /** The child's default directory key. */
  key: string;
  /** Our directory place URL. */
  parent: string;
  url: string;
  added_at: Date;
}

declare module '../db/schema.ts' {
  interface PeerDatabase {
    peer: PeerTable;
    child_directory: ChildDirectoryTable;
  }
}
