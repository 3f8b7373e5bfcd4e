import type { CodeHostView } from '@switchyard/code-host';
import { authenticate, callerOf } from '@switchyard/code-host';
import { AccountId, CreateUpdateConfig, PatchAccount, PatchUpdateConfig, ReposQuery, UpdateConfigId } from '@switchyard/contracts';
import { HttpProblem, methodNotAllowed, parseInput } from '@switchyard/service-kit';
import { type Request, type Response, Router } from 'express';
import type { Kysely } from 'kysely';
import { patchAccount, syncAndListAccounts } from '../accounts/account.service.ts';
import type { ConfigDatabase } from '../db/schema.ts';
import { syncAndListRepos } from '../repo-listing/repo-listing.service.ts';
import { ManifestFilesMissing } from '../update-configs/config-directory.policy.ts';
import { createUpdateConfig, getUpdateConfig, removeUpdateConfig, updateUpdateConfig } from '../update-configs/update-config.service.ts';
import { accountResource, reposDocument, updateConfigResource } from './dependency-api.mapper.ts';

/**
 * The routes of the dependency update API (https://github.com/dependabot/api-docs) that config-svc serves:
 * `GET /accounts`, `PATCH /accounts/:id` (this service's extension), `GET /repos`, `POST /update_configs`,
 * `GET`/`PATCH`/`DELETE /update_configs/:id`. Every one authenticates first, calls its service and maps the result to
 * JSON:API resources (`dependency-api.mapper.ts`); the services' domain errors are answered by the app's error format,
 * but for a config directory without its package manager's files, which is 422 ({@link unprocessable}).
 */
export function dependencyApiRouter(db: Kysely<ConfigDatabase>, view: CodeHostView): Router {
  const router = Router();
  const auth = authenticate(view);

  router
    .route('/accounts')
    .get(auth, async (_req, res) => {
      const accounts = await syncAndListAccounts(db, callerOf(res));
      res.json({ data: accounts.map(accountResource) });
    })
    .all(methodNotAllowed(['GET']));

  // This service's extension: an account's settings, changed by its admins.
  router
    .route('/accounts/:id')
    .patch(auth, async (req, res) => {
      const id = parseInput(AccountId, req.params.id, 'path', 'id');
      const patch = parseInput(PatchAccount, bodyOf(req), 'body');
      res.json({ data: accountResource(await patchAccount(db, view, callerOf(res), id, patch)) });
    })
    .all(methodNotAllowed(['PATCH']));

  router
    .route('/repos')
    .get(auth, async (req, res) => {
      const query = parseInput(ReposQuery, req.query, 'query');
      res.json(reposDocument(await syncAndListRepos(db, view, callerOf(res), query)));
    })
    .all(methodNotAllowed(['GET']));

  router
    .route('/update_configs')
    .post(auth, async (req, res) => {
      const input = parseInput(CreateUpdateConfig, bodyOf(req), 'body');
      const created = updateConfigResource(await unprocessable(createUpdateConfig(db, view, callerOf(res), input)));
      res.status(201).location(`/update_configs/${created.id}`).json({ data: created });
    })
    .all(methodNotAllowed(['POST']));

  router
    .route('/update_configs/:id')
    .get(auth, async (req, res) => {
      res.json({ data: updateConfigResource(await getUpdateConfig(db, view, callerOf(res), configId(req))) });
    })
    .patch(auth, async (req, res) => {
      const id = configId(req);
      const patch = parseInput(PatchUpdateConfig, bodyOf(req), 'body');
      res.json({ data: updateConfigResource(await unprocessable(updateUpdateConfig(db, view, callerOf(res), id, patch))) });
    })
    .delete(auth, async (req, res: Response) => {
      await removeUpdateConfig(db, view, callerOf(res), configId(req));
      res.status(204).end();
    })
    .all(methodNotAllowed(['GET', 'PATCH', 'DELETE']));

  return router;
}

/**
 * `change`'s result, with a {@link ManifestFilesMissing} answered 422 Unprocessable Entity (RFC 9110 section 15.5.21:
 * the body is well formed, but the repo does not hold what it names) in the API's envelope, its field error on the
 * member it names: `{"errors":[{"status":422,"title":"Unprocessable Entity","detail":"directory /nope has no
 * package.json on branch main","source":{"pointer":"/directory"}}]}`. Other errors pass unchanged.
 * @throws HttpProblem 422 for a ManifestFilesMissing
 */
async function unprocessable<T>(change: Promise<T>): Promise<T> {
  try {
    return await change;
  } catch (error) {
    if (error instanceof ManifestFilesMissing) throw new HttpProblem(422, error.message, { errors: error.errors ?? [] });
    throw error;
  }
}

function configId(req: Request): number {
  return parseInput(UpdateConfigId, req.params.id, 'path', 'id');
}

/** The JSON body; a request without one is read as `{}` so the schema names each missing attribute. */
function bodyOf(req: Request): unknown {
  return req.body === undefined ? {} : req.body;
}
