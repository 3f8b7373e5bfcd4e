import type { CodeHostView } from '@switchyard/code-host';
import { authenticate, callerOf } from '@switchyard/code-host';
import { CreateUpdateConfig, PatchUpdateConfig, ReposQuery, UpdateConfigId } from '@switchyard/contracts';
import { methodNotAllowed, parseInput } from '@switchyard/service-kit';
import { type Request, type Response, Router } from 'express';
import type { Kysely } from 'kysely';
import { listAccounts } from '../accounts/account.service.ts';
import type { ConfigDatabase } from '../db/schema.ts';
import { listRepos } from '../repos/repo.service.ts';
import { createUpdateConfig, getUpdateConfig, removeUpdateConfig, updateUpdateConfig } from '../update-configs/update-config.service.ts';

/**
 * The routes of seeds/000 that config-svc serves: `GET /accounts`, `GET /repos`, `POST /update_configs`,
 * `GET`/`PATCH`/`DELETE /update_configs/:id`. Every one authenticates first.
 */
export function dependencyApiRouter(db: Kysely<ConfigDatabase>, view: CodeHostView): Router {
  const router = Router();
  const auth = authenticate(view);

  router
    .route('/accounts')
    .get(auth, async (_req, res) => {
      res.json({ data: await listAccounts(db, callerOf(res)) });
    })
    .all(methodNotAllowed(['GET']));

  router
    .route('/repos')
    .get(auth, async (req, res) => {
      const query = parseInput(ReposQuery, req.query, 'query');
      const page = await listRepos(db, view, callerOf(res), query);
      res.json({ data: page.data, included: page.included, meta: { pages: { next: page.next } } });
    })
    .all(methodNotAllowed(['GET']));

  router
    .route('/update_configs')
    .post(auth, async (req, res) => {
      const input = parseInput(CreateUpdateConfig, bodyOf(req), 'body');
      const created = await createUpdateConfig(db, view, callerOf(res), input);
      res.status(201).location(`/update_configs/${created.id}`).json({ data: created });
    })
    .all(methodNotAllowed(['POST']));

  router
    .route('/update_configs/:id')
    .get(auth, async (req, res) => {
      res.json({ data: await getUpdateConfig(db, view, callerOf(res), configId(req)) });
    })
    .patch(auth, async (req, res) => {
      const id = configId(req);
      const patch = parseInput(PatchUpdateConfig, bodyOf(req), 'body');
      res.json({ data: await updateUpdateConfig(db, view, callerOf(res), id, patch) });
    })
    .delete(auth, async (req, res: Response) => {
      await removeUpdateConfig(db, view, callerOf(res), configId(req));
      res.status(204).end();
    })
    .all(methodNotAllowed(['GET', 'PATCH', 'DELETE']));

  return router;
}

function configId(req: Request): number {
  return parseInput(UpdateConfigId, req.params.id, 'path', 'id');
}

/** The JSON body; a request without one is read as `{}` so the schema names each missing attribute. */
function bodyOf(req: Request): unknown {
  return req.body === undefined ? {} : req.body;
}
