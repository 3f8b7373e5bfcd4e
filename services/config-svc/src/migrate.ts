import { createLogger } from '@switchyard/service-kit';
import { loadConfigServiceConfig } from './config.ts';
import { openConfigDatabase } from './service.ts';

// `pnpm migrate`: brings the `config` schema of DATABASE_URL up to date. (An embedded PGlite database
// is migrated by the service itself when it starts.)
const config = loadConfigServiceConfig();
if (!config.DATABASE_URL) {
  process.stderr.write('config-svc migrate: set DATABASE_URL to the PostgreSQL server to migrate\n');
  process.exit(2);
}
const database = await openConfigDatabase(config, createLogger('config-svc', config.LOG_LEVEL));
await database.close();
