import type { Caller, CodeHostView } from '@switchyard/code-host';
import {
  type CreateRegistryCredential,
  type PatchRegistryCredential,
  RegistryCredentialDeletedEvent,
  RegistryCredentialSavedEvent,
  registryCredentialAad,
} from '@switchyard/contracts';
import { AlreadyExists, NotFound, type OutboundGuard, type SecretsKey, ServiceUnavailable, sealSecret } from '@switchyard/service-kit';
import type { Kysely } from 'kysely';
import { recordAccounts } from '../accounts/account.service.ts';
import { configOutbox } from '../db/outbox.ts';
import type { ConfigDatabase } from '../db/schema.ts';
import { applyPatch, RegistryBaseUrlRefused } from './registry-credential.policy.ts';
import {
  deleteRegistryCredential,
  findRegistryCredential,
  findRegistryCredentialId,
  insertRegistryCredential,
  listRegistryCredentials,
  lockRegistryCredential,
  RegistryCredentialExistsError,
  updateRegistryCredential,
} from './registry-credential.repository.ts';
import type { RegistryCredentialRow } from './registry-credential.table.ts';
import { administeredAccount } from './registry-credential-access.service.ts';
import { registryCredentialState } from './registry-credential-event.mapper.ts';

/** What the registry credential routes work with: the `config` schema, the code host view, and the sealing key if configured. */
export interface RegistryCredentialDeps {
  db: Kysely<ConfigDatabase>;
  view: CodeHostView;
  /** `SECRETS_KEY`; undefined when unset: secrets cannot be stored (503), the rest works. */
  secretsKey: SecretsKey | undefined;
  /** The outbound guard of `REGISTRY_ALLOWED_HOSTS`, which every `base-url` registered or changed must pass. */
  outboundGuard: OutboundGuard;
}

/**
 * Checks a `base-url` with the outbound guard, its name resolved (`checkUrlResolved`): the worker will connect there
 * with the account's secret, so an address the operator does not allow is refused now, with why. A name that does not
 * resolve here passes (the worker checks every connection it makes, on the address it connects to).
 * @throws RegistryBaseUrlRefused (422 on the wire)
 */
async function checkBaseUrl(deps: RegistryCredentialDeps, baseUrl: string): Promise<void> {
  const verdict = await deps.outboundGuard.checkUrlResolved(baseUrl);
  if (!verdict.allowed) throw new RegistryBaseUrlRefused(verdict);
}

/**
 * The key to seal with.
 * @throws ServiceUnavailable (503) when the service has no `SECRETS_KEY`: nothing can be stored
 */
function sealingKey(deps: RegistryCredentialDeps): SecretsKey {
  if (deps.secretsKey === undefined) {
    throw new ServiceUnavailable(
      'Registry credentials cannot be stored: this service has no SECRETS_KEY configured to seal their secrets; nothing was stored',
    );
  }
  return deps.secretsKey;
}

/**
 * `POST /registry_credentials`: registers the private registry of `input['package-manager']` for the account, which the
 * caller must administer ({@link administeredAccount}). The secret (`token`, or the basic `password`) is sealed with
 * `SECRETS_KEY` bound to the account and package manager; the account row (if new), the credential and
 * `registry_credential.saved` (revision 1) are written in one transaction.
 * The `base-url` must pass the outbound guard ({@link checkBaseUrl}), checked once the caller is known to administer
 * the account (only an admin makes this service resolve a name).
 * @returns the stored credential
 * @throws NotFound / Forbidden as {@link administeredAccount}; RegistryBaseUrlRefused (422) for a `base-url` the
 *   operator does not allow; ServiceUnavailable without `SECRETS_KEY`; AlreadyExists when the account has a credential
 *   for the package manager (answered 409)
 */
export async function createRegistryCredential(
  deps: RegistryCredentialDeps,
  caller: Caller,
  input: CreateRegistryCredential,
): Promise<RegistryCredentialRow> {
  const account = await administeredAccount(deps.view, caller, input['account-id']);
  await checkBaseUrl(deps, input['base-url']);
  const packageManager = input['package-manager'];
  const secret = input['auth-type'] === 'token' ? input.token : input.password;
  if (secret === undefined) throw new Error('the body schema lets no credential without its secret through');
  const sealedSecret = sealSecret(sealingKey(deps), secret, registryCredentialAad(account.id, packageManager));
  try {
    return await deps.db.transaction().execute(async (trx) => {
      await recordAccounts(trx, [account]);
      const created = await insertRegistryCredential(trx, {
        accountId: account.id,
        packageManager,
        baseUrl: input['base-url'],
        authType: input['auth-type'],
        username: input['auth-type'] === 'basic' ? (input.username ?? null) : null,
        sealedSecret,
      });
      await configOutbox.append(trx, [configOutbox.event(RegistryCredentialSavedEvent, registryCredentialState(created))]);
      return created;
    });
  } catch (error) {
    if (!(error instanceof RegistryCredentialExistsError)) throw error;
    const existing = await findRegistryCredentialId(deps.db, account.id, packageManager);
    throw new AlreadyExists(
      `The account ${account.login} already has a registry credential for ${packageManager}` +
        (existing === undefined ? '' : `: change it with PATCH /registry_credentials/${existing}, or delete it first`),
      { cause: error },
    );
  }
}

