import { simpleUser, type Urls } from '../representations.ts';
import type { EmulatedRepo, EmulatedUser, World } from '../world.ts';
import { installationRepos } from './access.ts';
import type { InstallationRecord } from './installations.ts';
import { installation, webhookRepository } from './representations.ts';

/**
 * Payloads of the GitHub App webhooks the emulator sends (https://docs.github.com/webhooks/webhook-events-and-payloads#installation
 * and #installation_repositories), shaped as GitHub's webhook schemas (`x-webhooks` of its OpenAPI description) say.
 */

/** The actions of the `installation` event. */
export type InstallationAction = 'created' | 'deleted' | 'suspend' | 'unsuspend' | 'new_permissions_accepted';

/**
 * The `installation` event payload: `action`, `installation` (the `installation` object as it is after the action;
 * for `deleted`, as it was), `repositories` (the short repository objects it covers, for `created` and `deleted`),
 * `requester` (null: nobody asked an owner to install it), `sender` (who acted).
 */
export function installationPayload(
  urls: Urls,
  world: World,
  action: InstallationAction,
  record: InstallationRecord,
  sender: EmulatedUser,
) {
  const listsRepos = action === 'created' || action === 'deleted';
  return {
    action,
    installation: installation(urls, world, record),
    ...(listsRepos ? { repositories: installationRepos(world, record).map(webhookRepository) } : {}),
    requester: null,
    sender: simpleUser(urls, { kind: 'user', user: sender }),
  };
}

/**
 * The `installation_repositories` event payload: `action` (`added` or `removed`), `installation` (after the change),
 * `repository_selection`, `repositories_added`, `repositories_removed` (short repository objects; the other list
 * empty), `requester` (null), `sender`.
 */
export function installationRepositoriesPayload(
  urls: Urls,
  world: World,
  action: 'added' | 'removed',
  record: InstallationRecord,
  repos: readonly EmulatedRepo[],
  sender: EmulatedUser,
) {
  const changed = repos.map(webhookRepository);
  return {
    action,
    installation: installation(urls, world, record),
    repository_selection: record.repositorySelection,
    repositories_added: action === 'added' ? changed : [],
    repositories_removed: action === 'removed' ? changed : [],
    requester: null,
    sender: simpleUser(urls, { kind: 'user', user: sender }),
  };
}
