import { DEFAULT_BUNDLES_TAKEN, MAX_BUNDLES_TAKEN, type TakenWorkBundles } from '@switchyard/contracts';
import { InvalidInput } from '@switchyard/service-kit';
import { type ErrorRequestHandler, type RequestHandler, Router } from 'express';
import type { ClientPlaceService } from '../work-bundle/client-place.service.ts';
import { domainErrorsAsText } from './domain-errors.middleware.ts';
import { takenBundles } from './taken-bundles.mapper.ts';
import { sendText } from './text-answer.mapper.ts';

/** What the client-place routes need. */
export interface ClientPlacesRoutesDeps {
  clientPlaces: ClientPlaceService;
  /** Digest authentication middleware (401 with challenges), the peer endpoints' own. */
  authenticate: RequestHandler;
}

/** The path of a client place's bundles; `{name}` is percent-encoded (a directory key holds `/` and `:`). */
export const CLIENT_PLACE_BUNDLES_PATH = '/emissary/client-places/:name/bundles';

/**
 * The `take` query parameter: absent → {@link DEFAULT_BUNDLES_TAKEN}; else one decimal integer from 1 to {@link MAX_BUNDLES_TAKEN}.
 * @throws InvalidInput `take must be one integer from 1 to 100` otherwise (given twice included)
 */
export function parseTake(values: readonly string[]): number {
  if (values.length === 0) return DEFAULT_BUNDLES_TAKEN;
  const [value = ''] = values;
  const n = /^[0-9]{1,3}$/.test(value) ? Number(value) : Number.NaN;
  if (values.length > 1 || !(n >= 1 && n <= MAX_BUNDLES_TAKEN))
    throw new InvalidInput(`take must be one integer from 1 to ${MAX_BUNDLES_TAKEN}`);
  return n;
}

/** A path parameter express could not percent-decode: 400 text, as the peer endpoints answer bad input. */
const undecodableName: ErrorRequestHandler = (error: unknown, _req, res, next) => {
  if (error instanceof URIError) sendText(res, 400, 'Malformed client place name');
  else next(error);
};

/**
 * This project's extension to the peer API, for operators: `GET /emissary/client-places/{name}/bundles?take=N` takes
 * up to N (default {@link DEFAULT_BUNDLES_TAKEN}, at most {@link MAX_BUNDLES_TAKEN}) work bundles off the queue of the client place
 * `{name}` (found as `WorkSpaceClientEnqueue` finds it), oldest first, and answers them as JSON
 * ({@link TakenWorkBundles}, `Cache-Control: no-store`). Taking removes them: the operator stands in for the pick-up
 * client. Digest-authenticated as the peer endpoints; errors are theirs, `text/plain`: 400 a bad `take`, 401, 404 an
 * unknown client place (`No client place found using name <name>`), 503 a broker that cannot be read. HEAD is
 * refused (405, `Allow: GET`), since a GET here changes the queue.
 */
export function clientPlacesRouter(deps: ClientPlacesRoutesDeps): Router {
  const { clientPlaces, authenticate } = deps;
  const router = Router();

  router.head(CLIENT_PLACE_BUNDLES_PATH, (_req, res) => {
    res.set('allow', 'GET');
    sendText(res, 405, 'HEAD would take bundles: use GET');
  });

  router.get(CLIENT_PLACE_BUNDLES_PATH, authenticate, async (req, res) => {
    const name = String(req.params.name);
    const take = parseTake(new URL(req.originalUrl, 'http://peer.invalid').searchParams.getAll('take'));
    const queue = await clientPlaces.queueOf(name);
    const answer: TakenWorkBundles = takenBundles(name, queue, await clientPlaces.take(queue, take));
    res.set({ 'x-content-type-options': 'nosniff', 'cache-control': 'no-store' });
    res.status(200).json(answer);
  });

  router.use(undecodableName, domainErrorsAsText);
  return router;
}
