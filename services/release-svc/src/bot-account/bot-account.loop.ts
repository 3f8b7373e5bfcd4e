import { type Logger, type Loop, startLoop } from '@switchyard/service-kit';
import type { Kysely } from 'kysely';
import type { ReleaseDatabase } from '../db/schema.ts';
import { recordBotAccount } from './bot-account.service.ts';

/** How often a worker reads its own login again (an App renamed changes its bot user's), ms. */
const CHECK_INTERVAL_MS = 600_000;
/** How soon a round that failed (the code host unreachable at start) is tried again, ms. */
const RETRY_MS = 5_000;

/**
 * Records the service's own login on the code host (`readLogin`: the App's bot user, or the personal token's user) at
 * start and every 10 minutes, so that the webhook intake tells the echoes of the workers' own actions from people's
 * (see `applyDelivery`). A round that fails is logged and tried again 5 s later until one succeeds.
 */
export function startBotAccountCheck(db: Kysely<ReleaseDatabase>, readLogin: () => Promise<string>, logger: Logger): Loop {
  let recorded = false;
  let lastAt = 0;
  return startLoop({
    name: "the bot account's check",
    intervalMs: RETRY_MS,
    immediately: true,
    logger,
    round: async () => {
      if (recorded && Date.now() - lastAt < CHECK_INTERVAL_MS) return;
      const login = await recordBotAccount(db, readLogin);
      if (!recorded) logger.info({ login }, 'the bot account on the code host recorded');
      recorded = true;
      lastAt = Date.now();
    },
  });
}
