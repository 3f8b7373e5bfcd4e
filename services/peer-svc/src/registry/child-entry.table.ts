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

declare module '../db/schema.ts' {
  interface PeerDatabase {
    child_entry: ChildEntryTable;
  }
}
