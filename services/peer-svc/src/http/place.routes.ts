import { InvalidInput } from '@switchyard/service-kit';
import { type Request, type RequestHandler, type Response, Router } from 'express';
import type { PlaceActions, PushedPlaces } from '../registry/place-actions.service.ts';
import { PLACE_FORM_MAX_FIELDS } from '../registry/place-advertiser.service.ts';
import { domainErrorsAsText } from './domain-errors.middleware.ts';
import { formBody, formBodyErrors, requireRequestedBy } from './form-body.middleware.ts';
import { type Form, formValue } from './latin1-form.mapper.ts';
import { ADD_SUCCESS, removedPlacesAnswer, sendText } from './text-answer.mapper.ts';
import { sendDirectoryXml } from './xml-answer.mapper.ts';

/** What the place routes need. */
export interface PlaceRoutesDeps {
  placeActions: PlaceActions;
  /** Digest authentication middleware (401 with challenges). */
  authenticate: RequestHandler;
  /** Largest form body read, in bytes (`FORM_LIMIT_BYTES`). */
  formLimitBytes: number;
}

/** A form value as the client wrote it: the body is read as ISO-8859-1; a body declared UTF-8 is decoded as such. */
function textOf(req: Request, value: string): string {
  return /;\s*charset="?utf-8"?/i.test(req.headers['content-type'] ?? '') ? Buffer.from(value, 'latin1').toString('utf8') : value;
}

/** `dirAddKey0`, `dirAddKey1`, … in order while present (and a lone `dirAddKey`, as upstream's DeregisterPlaceAction reads). */
function numberedKeys(form: Form): string[] {
  const keys: string[] = [];
  for (let i = 0; formValue(form, `dirAddKey${i}`) !== undefined; i++) keys.push(formValue(form, `dirAddKey${i}`) as string);
  const lone = formValue(form, 'dirAddKey');
  if (lone !== undefined) keys.push(lone);
  return keys;
}

/** The places of a RegisterPlace form (`dirAddKey<i>`, `dirAddCost<i>`, `dirAddQual<i>`, `dirAddDesc<i>`), read when asked. */
function pushedPlaces(req: Request, form: Form): PushedPlaces {
  return {
    keys: () => numberedKeys(form),
    place: (i) => ({
      cost: formValue(form, `dirAddCost${i}`),
      quality: formValue(form, `dirAddQual${i}`),
      description: textOf(req, formValue(form, `dirAddDesc${i}`) ?? ''),
    }),
  };
}

/**
 * The places a peer pushes and the directory a transfer reads, after upstream's relay-era actions
 * (https://github.com/NationalSecurityAgency/emissary, `src/main/java/emissary/server/mvc/internal/RegisterPlaceAction.java`,
 * `DeregisterPlaceAction.java`, `src/main/java/emissary/server/mvc/TransferDirectoryAction.java`, and
 * `src/main/java/emissary/server/mvc/adapters/DirectoryAdapter.java` for the fields): all Digest-authenticated, the
 * rules in {@link PlaceActions}.
 *
 * - `POST /emissary/RegisterPlace.action` (`targetDir`, `dirAddKey<i>`, `dirAddDesc<i>`, `dirAddCost<i>`,
 *   `dirAddQual<i>`, `dirAddPropFlag` ignored; at most `PLACE_FORM_MAX_FIELDS` fields): 200 `Directory.addPlace succeeded`.
 * - `POST /emissary/DeregisterPlace.action` (`targetDir`, `dirAddKey<i>` or one `dirAddKey`): 200 `Successfully removed
 *   <n> place(s) with keys: [<k>, …]`.
 * - `GET /emissary/TransferDirectory.action?targetDir=` and `POST` (`targetDir`, `directoryName`): the directory as XML,
 *   exactly as a successful RegisterPeer answers it.
 */
export function placeRouter(deps: PlaceRoutesDeps): Router {
  const { placeActions, authenticate } = deps;
  const form = formBody(deps.formLimitBytes, PLACE_FORM_MAX_FIELDS);
  const router = Router();

  router.use(requireRequestedBy);

  router.post('/emissary/RegisterPlace.action', authenticate, form, async (req: Request, res: Response) => {
    const f = res.locals.form as Form;
    await placeActions.registerPlaces(formValue(f, 'targetDir'), pushedPlaces(req, f));
    sendText(res, 200, ADD_SUCCESS);
  });

  router.post('/emissary/DeregisterPlace.action', authenticate, form, async (_req: Request, res: Response) => {
    const f = res.locals.form as Form;
    const target = formValue(f, 'targetDir');
    const { removed, keys } = await placeActions.deregisterPlaces(target, numberedKeys(f));
    sendText(res, 200, removedPlacesAnswer(removed, keys));
  });

  const transfer = async (target: string | undefined, res: Response) => {
    sendDirectoryXml(res, await placeActions.transferDirectory(target));
  };
  router.get('/emissary/TransferDirectory.action', authenticate, (req: Request, res: Response) => {
    const target = req.query.targetDir;
    if (Array.isArray(target)) throw new InvalidInput('parameter targetDir given more than once');
    return transfer(target === undefined ? undefined : String(target), res);
  });
  router.post('/emissary/TransferDirectory.action', authenticate, form, (_req: Request, res: Response) =>
    transfer(formValue(res.locals.form as Form, 'targetDir'), res),
  );

  router.use(formBodyErrors, domainErrorsAsText);
  return router;
}
