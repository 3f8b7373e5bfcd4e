import { z } from 'zod';
import { AppPermissions } from './seed-apps.ts';

const Login = z.string().regex(/^[A-Za-z0-9](?:[A-Za-z0-9-]{0,38})$/, 'must be a GitHub login (letters, digits, hyphens; at most 39)');

/** The GitHub App the seed's installations belong to when an installation names none. */
export const DEFAULT_APP = Object.freeze({ id: 4_242, slug: 'switchyard' });

/**
 * An installation of a GitHub App on a user or organisation (`account`, a login of the seed): on `all` of the account's
 * repositories, or on the `selected` ones named in `repositories` (repository names of that account, without the owner)
 * (https://docs.github.com/apps/using-github-apps/installing-your-own-github-app). `appId` names an App of the seed's
 * `apps` (default {@link DEFAULT_APP}); `appSlug` may be left out (the App's slug; `switchyard` for an App the seed does
 * not describe). `permissions` and `events` are what the account granted (default: all the App asks for).
 */
export const SeedInstallation = z.strictObject({
  id: z.number().int().positive(),
  account: Login,
  repositorySelection: z.enum(['all', 'selected']),
  repositories: z.array(z.string().min(1)).default([]),
  appId: z.number().int().positive().default(DEFAULT_APP.id),
  appSlug: z
    .string()
    .regex(/^[a-z0-9][a-z0-9-]*$/, 'must be an app slug')
    .optional(),
  permissions: AppPermissions.optional(),
  events: z.array(z.string().regex(/^[a-z_]+$/, 'must be a webhook event name')).optional(),
  createdAt: z.iso.datetime({ offset: true }).optional(),
});
export type SeedInstallationInput = z.input<typeof SeedInstallation>;
