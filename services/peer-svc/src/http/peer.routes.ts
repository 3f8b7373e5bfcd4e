import { type RequestHandler, type Response, Router } from 'express';
import { type DirectoryName, DirectoryNameError, parseDirectoryName, parsePeerUrl } from '../directory/directory-name.ts';
import { neutralise } from '../directory/neutralise.ts';
import type { WorkQueue } from '../queue/work-queue.ts';
import type { DirectoryStore } from '../registry/directory-store.ts';
import type { Registrar } from '../registry/registrar.ts';
import type { PeerAllowList } from '../security/peer-allow-list.ts';
import { PeerError, PeerNotAllowedError, PeerTimeoutError } from '../security/peer-errors.ts';
import {
  CANNOT_DESERIALIZE_WORK_BUNDLE,
  CLIENT_NAME_PARAMETER,
  ENQUEUE_QUEUE_FULL,
  ENQUEUE_SUCCEEDED,
  NO_PLACE_SPECIFIED,
  noClientPlaceMessage,
  WORK_BUNDLE_PARAMETER,
} from '../work-bundle/enqueue-messages.ts';
import { FormBodyError } from '../work-bundle/latin1-form.ts';
import { decodeWorkBundle, WorkBundleDecodeError } from '../work-bundle/work-bundle.ts';
import { type Form, formBody, formBodyErrors, formValue, requireRequestedBy } from './form-body.ts';
import { sendText } from './text-response.ts';

/** What the peer routes need. */
export interface PeerRoutesDeps {
  store: DirectoryStore;
  registrar: Registrar;
  allowList: PeerAllowList;
  workQueue: WorkQueue;
  /** Digest authentication middleware (401 with challenges). */
  authenticate: RequestHandler;
  formLimitBytes: number;
}

/** Thrown by handlers: answer `status` with `message` (already neutralised). */
class Answer extends Error {
  readonly status: number;

  constructor(status: number, message: string) {
    super(message);
    this.status = status;
  }
}

const n = (value: string | undefined) => neutralise(value ?? 'null');

/** 502 for a failed peer, 504 for one that timed out, 403 for one not allow-listed. */
function peerFailure(error: PeerError, what: string): Answer {
  if (error instanceof PeerNotAllowedError) return new Answer(403, `${what}: peer not allowed`);
  if (error instanceof PeerTimeoutError) return new Answer(504, `${what}: peer timed out`);
  return new Answer(502, `${what}: peer failed`);
}

/** Runs `handler` with the parsed form; {@link Answer}s and form errors become `text/plain` answers. */
function handle(handler: (form: Form, res: Response) => Promise<void>): RequestHandler {
  return async (_req, res, next) => {
    try {
      await handler(res.locals.form as Form, res);
    } catch (error) {
      if (error instanceof Answer) sendText(res, error.status, error.message);
      else if (error instanceof FormBodyError) sendText(res, 400, error.message);
      else next(error);
    }
  };
}

/**
 * The peer endpoints (reference `emissary.md` §2; status mapping in the README): Heartbeat (no
 * authentication), RegisterPeer, AddChildDirectory and WorkSpaceClientEnqueue (Digest). Every POST needs
 * `X-Requested-By`; bodies are bounded before parsing.
 */
