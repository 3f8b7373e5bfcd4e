import type { GitHubApp } from '@switchyard/code-host';
import { type Logger, type Loop, startLoop } from '@switchyard/service-kit';
import type { Kysely } from 'kysely';
import type { ReleaseDatabase } from '../db/schema.ts';
import { reconcileInstallations } from './app-installation.service.ts';

/**
 * App mode: reconciles the App's installations with the code host at start and every `intervalMs` (see
 * `reconcileInstallations`); a round that fails is logged and the next one tries again.
 */
export function startInstallationReconciliation(db: Kysely<ReleaseDatabase>, app: GitHubApp, intervalMs: number, logger: Logger): Loop {
  return startLoop({
    name: "the App's installations' reconciliation",
    intervalMs,
    immediately: true,
    logger,
    round: async () => {
      const outcome = await reconcileInstallations(db, app, logger);
      if (outcome.changed > 0 || outcome.removed > 0) logger.info(outcome, "the App's installations reconciled with the code host");
    },
  });
}
