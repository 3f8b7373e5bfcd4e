import type { AppInstallationState } from '@switchyard/contracts';
import type { Kysely } from 'kysely';
import type { ConfigDatabase } from '../db/schema.ts';
import { recordAccounts } from './account.service.ts';
import { storeInstallation } from './app-installation.repository.ts';

/**
 * Applies release-svc's `app_installation.changed`: the installation's state is stored unless an as new or newer one
 * is (a redelivery or a late message changes nothing), and, while it is installed, its account gets its id as
 * `current-installation-id` and `access-granted-to-all-repos` from its selection (an `account.updated` event when that
 * changed). Its repos' `installation-state` follows at once (`GET /repos` reads the stored installations). A removed
 * installation leaves the account's attributes as they were, and every update config in place: they are active again
 * on reinstall.
 * @returns whether it was applied
 */
export async function applyInstallationChanged(db: Kysely<ConfigDatabase>, state: AppInstallationState): Promise<boolean> {
  return db.transaction().execute(async (trx) => {
    if (!(await storeInstallation(trx, state))) return false;
    if (!state.removed) {
      await recordAccounts(
        trx,
        [{ id: state.accountId, login: state.accountLogin, type: state.accountType }],
        [{ id: state.id, accountId: state.accountId, accountLogin: state.accountLogin, repositorySelection: state.repositorySelection }],
      );
    }
    return true;
  });
}
