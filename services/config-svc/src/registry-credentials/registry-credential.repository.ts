import type { RegistryAuthType, RegistryCredentialPackageManager } from '@switchyard/contracts';
import { type Kysely, sql } from 'kysely';
import type { ConfigDatabase } from '../db/schema.ts';
import type { RegistryCredentialRow } from './registry-credential.table.ts';

type Db = Kysely<ConfigDatabase>;

/** PostgreSQL's unique_violation, raised by a second credential for the same account and package manager. */
const UNIQUE_VIOLATION = '23505';

/** Thrown by {@link insertRegistryCredential} when the account already has a credential for the package manager. */
export class RegistryCredentialExistsError extends Error {
  constructor() {
    super('registry credential already exists');
    this.name = 'RegistryCredentialExistsError';
  }
}

/** What a credential row holds besides its id, revision and timestamps. */
export interface RegistryCredentialValues {
  accountId: number;
  packageManager: RegistryCredentialPackageManager;
  baseUrl: string;
  authType: RegistryAuthType;
  /** Set for `basic`, null for `token`. */
  username: string | null;
  sealedSecret: string;
}

/** Inserts a credential (revision 1). @throws RegistryCredentialExistsError when the account has one for the package manager */
export function insertRegistryCredential(db: Db, values: RegistryCredentialValues): Promise<RegistryCredentialRow> {
  return db
    .insertInto('registry_credential')
    .values({
      account_id: values.accountId,
      package_manager: values.packageManager,
      base_url: values.baseUrl,
      auth_type: values.authType,
      username: values.username,
      sealed_secret: values.sealedSecret,
    })
    .returningAll()
    .executeTakeFirstOrThrow()
    .catch((error: unknown) => {
      if ((error as { code?: string }).code === UNIQUE_VIOLATION) throw new RegistryCredentialExistsError();
      throw error;
    });
}

/** The credential with `id`, or undefined. */
export function findRegistryCredential(db: Db, id: number): Promise<RegistryCredentialRow | undefined> {
  return db.selectFrom('registry_credential').selectAll().where('id', '=', id).executeTakeFirst();
}

/** The credential with `id`, locked (`FOR UPDATE`) until the caller's transaction `trx` ends, or undefined. */
export function lockRegistryCredential(trx: Db, id: number): Promise<RegistryCredentialRow | undefined> {
  return trx.selectFrom('registry_credential').selectAll().where('id', '=', id).forUpdate().executeTakeFirst();
}

/** The id of the credential of `accountId` for `packageManager`, or undefined. */
export async function findRegistryCredentialId(
  db: Db,
  accountId: number,
  packageManager: RegistryCredentialPackageManager,
): Promise<number | undefined> {
  const row = await db
    .selectFrom('registry_credential')
    .select('id')
    .where('account_id', '=', accountId)
    .where('package_manager', '=', packageManager)
    .executeTakeFirst();
  return row?.id;
}

/** Every credential of `accountId`, ordered by package manager. */
export function listRegistryCredentials(db: Db, accountId: number): Promise<RegistryCredentialRow[]> {
  return db.selectFrom('registry_credential').selectAll().where('account_id', '=', accountId).orderBy('package_manager').execute();
}

/**
 * Writes the new `base_url`, `auth_type`, `username` and `sealed_secret` of credential `id` (revision + 1).
 * @returns the updated row, or undefined when there is no such credential
 */
export function updateRegistryCredential(
  db: Db,
  id: number,
  values: Pick<RegistryCredentialValues, 'baseUrl' | 'authType' | 'username' | 'sealedSecret'>,
): Promise<RegistryCredentialRow | undefined> {
  return db
    .updateTable('registry_credential')
    .set({
      base_url: values.baseUrl,
      auth_type: values.authType,
      username: values.username,
      sealed_secret: values.sealedSecret,
      revision: sql`revision + 1`,
      updated_at: sql`now()`,
    })
    .where('id', '=', id)
    .returningAll()
    .executeTakeFirst();
}

/** Deletes credential `id`. @returns the deleted row, or undefined when there was none */
export function deleteRegistryCredential(db: Db, id: number): Promise<RegistryCredentialRow | undefined> {
  return db.deleteFrom('registry_credential').where('id', '=', id).returningAll().executeTakeFirst();
}
