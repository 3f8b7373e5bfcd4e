/** `peer.client_place`: client places work bundles are enqueued for, name (as `pickUpClientName` gives it) → queue. */
export interface ClientPlaceTable {
  name: string;
  queue: string;
}

declare module '../db/schema.ts' {
  interface PeerDatabase {
    client_place: ClientPlaceTable;
  }
}
