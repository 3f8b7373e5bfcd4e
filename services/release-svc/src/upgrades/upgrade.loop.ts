import { type Logger, type Loop, startLoop } from '@switchyard/service-kit';
import { openDueUpgrades, type UpgradeDeps } from './upgrade.service.ts';

/**
 * The upgrade pull requests people asked for: at once and then every `intervalMs` (`SCHEDULER_INTERVAL_MS`), one round
 * of {@link openDueUpgrades}.
 * @returns the loop, to stop on shutdown
 */
export function startUpgrades(deps: UpgradeDeps, intervalMs: number, logger: Logger): Loop {
  return startLoop({ name: 'upgrade pull requests', intervalMs, logger, round: () => openDueUpgrades(deps) });
}