export function peerRouter(deps: PeerRoutesDeps): Router {
  const { store, registrar, allowList, workQueue, authenticate } = deps;
  const form = formBody(deps.formLimitBytes);
  const router = Router();
  const isSelf = (text: string) => {
    try {
      return parsePeerUrl(text).href === registrar.selfUrl.href;
    } catch {
      return false;
    }
  };
  const directoryName = (text: string, bad: () => Answer): DirectoryName => {
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
      if (hbt === undefined || hbt === '')
        throw new Answer(400, `Heartbeat failed with illegal argument No place specified in msg from ${n(hbf)}`);
      if (hbf === undefined || hbf === '') throw new Answer(400, 'Heartbeat failed with illegal argument No sender specified');
      const from = directoryName(hbf, () => new Answer(400, `Heartbeat failed, directory not found for ${n(hbf)}`));
      if (!allowList.isAllowedPeer(from.url.href)) throw new Answer(403, `Heartbeat failed, directory not found for ${n(hbf)}`);
      if (!isSelf(hbt)) throw new Answer(404, `Heartbeat failed with namespace exception Not found: ${n(hbt)}`);
      await store.recordHeartbeat({ key: from.peerKey, url: from.url.href, origin: from.url.origin });
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
      const bad = () => new Answer(400, `Bad Params: directoryName - ${n(name)}, targetDir - ${n(target)}`);
      if (!name || !target) throw bad();
      const peer = directoryName(name, bad);
      if (!isSelf(target)) throw new Answer(404, `Remote directory lookup failed for dirName: ${n(target)}`);
      // The allow-list is checked here, before any outbound request.
      if (!allowList.isAllowedPeer(peer.url.href)) throw new Answer(403, `Registration failed for peer: ${n(name)}`);
      if (peer.peerKey === `*.*.*.${registrar.selfUrl.hostUrl}DirectoryPlace`) {
        sendText(res, 200, registrar.selfKey);
        return;
      }
      try {
        await registrar.acceptRegistration(peer);
      } catch (error) {
        if (error instanceof PeerError) throw peerFailure(error, `Registration failed for peer: ${n(name)}`);
        throw error;
      }
      sendText(res, 200, registrar.selfKey);
    }),
  );

  router.post(
    '/emissary/AddChildDirectory.action',
    authenticate,
    form,
    handle(async (f, res) => {
      const child = formValue(f, 'directoryName');
      const parent = formValue(f, 'targetDir');
      if (!child) throw new Answer(400, 'Could not call addChildDirectory:\nMissing required parameters');
      const name = directoryName(child, () => new Answer(400, `Could not call addChildDirectory:\nInvalid directory name ${n(child)}`));
      if (parent !== undefined && parent !== '' && !isSelf(parent)) {
        throw new Answer(404, `Could not call addChildDirectory:\nNo parent directory found using name ${n(parent)}`);
      }
      if (!allowList.isAllowedPeer(name.url.href)) throw new Answer(403, `Could not call addChildDirectory:\nPeer not allowed ${n(child)}`);
      await store.addChildDirectory({ key: name.key, parent: registrar.selfUrl.href, url: name.url.href });
      sendText(res, 200, 'addChildDirectory succeeded');
    }),
  );

  const enqueue = handle(async (f, res) => {
    const clientName = formValue(f, CLIENT_NAME_PARAMETER);
    if (!clientName) throw new Answer(400, NO_PLACE_SPECIFIED);
    let queue = await store.clientPlaceQueue(clientName);
    if (queue === undefined) {
      try {
        queue = await store.clientPlaceQueue(parseDirectoryName(clientName).url.href);
      } catch {
        queue = undefined;
      }
    }
    if (queue === undefined) throw new Answer(404, neutralise(noClientPlaceMessage(clientName)));
    let bundle: ReturnType<typeof decodeWorkBundle>;
    try {
      bundle = decodeWorkBundle(formValue(f, WORK_BUNDLE_PARAMETER));
    } catch (error) {
      if (error instanceof WorkBundleDecodeError) throw new Answer(400, CANNOT_DESERIALIZE_WORK_BUNDLE);
      throw error;
    }
    try {
      await workQueue.publish(queue, Buffer.from(JSON.stringify(bundle), 'utf8'));
    } catch {
      throw new Answer(503, ENQUEUE_QUEUE_FULL);
    }
    sendText(res, 200, ENQUEUE_SUCCEEDED);
  });
  router.post('/WorkSpaceClientEnqueue.action', authenticate, form, enqueue);
  router.post('/emissary/WorkSpaceClientEnqueue.action', authenticate, form, enqueue);

  router.use(formBodyErrors);
  return router;
}
