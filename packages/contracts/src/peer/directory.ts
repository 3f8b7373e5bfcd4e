import { z } from 'zod';

/** One directory entry (a place) as `GET /emissary/directory` shows it. */
export const PeerDirectoryEntry = z.object({
  /** The place key `DATATYPE.SERVICE_NAME.SERVICE_TYPE.http://host:port/Place`, without `$expense`. */
  key: z.string(),
  /** Empty when there is none. */
  description: z.string(),
  cost: z.int().min(0),
  quality: z.int().min(0).max(100),
  /** `cost*100 + 100 - quality`: entries are tried cheapest first. */
  expense: z.int(),
  /** `local` (this peer's own places) or the key of the directory the entry was learned from. */
  source: z.string(),
  /** Whole seconds since the entry was last confirmed. */
  age: z.int().min(0),
});
export type PeerDirectoryEntry = z.infer<typeof PeerDirectoryEntry>;

/**
 * The answer of `GET /emissary/directory`: the directory's key (`location`, as the XML of RegisterPeer names it) and its
 * entries grouped by data id (`DATATYPE::SERVICE_TYPE`, in code-point order), each group cheapest first (ties by
 * service name, then key).
 */
export const PeerDirectory = z.object({
  location: z.string(),
  entry_lists: z.array(z.object({ data_id: z.string(), entries: z.array(PeerDirectoryEntry) })),
});
export type PeerDirectory = z.infer<typeof PeerDirectory>;
