import {
  type DomainError,
  Forbidden,
  InvalidInput,
  NotFound,
  ServiceUnavailable,
  UpstreamFailed,
  UpstreamTimeout,
} from '@switchyard/service-kit';
import { type RequestHandler, type Response, Router } from 'express';
import {
  type DirectoryName,
  DirectoryNameError,
  directoryKeyOf,
  isSameDirectoryUrl,
  parseDirectoryName,
} from '../directory/directory-name.ts';
import { neutralise } from '../directory/neutralise.ts';
import type { WorkQueue } from '../queue/work-queue.ts';
import type { ChildDirectories } from '../registry/child-directories.ts';
import { findClientPlaceQueue } from '../registry/client-place-lookup.ts';
import type { Departure } from '../registry/departure.ts';
import type { DirectoryStore } from '../registry/directory-store.ts';
import type { EntryStore } from '../registry/entry-store.ts';
import type { Registrar } from '../registry/registrar.ts';
import type { PeerAllowList } from '../security/peer-allow-list.ts';
import { PeerError, PeerNotAllowedError, PeerTimeoutError } from '../security/peer-errors.ts';
import {
  CLIENT_NAME_PARAMETER,
  ENQUEUE_SUCCEEDED,
  NO_PLACE_SPECIFIED,
  noClientPlaceMessage,
  WORK_BUNDLE_PARAMETER,
} from '../work-bundle/enqueue-messages.ts';
import { decodeWorkBundle } from '../work-bundle/work-bundle.ts';
import { sendDirectoryXml } from './directory-answer.ts';
import { type Form, formBody, formBodyErrors, formValue, requireRequestedBy } from './form-body.ts';
import { domainErrorsAsText, sendText } from './text-response.ts';

/** What the peer routes need. */
export interface PeerRoutesDeps {
  store: DirectoryStore;
  /** Directory entries: a successful RegisterPeer answers them as XML. */
  entries: EntryStore;
  registrar: Registrar;
  /** A peer's `FailDirectory` (it leaves). */
  departure: Departure;
  /** `AddChildDirectory`: children recorded, heartbeated, their places proxied. */
  children: ChildDirectories;
  allowList: PeerAllowList;
  workQueue: WorkQueue;
  /** Digest authentication middleware (401 with challenges). */
  authenticate: RequestHandler;
  formLimitBytes: number;
}

const n = (value: string | undefined) => neutralise(value ?? 'null');

/** A failed peer as the caller is told: `Forbidden` when not allow-listed, `UpstreamTimeout` when it timed out, else `UpstreamFailed`. */
function peerFailure(error: PeerError, what: string): DomainError {
  if (error instanceof PeerNotAllowedError) return new Forbidden(`${what}: peer not allowed`, { cause: error });
  if (error instanceof PeerTimeoutError) return new UpstreamTimeout(`${what}: peer timed out`, { cause: error });
  return new UpstreamFailed(`${what}: peer failed`, { cause: error });
}

/** Runs `handler` with the parsed form; what it throws (domain errors) goes on to the router's error handlers. */
function handle(handler: (form: Form, res: Response) => Promise<void>): RequestHandler {
  return (_req, res) => handler(res.locals.form as Form, res);
}

/**
 * The peer endpoints, after upstream's actions (https://github.com/NationalSecurityAgency/emissary,
 * `src/main/java/emissary/server/mvc/internal/HeartbeatAction.java`, `RegisterPeerAction.java`,
 * `AddChildDirectoryAction.java`, `FailDirectoryAction.java`, `WorkSpaceClientEnqueueAction.java`; statuses in the
 * README): Heartbeat (no authentication), RegisterPeer, AddChildDirectory, FailDirectory and WorkSpaceClientEnqueue (Digest). Every POST needs
 * `X-Requested-By`; bodies are bounded before parsing. Handlers throw domain errors, answered `text/plain` by
 * {@link domainErrorsAsText}.
 */
