import { Forbidden, InvalidInput, NotFound } from '@switchyard/service-kit';
import { type Request, type RequestHandler, type Response, Router } from 'express';
import { type DirectoryEntry, DirectoryEntryError, parseDirectoryEntry } from '../directory/directory-entry.ts';
import {
  DirectoryNameError,
  directoryKeyOf,
  isSameDirectoryUrl,
  type PeerUrl,
  parseDirectoryName,
  parsePeerUrl,
} from '../directory/directory-name.ts';
import { neutralise } from '../directory/neutralise.ts';
import { selectTransferred } from '../directory/zone-transfer-rules.ts';
import type { DirectoryStore } from '../registry/directory-store.ts';
import type { EntryStore } from '../registry/entry-store.ts';
import { PLACE_FORM_MAX_FIELDS } from '../registry/place-advertiser.ts';
import type { Registrar } from '../registry/registrar.ts';
import type { PeerAllowList } from '../security/peer-allow-list.ts';
import { sendDirectoryXml } from './directory-answer.ts';
import { type Form, formBody, formBodyErrors, formValue, requireRequestedBy } from './form-body.ts';
import { domainErrorsAsText, sendText } from './text-response.ts';

/** What the place routes need. */
export interface PlaceRoutesDeps {
  store: DirectoryStore;
  entries: EntryStore;
  registrar: Registrar;
  allowList: PeerAllowList;
  /** Data ids kept from a peer (`DIRECTORY_TRANSFER_DATA_IDS`), as in a zone transfer. */
  transferDataIds: ReadonlySet<string>;
  /** Digest authentication middleware (401 with challenges). */
  authenticate: RequestHandler;
  formLimitBytes: number;
}

/** Upstream `RegisterPlaceAction.ADD_SUCCESS`. */
export const ADD_SUCCESS = 'Directory.addPlace succeeded';

const n = (value: string | undefined) => neutralise(value ?? 'null');

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

/**
 * The places a peer pushes and the directory a transfer reads, after upstream's relay-era actions
 * (https://github.com/NationalSecurityAgency/emissary, `src/main/java/emissary/server/mvc/internal/RegisterPlaceAction.java`,
 * `DeregisterPlaceAction.java`, `src/main/java/emissary/server/mvc/TransferDirectoryAction.java`, and
 * `src/main/java/emissary/server/mvc/adapters/DirectoryAdapter.java` for the fields): all Digest-authenticated.
 *
 * - `POST /emissary/RegisterPlace.action` (`targetDir`, `dirAddKey<i>`, `dirAddDesc<i>`, `dirAddCost<i>`,
 *   `dirAddQual<i>`, `dirAddPropFlag` ignored): places of one host, whose directory must be an allow-listed peer
 *   recorded here `up` or `unhealthy`, are recorded as learned from it, as a zone transfer would (data ids kept, remote
 *   overhead added). 200 `Directory.addPlace succeeded`.
 * - `POST /emissary/DeregisterPlace.action` (`targetDir`, `dirAddKey<i>`): those places of the peer's host are removed,
 *   whichever peer we learned them from (the sender is their authority). 200 `Successfully removed <n> place(s) with keys: [<k>, …]`.
 * - `GET /emissary/TransferDirectory.action?targetDir=` and `POST` (`targetDir`, `directoryName`): the directory as XML,
 *   exactly as a successful RegisterPeer answers it, registering nothing (how a parent reads its child).
 */
