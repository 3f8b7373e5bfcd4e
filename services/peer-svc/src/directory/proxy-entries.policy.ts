/**
 * Proxy entries: how a parent directory advertises the places of its child directories as its own, after upstream's relay
 * (https://github.com/NationalSecurityAgency/emissary at `40260b1ec`, `src/main/java/emissary/directory/DirectoryPlace.java`
 * `addChildEntries` / `DirectoryEntry.proxyFor`, and `KeyManipulator.makeProxyKey`): the child's key keeps its data type,
 * service name and service type, its location becomes the parent's directory place, and its cost (the child's, with the
 * remote overhead already added by the transfer) and quality are kept. Peers of the parent thus reach the child's
 * places through the parent, and never learn the child's address.
 */
import { type DirectoryEntry, DirectoryEntryError, parseDirectoryEntry } from './directory-entry.policy.ts';

/** A child's place as the parent keeps it (`peer.child_entry`): cost with the remote overhead. */
export interface ChildPlace {
  /** The place key on the child, `DATATYPE.SERVICE_NAME.SERVICE_TYPE.http://child:port/Place`. */
  key: string;
  /** The child's default directory key, `*.*.*.http://child:port/DirectoryPlace`. */
  child: string;
  cost: number;
  quality: number;
  description: string;
}

/** A proxy entry and the child whose place it stands for. */
export interface ProxyEntry {
  entry: DirectoryEntry;
  /** The child's default directory key (the entry's `source` in our directory). */
  source: string;
}

/**
 * The proxy key of a child's place: `INITIAL.FILE_PICK_UP.INPUT.http://child:9001/FilePickUpPlace` proxied by the directory
 * at `http://parent:8001/DirectoryPlace` → `INITIAL.FILE_PICK_UP.INPUT.http://parent:8001/DirectoryPlace` (upstream
 * `KeyManipulator.makeProxyKey`, without `$expense`).
 */
export function proxyKeyOf(key: string, selfLocation: string): string {
  const tuples = key.split('.', 3);
  return `${tuples.join('.')}.${selfLocation}`;
}

const byCodePoint = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

/**
 * Every proxy entry the places of our children make, one per proxy key: when several places (of one child or of several)
 * share a proxy key, the cheapest expense stands for them (ties: the child key, then the place key, in code-point order),
 * so the proxy lives as long as one of them does (upstream keeps a proxy while `childEntries` still holds its data id).
 * A place whose proxy would not be a valid entry is left out. Sorted by proxy key.
 */
export function proxiesOf(places: readonly ChildPlace[], selfLocation: string): ProxyEntry[] {
  const best = new Map<string, { place: ChildPlace; entry: DirectoryEntry }>();
  for (const place of places) {
    let entry: DirectoryEntry;
    try {
      entry = parseDirectoryEntry({
        key: proxyKeyOf(place.key, selfLocation),
        cost: place.cost,
        quality: place.quality,
        description: place.description,
      });
    } catch (error) {
      if (error instanceof DirectoryEntryError) continue;
      throw error;
    }
    const held = best.get(entry.key);
    const better =
      held === undefined ||
      entry.expense < held.entry.expense ||
      (entry.expense === held.entry.expense && (byCodePoint(place.child, held.place.child) || byCodePoint(place.key, held.place.key)) < 0);
    if (better) best.set(entry.key, { place, entry });
  }
  return [...best.keys()].sort(byCodePoint).map((key) => {
    const { place, entry } = best.get(key) as { place: ChildPlace; entry: DirectoryEntry };
    return { entry, source: place.child };
  });
}