export function peerRouter(deps: PeerRoutesDeps): Router {
  const { store, registrar, allowList, workQueue, authenticate } = deps;
  const form = formBody(deps.formLimitBytes);
  const router = Router();
  const isSelf = (text: string) => isSameDirectoryUrl(text, registrar.selfUrl);
  const directoryName = (text: string, bad: () => DomainError): DirectoryName => {
    try {
      return parseDirectoryName(text);
    } catch (error) {
      if (error instanceof DirectoryNameError) throw bad();
      throw error;
    }
  };

  router.use(requireRequestedBy);

  router.post(
    '/emissary/Heartbeat.action',
    form,
    handle(async (f, res) => {
      const hbf = formValue(f, 'hbf');
      const hbt = formValue(f, 'hbt');
      if (hbt === undefined || hbt === '') {
        throw new InvalidInput(`Heartbeat failed with illegal argument No place specified in msg from ${n(hbf)}`);
      }
      if (hbf === undefined || hbf === '') throw new InvalidInput('Heartbeat failed with illegal argument No sender specified');
      if (deps.departure.isLeaving()) throw new ServiceUnavailable('Heartbeat failed, directory is shutting down');
      const from = directoryName(hbf, () => new InvalidInput(`Heartbeat failed, directory not found for ${n(hbf)}`));
      if (!allowList.isAllowedPeer(from.url.href)) throw new Forbidden(`Heartbeat failed, directory not found for ${n(hbf)}`);
      if (!isSelf(hbt)) throw new NotFound(`Heartbeat failed with namespace exception Not found: ${n(hbt)}`);
      // Only a peer already known (configured or registered) is updated; an unknown sender creates nothing. Our own
      // directory is known too (nothing to record).
      const known = isSelf(from.url.href) || (await store.recordHeartbeat({ key: from.peerKey, url: from.url.href }));
      if (!known) throw new Forbidden(`Heartbeat failed, directory not found for ${n(hbf)}`);
      sendText(res, 200, `${registrar.selfKey}$5050[1]`);
    }),
  );

  router.post(
    '/emissary/RegisterPeer.action',
    authenticate,
    form,
    handle(async (f, res) => {
      const name = formValue(f, 'directoryName');
      const target = formValue(f, 'targetDir');
      const bad = () => new InvalidInput(`Bad Params: directoryName - ${n(name)}, targetDir - ${n(target)}`);
      if (!name || !target) throw bad();
      if (deps.departure.isLeaving()) throw new ServiceUnavailable(`Registration failed for peer: ${n(name)}: directory is shutting down`);
      const peer = directoryName(name, bad);
      if (!isSelf(target)) throw new NotFound(`Remote directory lookup failed for dirName: ${n(target)}`);
      // The allow-list is checked here, before any outbound request.
      if (!allowList.isAllowedPeer(peer.url.href)) throw new Forbidden(`Registration failed for peer: ${n(name)}`);
      if (peer.peerKey === directoryKeyOf(registrar.selfUrl)) {
        await sendDirectoryXml(res, deps.entries, registrar.selfKey);
        return;
      }
      await registrar.acceptRegistration(peer).catch((error: unknown) => {
        throw error instanceof PeerError ? peerFailure(error, `Registration failed for peer: ${n(name)}`) : error;
      });
      await sendDirectoryXml(res, deps.entries, registrar.selfKey);
    }),
  );

  router.post(
    '/emissary/AddChildDirectory.action',
    authenticate,
    form,
    handle(async (f, res) => {
      const child = formValue(f, 'directoryName');
      const parent = formValue(f, 'targetDir');
      if (!child) throw new InvalidInput('Could not call addChildDirectory:\nMissing required parameters');
      const name = directoryName(child, () => new InvalidInput(`Could not call addChildDirectory:\nInvalid directory name ${n(child)}`));
      if (parent !== undefined && parent !== '' && !isSelf(parent)) {
        throw new NotFound(`Could not call addChildDirectory:\nNo parent directory found using name ${n(parent)}`);
      }
      if (!allowList.isAllowedPeer(name.url.href)) throw new Forbidden(`Could not call addChildDirectory:\nPeer not allowed ${n(child)}`);
      // Upstream refuses (logs, still 200) its own key; here 403, as a FailDirectory of ourselves.
      if (isSelf(name.url.href)) throw new Forbidden(`Could not call addChildDirectory:\nCannot be own child ${n(child)}`);
      if (deps.departure.isLeaving()) throw new ServiceUnavailable('Could not call addChildDirectory:\ndirectory is shutting down');
      // The child's places are transferred before the answer; a transfer that fails leaves the child to the heartbeats
      // (upstream answers 200 all the same).
      await deps.children.accept(name);
      sendText(res, 200, 'addChildDirectory succeeded');
    }),
  );

  // A peer leaving (upstream `FailDirectoryAction`): only the sender's own departure is believed, so `dirFailName`
  // must be an allow-listed peer, and a directory never fails itself (upstream refuses that "filthy lie").
  router.post(
    '/emissary/FailDirectory.action',
    authenticate,
    form,
    handle(async (f, res) => {
      const failed = formValue(f, 'dirFailName');
      const target = formValue(f, 'targetDir');
      const bad = () => new InvalidInput(`Bad params: targetDir - ${n(target)}, dirFailName - ${n(failed)}`);
      if (!failed || !target) throw bad();
      const peer = directoryName(failed, bad);
      if (!isSelf(target)) throw new NotFound(`No local directory ${n(target)}`);
      if (!allowList.isAllowedPeer(peer.url.href)) throw new Forbidden(`Peer not allowed ${n(failed)}`);
      if (isSelf(peer.url.href)) throw new Forbidden(`Will not fail this directory ${n(failed)}`);
      const removed = await deps.departure.peerLeft(peer);
      // Upstream `FailDirectoryAction`: the local directory as it prints (`<key>$5050[1]`), the failed name as sent.
      sendText(res, 200, `Modified ${removed} entries from ${registrar.selfKey}$5050[1] due to failure of remote ${n(failed)}`);
    }),
  );

  const enqueue = handle(async (f, res) => {
    const clientName = formValue(f, CLIENT_NAME_PARAMETER);
    if (!clientName) throw new InvalidInput(NO_PLACE_SPECIFIED);
    const queue = await findClientPlaceQueue(store, clientName);
    // noClientPlaceMessage neutralises the name itself: escaped once.
    if (queue === undefined) throw new NotFound(noClientPlaceMessage(clientName));
    // WorkBundleDecodeError is an InvalidInput: 400 `Cannot deserialize WorkBundle`.
    const bundle = decodeWorkBundle(formValue(f, WORK_BUNDLE_PARAMETER));
    // ServiceUnavailable (503 `WorkSpaceClientEnqueWorker failed, queue full`) without the broker's confirm, or a full queue.
    await workQueue.publish(queue, Buffer.from(JSON.stringify(bundle), 'utf8'));
    sendText(res, 200, ENQUEUE_SUCCEEDED);
  });
  router.post('/WorkSpaceClientEnqueue.action', authenticate, form, enqueue);
  router.post('/emissary/WorkSpaceClientEnqueue.action', authenticate, form, enqueue);

  router.use(formBodyErrors, domainErrorsAsText);
  return router;
}
