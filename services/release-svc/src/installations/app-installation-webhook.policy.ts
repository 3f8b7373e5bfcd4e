import type { AppInstallationState } from '@switchyard/contracts';
import type { ObservedInstallation } from './app-installation.model.ts';

/** The fields of GitHub's `installation` and `installation_repositories` payloads read here. */
interface InstallationPayload {
  action?: unknown;
  installation?: {
    id?: unknown;
    account?: { id?: unknown; login?: unknown; type?: unknown } | null;
    repository_selection?: unknown;
    suspended_at?: unknown;
  };
  repository_selection?: unknown;
  repositories?: unknown;
  repositories_added?: unknown;
  repositories_removed?: unknown;
}

/** The installation events this service follows (https://docs.github.com/webhooks/webhook-events-and-payloads#installation). */
export const INSTALLATION_EVENTS = ['installation', 'installation_repositories'] as const;

/**
 * What an `installation` or `installation_repositories` delivery says the installation is now, given what was recorded
 * (`current`, undefined when nothing was):
 * - `installation` `created`: on its account, all repositories or those of `repositories`; `deleted`: removed;
 *   `suspend` / `unsuspend`: suspended or not; `new_permissions_accepted`: as it was (its account and selection again);
 * - `installation_repositories` `added` / `removed`: the selection (`repository_selection`) and, for `selected`, the
 *   recorded repositories with `repositories_added` and without `repositories_removed` (a selection never recorded
 *   starts from the added ones; the worker's reconciliation reads the whole list).
 * @returns undefined for another event or action, or a payload without an installation and its account
 */
export function installationFromWebhook(
  event: string,
  payload: unknown,
  current: AppInstallationState | undefined,
): ObservedInstallation | undefined {
  const p = (typeof payload === 'object' && payload !== null ? payload : {}) as InstallationPayload;
  const installation = p.installation;
  const account = installation?.account;
  if (!installation || !Number.isSafeInteger(installation.id) || !account || !Number.isSafeInteger(account.id)) return undefined;
  if (typeof account.login !== 'string' || account.login === '') return undefined;
  const selection =
    selectionOf(p.repository_selection) ?? selectionOf(installation.repository_selection) ?? current?.repositorySelection ?? 'all';
  const base: ObservedInstallation = {
    id: installation.id as number,
    accountId: account.id as number,
    accountLogin: account.login,
    accountType: account.type === 'Organization' ? 'org' : 'user',
    repositorySelection: selection,
    repositoryIds: selection === 'all' ? null : (current?.repositoryIds ?? []),
    suspended: typeof installation.suspended_at === 'string',
    removed: false,
  };
  if (event === 'installation') {
    switch (p.action) {
      case 'created':
        return { ...base, repositoryIds: selection === 'all' ? null : idsOf(p.repositories) };
      case 'deleted':
        return { ...base, removed: true };
      case 'suspend':
        return { ...base, suspended: true };
      case 'unsuspend':
        return { ...base, suspended: false };
      case 'new_permissions_accepted':
        return base;
      default:
        return undefined;
    }
  }
  if (event === 'installation_repositories' && (p.action === 'added' || p.action === 'removed')) {
    if (selection === 'all') return { ...base, repositoryIds: null };
    const removed = new Set(idsOf(p.repositories_removed));
    const kept = (current?.repositoryIds ?? []).filter((id) => !removed.has(id));
    return { ...base, repositoryIds: [...kept, ...idsOf(p.repositories_added)].filter((id) => !removed.has(id)) };
  }
  return undefined;
}

function selectionOf(value: unknown): 'all' | 'selected' | undefined {
  return value === 'all' || value === 'selected' ? value : undefined;
}

/** The ids of a payload's repository list (`[{ id, name, full_name, … }]`), those that are whole numbers. */
function idsOf(list: unknown): number[] {
  if (!Array.isArray(list)) return [];
  return list.flatMap((repo) => {
    const id = (repo as { id?: unknown } | null)?.id;
    return Number.isSafeInteger(id) && (id as number) > 0 ? [id as number] : [];
  });
}
