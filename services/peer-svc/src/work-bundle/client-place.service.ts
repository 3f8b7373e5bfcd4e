import { InvalidInput, NotFound } from '@switchyard/service-kit';
import type { PeerDb } from '../db/schema.ts';
import { parseDirectoryName } from '../directory/directory-name.policy.ts';
import * as clientPlaces from './client-place.repository.ts';
import { NO_PLACE_SPECIFIED, noClientPlaceMessage } from './enqueue-messages.mapper.ts';
import { decodeWorkBundle } from './work-bundle.policy.ts';
import type { QueuedBundle, WorkQueue } from './work-queue.service.ts';

/**
 * The client places (`CLIENT_PLACES`) and their queues: what `WorkSpaceClientEnqueue.action` puts there, after upstream's
 * `WorkSpaceClientEnqueueAction` and `WorkSpaceAdapter.inboundEnque` (https://github.com/NationalSecurityAgency/emissary,
 * `src/main/java/emissary/server/mvc/internal/WorkSpaceClientEnqueueAction.java`,
 * `src/main/java/emissary/server/mvc/adapters/WorkSpaceAdapter.java`), and what an operator takes back.
 */
export interface ClientPlaceService {
  /** Records each client place, name → queue (a known name is pointed at its new queue). */
  record(places: ReadonlyMap<string, string>): Promise<void>;
  /**
   * The queue of the client place `name` names: by `name` exactly, then by the service location of `name` read as a
   * directory key (upstream's `KeyManipulator`), e.g. `INITIAL.FILE_PICK_UP_CLIENT.INPUT.http://host:7001/FilePickUpClient`
   * → `http://host:7001/FilePickUpClient`.
   * @throws InvalidInput `No 'place' specified` when `name` is missing or empty; NotFound `No client place found using
   *   name <name>` (neutralised once) when neither is a client place
   */
  queueOf(name: string | undefined): Promise<string>;
  /**
   * Enqueues the work bundle `tpObj` (its JSON text) on `queue`: validated (`decodeWorkBundle`), then stored as that
   * validated bundle in JSON (UTF-8).
   * @throws WorkBundleDecodeError (an InvalidInput: `Cannot deserialize WorkBundle`); ServiceUnavailable (`WorkSpaceClientEnqueWorker
   *   failed, queue full`) without the broker's confirm, or when the queue in the database is full
   */
  enqueue(queue: string, tpObj: unknown): Promise<void>;
  /**
   * Takes up to `max` bundles off `queue`, oldest first: taking removes them.
   * @throws ServiceUnavailable when the broker cannot be read
   */
  take(queue: string, max: number): Promise<QueuedBundle[]>;
}

/** The {@link ClientPlaceService} over `db` (already scoped with `withSchema(PEER_SCHEMA)`) and the work queue. */
export function createClientPlaceService(deps: { db: PeerDb; workQueue: WorkQueue }): ClientPlaceService {
  const { db, workQueue } = deps;
  return {
    record: async (places) => {
      for (const [name, queue] of places) await clientPlaces.saveClientPlace(db, name, queue);
    },
    queueOf: async (name) => {
      if (!name) throw new InvalidInput(NO_PLACE_SPECIFIED);
      let queue = await clientPlaces.findClientPlaceQueue(db, name);
      if (queue === undefined) {
        let location: string | undefined;
        try {
          location = parseDirectoryName(name).url.href;
        } catch {
          // Not a directory key: no service location to look up.
        }
        if (location !== undefined) queue = await clientPlaces.findClientPlaceQueue(db, location);
      }
      // noClientPlaceMessage neutralises the name itself: escaped once.
      if (queue === undefined) throw new NotFound(noClientPlaceMessage(name));
      return queue;
    },
    enqueue: async (queue, tpObj) => {
      const bundle = decodeWorkBundle(tpObj);
      await workQueue.publish(queue, Buffer.from(JSON.stringify(bundle), 'utf8'));
    },
    take: (queue, max) => workQueue.take(queue, max),
  };
}
