import { authenticate, type CodeHostView, callerOf } from '@switchyard/code-host';
import { CreateRegistryCredential, PatchRegistryCredential, RegistryCredentialId, RegistryCredentialsQuery } from '@switchyard/contracts';
import { AlreadyExists, HttpProblem, methodNotAllowed, type OutboundGuard, parseInput, type SecretsKey } from '@switchyard/service-kit';
import { type Request, Router } from 'express';
import type { Kysely } from 'kysely';
import type { ConfigDatabase } from '../db/schema.ts';
import { RegistryBaseUrlRefused } from '../registry-credentials/registry-credential.policy.ts';
import {
  createRegistryCredential,
  getRegistryCredential,
  listAccountRegistryCredentials,
  patchRegistryCredential,
  type RegistryCredentialDeps,
  removeRegistryCredential,
} from '../registry-credentials/registry-credential.service.ts';
import { registryCredentialResource } from './registry-credentials.mapper.ts';

/**
 * The routes of `registry-credentials`, this service's extension of the dependency update API (see the README's
 * "Registry credentials"): `GET /registry_credentials?account-id=`, `POST /registry_credentials` (201 and `Location`),
 * `GET`/`PATCH`/`DELETE /registry_credentials/:id`, for the admins of the account only. Bodies are flat like the API's
 * others; the secrets they carry (`token`, `password`) are sealed with `secretsKey` (`SECRETS_KEY`) and never answered.
 * Errors in the API's envelope; a second credential for the same account and package manager is 409 (not the 400 the
 * original gave a duplicate update config: this resource is ours, and 409 tells it apart from an invalid body); a
 * `base-url` that `outboundGuard` (`REGISTRY_ALLOWED_HOSTS`) refuses is 422 ({@link unprocessable}).
 */
export function registryCredentialsRouter(
  db: Kysely<ConfigDatabase>,
  view: CodeHostView,
  secretsKey: SecretsKey | undefined,
  outboundGuard: OutboundGuard,
): Router {
  const router = Router();
  const auth = authenticate(view);
  const deps: RegistryCredentialDeps = { db, view, secretsKey, outboundGuard };

  router
    .route('/registry_credentials')
    .get(auth, async (req, res) => {
      const query = parseInput(RegistryCredentialsQuery, req.query, 'query');
      const rows = await listAccountRegistryCredentials(deps, callerOf(res), query['account-id']);
      res.set('cache-control', 'no-store').json({ data: rows.map(registryCredentialResource) });
    })
    .post(auth, async (req, res) => {
      const input = parseInput(CreateRegistryCredential, bodyOf(req), 'body');
      const created = registryCredentialResource(
        await unprocessable(conflictOnDuplicate(() => createRegistryCredential(deps, callerOf(res), input))),
      );
      res.status(201).location(`/registry_credentials/${created.id}`).set('cache-control', 'no-store').json({ data: created });
    })
    .all(methodNotAllowed(['GET', 'POST']));

  router
    .route('/registry_credentials/:id')
    .get(auth, async (req, res) => {
      const row = await getRegistryCredential(deps, callerOf(res), credentialId(req));
      res.set('cache-control', 'no-store').json({ data: registryCredentialResource(row) });
    })
    .patch(auth, async (req, res) => {
      const id = credentialId(req);
      const patch = parseInput(PatchRegistryCredential, bodyOf(req), 'body');
      const row = await unprocessable(patchRegistryCredential(deps, callerOf(res), id, patch));
      res.set('cache-control', 'no-store').json({ data: registryCredentialResource(row) });
    })
    .delete(auth, async (req, res) => {
      await removeRegistryCredential(deps, callerOf(res), credentialId(req));
      res.status(204).end();
    })
    .all(methodNotAllowed(['GET', 'PATCH', 'DELETE']));

  return router;
}

/** Runs `create`, answering a taken account and package manager with 409 Conflict and the service's detail. */
async function conflictOnDuplicate<T>(create: () => Promise<T>): Promise<T> {
  try {
    return await create();
  } catch (error) {
    if (error instanceof AlreadyExists) throw new HttpProblem(409, error.message);
    throw error;
  }
}

/**
 * `change`'s result, with a {@link RegistryBaseUrlRefused} answered 422 Unprocessable Entity (RFC 9110 section 15.5.21:
 * the body is well formed, but the operator does not let the worker connect where it points) in the API's envelope, on
 * the member: `{"errors":[{"status":422,"title":"Unprocessable Entity","detail":"base-url is refused: npm.evil.example
 * resolves to 127.0.0.1, a loopback address, which the operator does not allow (REGISTRY_ALLOWED_HOSTS)",
 * "source":{"pointer":"/base-url"}}]}`.
 * @throws HttpProblem 422 for a RegistryBaseUrlRefused; other errors unchanged
 */
async function unprocessable<T>(change: Promise<T>): Promise<T> {
  try {
    return await change;
  } catch (error) {
    if (error instanceof RegistryBaseUrlRefused) throw new HttpProblem(422, error.message, { errors: error.errors ?? [] });
    throw error;
  }
}

function credentialId(req: Request): number {
  return parseInput(RegistryCredentialId, req.params.id, 'path', 'id');
}

/** The JSON body; a request without one is read as `{}` so the schema names each missing member. */
function bodyOf(req: Request): unknown {
  return req.body === undefined ? {} : req.body;
}
