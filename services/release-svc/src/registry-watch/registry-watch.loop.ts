import { type Logger, type Loop, startLoop } from '@switchyard/service-kit';
import { type RegistryWatchDeps, watchRegistries } from './registry-watch.service.ts';

/**
 * The registry watch of `live` configs: at once and then every `intervalMs` (`REGISTRY_WATCH_INTERVAL_MS`), one round
 * of {@link watchRegistries}.
 * @returns the loop, to stop on shutdown
 */
export function startRegistryWatch(deps: RegistryWatchDeps, intervalMs: number, logger: Logger): Loop {
  return startLoop({ name: 'registry watch', intervalMs, logger, round: () => watchRegistries(deps) });
}