export function placeRouter(deps: PlaceRoutesDeps): Router {
  const { store, entries, registrar, allowList, authenticate } = deps;
  const form = formBody(deps.formLimitBytes, PLACE_FORM_MAX_FIELDS);
  const router = Router();
  const isSelf = (text: string | undefined) => isSameDirectoryUrl(text, registrar.selfUrl);

  /**
   * The directory (`*.*.*.<hostUrl>DirectoryPlace`) the places at `urls` belong to: one host, not ours, an allow-listed
   * peer recorded here `up` or `unhealthy`.
   * @throws Forbidden `<what> failed: <reason>`
   */
  const senderOf = async (urls: readonly PeerUrl[], what: string): Promise<string> => {
    const refuse = (reason: string) => new Forbidden(`${what} failed: ${reason}`);
    const hostUrl = urls[0]?.hostUrl ?? '';
    if (urls.some((url) => url.hostUrl !== hostUrl)) throw refuse('the places are not all on one host');
    if (hostUrl === registrar.selfUrl.hostUrl) throw refuse('the places are on this directory');
    const directoryUrl = parsePeerUrl(`${hostUrl}DirectoryPlace`);
    const key = directoryKeyOf(directoryUrl);
    if (!allowList.isAllowedPeer(directoryUrl.href)) throw refuse(`peer not allowed ${n(key)}`);
    const peer = await store.getPeer(key);
    if (peer === undefined || peer.role !== 'peer' || (peer.state !== 'up' && peer.state !== 'unhealthy')) {
      throw refuse(`not a peer up here ${n(key)}`);
    }
    return key;
  };

  router.use(requireRequestedBy);

  router.post('/emissary/RegisterPlace.action', authenticate, form, async (req: Request, res: Response) => {
    const f = res.locals.form as Form;
    const target = formValue(f, 'targetDir');
    if (!target) throw new InvalidInput(`Bad params: targetDir - ${n(target)}`);
    if (!isSelf(target)) throw new NotFound(`Could not call addPlace with directory: ${n(target)}`);
    const keys = numberedKeys(f);
    if (keys.length === 0) throw new InvalidInput('Directory.addPlace failed: no dirAddKey0');
    const places: DirectoryEntry[] = [];
    keys.forEach((key, i) => {
      try {
        places.push(
          parseDirectoryEntry({
            key,
            cost: formValue(f, `dirAddCost${i}`),
            quality: formValue(f, `dirAddQual${i}`),
            description: textOf(req, formValue(f, `dirAddDesc${i}`) ?? ''),
          }),
        );
      } catch (error) {
        if (error instanceof DirectoryEntryError) throw new InvalidInput(`Directory.addPlace failed: place ${i}: ${error.message}`);
        throw error;
      }
    });
    const sender = await senderOf(
      places.map((place) => parseDirectoryName(place.key).url),
      'Directory.addPlace',
    );
    const { kept } = selectTransferred(places, { dataIds: deps.transferDataIds, selfHostUrl: registrar.selfUrl.hostUrl });
    await entries.upsertFromSource(sender, kept);
    sendText(res, 200, ADD_SUCCESS);
  });

  router.post('/emissary/DeregisterPlace.action', authenticate, form, async (_req: Request, res: Response) => {
    const f = res.locals.form as Form;
    const target = formValue(f, 'targetDir');
    const keys = numberedKeys(f);
    if (!target || keys.length === 0)
      throw new InvalidInput(`Bad params: targetDir - ${n(target)}, or dirAddKey - [${keys.map(n).join(', ')}]`);
    if (!isSelf(target)) throw new NotFound(`No directory found using name ${n(target)}`);
    const names = keys.map((key) => {
      try {
        return parseDirectoryName(key);
      } catch (error) {
        if (error instanceof DirectoryNameError) throw new InvalidInput(`Bad params: invalid dirAddKey ${n(key)}`);
        throw error;
      }
    });
    await senderOf(
      names.map((name) => name.url),
      'Directory.removePlaces',
    );
    const normalised = names.map((name) => name.keyWithoutExpense);
    // The sender is the authority on the places of its host: copies learned through a third peer go too.
    const removed = (await entries.removeKeys(normalised)).reduce((count, change) => count + change.removed.length, 0);
    sendText(res, 200, `Successfully removed ${removed} place(s) with keys: [${normalised.map((key) => n(key)).join(', ')}]`);
  });

  const transfer = async (target: unknown, res: Response) => {
    if (Array.isArray(target)) throw new InvalidInput('parameter targetDir given more than once');
    if (target !== undefined && target !== '' && !isSelf(String(target))) throw new NotFound(`Nothing found for ${n(String(target))}`);
    await sendDirectoryXml(res, entries, registrar.selfKey);
  };
  router.get('/emissary/TransferDirectory.action', authenticate, (req: Request, res: Response) => transfer(req.query.targetDir, res));
  router.post('/emissary/TransferDirectory.action', authenticate, form, (_req: Request, res: Response) =>
    transfer(formValue(res.locals.form as Form, 'targetDir'), res),
  );

  router.use(formBodyErrors, domainErrorsAsText);
  return router;
}
