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

declare module '../db/schema.ts' {
  interface PeerDatabase {
    directory_entry: DirectoryEntryTable;
  }
}

/** A directory entry as stored. */
export type EntryRow = DirectoryEntryTable;
