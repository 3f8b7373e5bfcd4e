import { parseDirectoryName } from '../directory/directory-name.ts';
import type { DirectoryStore } from './directory-store.ts';

/**
 * The queue of the client place `name` names, as the enqueue endpoint finds it: by `name` exactly, then by the service
 * location of `name` read as a directory key (upstream's `KeyManipulator`), e.g.
 * `INITIAL.FILE_PICK_UP_CLIENT.INPUT.http://host:7001/FilePickUpClient` → `http://host:7001/FilePickUpClient`.
 * `undefined` when neither is a client place (a `name` that is no directory key included).
 */
export async function findClientPlaceQueue(store: DirectoryStore, name: string): Promise<string | undefined> {
  const queue = await store.clientPlaceQueue(name);
  if (queue !== undefined) return queue;
  let location: string;
  try {
    location = parseDirectoryName(name).url.href;
  } catch {
    return undefined;
  }
  return store.clientPlaceQueue(location);
}
