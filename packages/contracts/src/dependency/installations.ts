import { z } from 'zod';
import { defineEvent } from '../events.ts';
import { AccountType } from './resources.ts';

/** The most repositories one installation's selection lists (GitHub lets an owner select any number; this bounds a message). */
export const MAX_SELECTED_REPOSITORIES = 100_000;

/**
 * One installation of the service's GitHub App as the code host last said (its `installation` and
 * `installation_repositories` webhooks, or `GET /app/installations` and `GET /installation/repositories` when release-svc
 * reconciles): on which account, whether on all its repositories or selected ones (`repositoryIds`, null for `all`),
 * suspended, or removed (uninstalled). `revision` grows with each change release-svc records, so an older state arriving
 * late changes nothing. Its repositories' `installation-state` is `active` while it is neither suspended nor removed.
 */
export const AppInstallationState = z.object({
  id: z.number().int().positive(),
  accountId: z.number().int().positive(),
  accountLogin: z.string().min(1).max(100),
  accountType: AccountType,
  repositorySelection: z.enum(['all', 'selected']),
  repositoryIds: z.array(z.number().int().positive()).max(MAX_SELECTED_REPOSITORIES).nullable(),
  suspended: z.boolean(),
  removed: z.boolean(),
  revision: z.number().int().min(1),
});
export type AppInstallationState = z.infer<typeof AppInstallationState>;

/** `app_installation.changed` (see {@link AppInstallationState}): published by release-svc, applied by config-svc. */
export const AppInstallationChangedEvent = defineEvent('app_installation.changed', AppInstallationState);
