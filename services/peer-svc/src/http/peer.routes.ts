import { type RequestHandler, type Response, Router } from 'express';
import type { PeerActions } from '../registry/peer-actions.service.ts';
import type { ClientPlaceService } from '../work-bundle/client-place.service.ts';
import { CLIENT_NAME_PARAMETER, ENQUEUE_SUCCEEDED, WORK_BUNDLE_PARAMETER } from '../work-bundle/enqueue-messages.mapper.ts';
import { domainErrorsAsText } from './domain-errors.middleware.ts';
import { formBody, formBodyErrors, requireRequestedBy } from './form-body.middleware.ts';
import { type Form, formValue } from './latin1-form.mapper.ts';
import { ADD_CHILD_SUCCEEDED, failDirectoryAnswer, heartbeatAnswer, sendText } from './text-answer.mapper.ts';
import { sendDirectoryXml } from './xml-answer.mapper.ts';

/** What the peer routes need. */
export interface PeerRoutesDeps {
  /** Heartbeat, RegisterPeer, AddChildDirectory, FailDirectory. */
  peerActions: PeerActions;
  /** WorkSpaceClientEnqueue. */
  clientPlaces: ClientPlaceService;
  /** Digest authentication middleware (401 with challenges). */
  authenticate: RequestHandler;
  /** Largest form body read, in bytes (`FORM_LIMIT_BYTES`). */
  formLimitBytes: number;
}

/** Runs `handler` with the parsed form; what it throws (domain errors) goes on to the router's error handlers. */
function handle(handler: (form: Form, res: Response) => Promise<void>): RequestHandler {
  return (_req, res) => handler(res.locals.form as Form, res);
}

/**
 * The peer endpoints, after upstream's actions (https://github.com/NationalSecurityAgency/emissary,
 * `src/main/java/emissary/server/mvc/internal/HeartbeatAction.java`, `RegisterPeerAction.java`,
 * `AddChildDirectoryAction.java`, `FailDirectoryAction.java`, `WorkSpaceClientEnqueueAction.java`; statuses in the
 * README): Heartbeat (no authentication), RegisterPeer, AddChildDirectory, FailDirectory and WorkSpaceClientEnqueue
 * (Digest). Every POST needs `X-Requested-By`; bodies are bounded before parsing. The services' domain errors are
 * answered `text/plain` by {@link domainErrorsAsText}.
 */
export function peerRouter(deps: PeerRoutesDeps): Router {
  const { peerActions, clientPlaces, authenticate } = deps;
  const form = formBody(deps.formLimitBytes);
  const router = Router();

  router.use(requireRequestedBy);

  router.post(
    '/emissary/Heartbeat.action',
    form,
    handle(async (f, res) => {
      const hbf = formValue(f, 'hbf');
      await peerActions.heartbeat(hbf, formValue(f, 'hbt'));
      sendText(res, 200, heartbeatAnswer(peerActions.selfKey));
    }),
  );

  router.post(
    '/emissary/RegisterPeer.action',
    authenticate,
    form,
    handle(async (f, res) => {
      const name = formValue(f, 'directoryName');
      sendDirectoryXml(res, await peerActions.registerPeer(name, formValue(f, 'targetDir')));
    }),
  );

  router.post(
    '/emissary/AddChildDirectory.action',
    authenticate,
    form,
    handle(async (f, res) => {
      const child = formValue(f, 'directoryName');
      await peerActions.addChildDirectory(child, formValue(f, 'targetDir'));
      sendText(res, 200, ADD_CHILD_SUCCEEDED);
    }),
  );

  router.post(
    '/emissary/FailDirectory.action',
    authenticate,
    form,
    handle(async (f, res) => {
      const failed = formValue(f, 'dirFailName');
      const removed = await peerActions.failDirectory(failed, formValue(f, 'targetDir'));
      sendText(res, 200, failDirectoryAnswer(removed, peerActions.selfKey, failed));
    }),
  );

  // The work bundle is read once the client place is found (upstream's order: a bad `tpObj` for an unknown place is a 404).
  const enqueue = handle(async (f, res) => {
    const queue = await clientPlaces.queueOf(formValue(f, CLIENT_NAME_PARAMETER));
    await clientPlaces.enqueue(queue, formValue(f, WORK_BUNDLE_PARAMETER));
    sendText(res, 200, ENQUEUE_SUCCEEDED);
  });
  router.post('/WorkSpaceClientEnqueue.action', authenticate, form, enqueue);
  router.post('/emissary/WorkSpaceClientEnqueue.action', authenticate, form, enqueue);

  router.use(formBodyErrors, domainErrorsAsText);
  return router;
}
