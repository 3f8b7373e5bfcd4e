import { type Logger, type Loop, startLoop } from '@switchyard/service-kit';
import { type ConfigFileCheckDeps, checkDueConfigFiles } from './config-file-check.service.ts';

/**
 * The reading of repositories' config files: at once and then every `intervalMs` (`SCHEDULER_INTERVAL_MS`), one round
 * of {@link checkDueConfigFiles}.
 * @returns the loop, to stop on shutdown
 */
export function startConfigFileChecks(deps: ConfigFileCheckDeps, intervalMs: number, logger: Logger): Loop {
  return startLoop({ name: 'config files', intervalMs, logger, round: () => checkDueConfigFiles(deps) });
}
