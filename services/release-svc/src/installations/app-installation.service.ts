import type { AppInstallation, GitHubApp } from '@switchyard/code-host';
import { AppInstallationChangedEvent, type AppInstallationState } from '@switchyard/contracts';
import type { Logger } from '@switchyard/service-kit';
import type { Kysely } from 'kysely';
import { releaseOutbox } from '../db/outbox.ts';
import type { ReleaseDatabase } from '../db/schema.ts';
import type { ObservedInstallation } from './app-installation.model.ts';
import { findInstallation, listLiveInstallations, saveInstallation } from './app-installation.repository.ts';
import { installationFromWebhook } from './app-installation-webhook.policy.ts';

type Db = Kysely<ReleaseDatabase>;

/**
 * Records what the code host now says of an installation, inside the caller's transaction, and publishes
 * `app_installation.changed` with its new state (config-svc sets the account's `current-installation-id` and
 * `access-granted-to-all-repos`, and its repos' `installation-state`, from it); nothing when it did not change.
 * @returns the new state, or undefined when nothing changed
 */
export function applyInstallation(trx: Db, observed: ObservedInstallation, at = new Date()): Promise<AppInstallationState | undefined> {
  return changeInstallation(trx, observed.id, () => observed, at);
}

/** {@link applyInstallation} of what `observe` makes of the recorded state, read under a row lock (`saveInstallation`). */
async function changeInstallation(
  trx: Db,
  id: number,
  observe: (current: AppInstallationState | undefined) => ObservedInstallation | undefined,
  at: Date,
): Promise<AppInstallationState | undefined> {
  const saved = await saveInstallation(trx, id, observe, at);
  if (saved) await releaseOutbox.append(trx, [releaseOutbox.event(AppInstallationChangedEvent, saved)]);
  return saved;
}

/**
 * An `installation` or `installation_repositories` delivery applied inside the caller's transaction (see
 * `installationFromWebhook`).
 * @returns whether it changed the recorded installation
 */
export async function applyInstallationWebhook(trx: Db, event: string, payload: unknown): Promise<boolean> {
  const id = (payload as { installation?: { id?: unknown } } | null)?.installation?.id;
  if (typeof id !== 'number' || !Number.isSafeInteger(id)) return false;
  const observe = (current: AppInstallationState | undefined) => installationFromWebhook(event, payload, current);
  return (await changeInstallation(trx, id, observe, new Date())) !== undefined;
}

/** What {@link reconcileInstallations} found: installations whose state changed, and those gone from the code host. */
export interface InstallationReconciliation {
  listed: number;
  changed: number;
  removed: number;
}

/**
 * Reconciles the recorded installations with the code host (the source of truth), so that a missed webhook heals:
 * `GET /app/installations`, and for each `selected` one that is not suspended its repositories
 * (`GET /installation/repositories`); each recorded as it is now, and a recorded installation the code host no longer
 * lists recorded as removed. One transaction per installation.
 * @throws CodeHostError when the App's installations cannot be listed (nothing is changed then); an installation whose
 * repositories cannot be read keeps its recorded selection
 */
export async function reconcileInstallations(db: Db, app: GitHubApp, logger: Logger): Promise<InstallationReconciliation> {
  const listed = await app.installations();
  let changed = 0;
  for (const installation of listed) {
    const current = await findInstallation(db, installation.id);
    const repositoryIds = await selectedRepositories(app, installation, current, logger);
    const observed: ObservedInstallation = {
      id: installation.id,
      accountId: installation.accountId,
      accountLogin: installation.accountLogin,
      accountType: installation.accountType,
      repositorySelection: installation.repositorySelection,
      repositoryIds,
      suspended: installation.suspended,
      removed: false,
    };
    if (await db.transaction().execute((trx) => applyInstallation(trx, observed))) changed++;
  }
  const present = new Set(listed.map((installation) => installation.id));
  let removed = 0;
  for (const gone of (await listLiveInstallations(db)).filter((recorded) => !present.has(recorded.id))) {
    const { revision: _revision, ...state } = gone;
    if (await db.transaction().execute((trx) => applyInstallation(trx, { ...state, removed: true }))) removed++;
  }
  return { listed: listed.length, changed, removed };
}

/** The selected repositories of `installation` (null for `all`); the recorded ones when they cannot be read now. */
async function selectedRepositories(
  app: GitHubApp,
  installation: AppInstallation,
  current: AppInstallationState | undefined,
  logger: Logger,
): Promise<number[] | null> {
  if (installation.repositorySelection === 'all') return null;
  // A suspended installation gives no token: its selection stays as recorded until it is unsuspended.
  if (installation.suspended) return current?.repositoryIds ?? [];
  try {
    return await app.installationRepositoryIds(installation.id);
  } catch (error) {
    logger.warn(
      { err: error, installation: installation.id },
      "an installation's repositories could not be read: its recorded selection stays",
    );
    return current?.repositoryIds ?? [];
  }
}