/**
 * `GET /registry_credentials?account-id=`: the account's credentials, by package manager, for a caller who administers it.
 * @throws NotFound / Forbidden as {@link administeredAccount}
 */
export async function listAccountRegistryCredentials(
  deps: RegistryCredentialDeps,
  caller: Caller,
  accountId: number,
): Promise<RegistryCredentialRow[]> {
  await administeredAccount(deps.view, caller, accountId);
  return listRegistryCredentials(deps.db, accountId);
}

/**
 * Checks that credential `id` exists and that the caller administers its account. A credential of an account the
 * caller does not reach is reported as missing, never as someone else's.
 * @throws NotFound when there is no such credential or the caller may not know of it; Forbidden when the caller reaches
 *   its account but does not administer it
 */
async function authoriseCredential(deps: RegistryCredentialDeps, caller: Caller, id: number): Promise<RegistryCredentialRow> {
  const row = await findRegistryCredential(deps.db, id);
  if (!row || !caller.accounts.some((a) => a.id === row.account_id)) throw new NotFound(`No registry credential ${id}`);
  await administeredAccount(deps.view, caller, row.account_id);
  return row;
}

/**
 * `GET /registry_credentials/:id`: the credential, for a caller who administers its account.
 * @throws NotFound / Forbidden as {@link authoriseCredential}
 */
export function getRegistryCredential(deps: RegistryCredentialDeps, caller: Caller, id: number): Promise<RegistryCredentialRow> {
  return authoriseCredential(deps, caller, id);
}

/**
 * `PATCH /registry_credentials/:id`: changes the base URL, auth type, username or secret (see {@link applyPatch}); a new
 * secret is sealed with `SECRETS_KEY`. The change is written with `revision + 1` and `registry_credential.saved` in one
 * transaction, the row locked meanwhile; a body that changes nothing writes and publishes nothing (a body with a secret
 * always writes: the secret is sealed afresh).
 * @returns the credential as it is now
 * A `base-url` in the patch must pass the outbound guard ({@link checkBaseUrl}).
 * @throws NotFound / Forbidden as {@link authoriseCredential}; RegistryBaseUrlRefused (422) for a `base-url` the
 *   operator does not allow; InvalidInput as {@link applyPatch}; ServiceUnavailable when a secret is given and the
 *   service has no `SECRETS_KEY`
 */
export async function patchRegistryCredential(
  deps: RegistryCredentialDeps,
  caller: Caller,
  id: number,
  patch: PatchRegistryCredential,
): Promise<RegistryCredentialRow> {
  await authoriseCredential(deps, caller, id);
  // Before the transaction: resolving a name must not hold the row's lock.
  if (patch['base-url'] !== undefined) await checkBaseUrl(deps, patch['base-url']);
  return deps.db.transaction().execute(async (trx) => {
    const row = await lockRegistryCredential(trx, id);
    if (!row) throw new NotFound(`No registry credential ${id}`);
    const next = applyPatch(row, patch);
    if (next.secret === undefined && next.baseUrl === row.base_url && next.authType === row.auth_type && next.username === row.username) {
      return row;
    }
    const sealedSecret =
      next.secret === undefined
        ? row.sealed_secret
        : sealSecret(sealingKey(deps), next.secret, registryCredentialAad(row.account_id, row.package_manager));
    const updated = await updateRegistryCredential(trx, id, {
      baseUrl: next.baseUrl,
      authType: next.authType,
      username: next.username,
      sealedSecret,
    });
    if (!updated) throw new NotFound(`No registry credential ${id}`);
    await configOutbox.append(trx, [configOutbox.event(RegistryCredentialSavedEvent, registryCredentialState(updated))]);
    return updated;
  });
}

/**
 * `DELETE /registry_credentials/:id`: deletes the credential and publishes `registry_credential.deleted` with its last state.
 * @throws NotFound / Forbidden as {@link authoriseCredential}
 */
export async function removeRegistryCredential(deps: RegistryCredentialDeps, caller: Caller, id: number): Promise<void> {
  await authoriseCredential(deps, caller, id);
  await deps.db.transaction().execute(async (trx) => {
    const deleted = await deleteRegistryCredential(trx, id);
    if (!deleted) throw new NotFound(`No registry credential ${id}`);
    await configOutbox.append(trx, [configOutbox.event(RegistryCredentialDeletedEvent, registryCredentialState(deleted))]);
  });
}
