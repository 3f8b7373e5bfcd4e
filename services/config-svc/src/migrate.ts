import { createLogger, migrateCommand } from '@switchyard/service-kit';
import { loadConfigServiceConfig } from './config.ts';
import { configMigrations } from './db/migrations/index.ts';
import { CONFIG_SCHEMA } from './db/schema.ts';

// `pnpm migrate`: brings the `config` schema of DATABASE_URL up to date.
const config = loadConfigServiceConfig();
await migrateCommand('config-svc', CONFIG_SCHEMA, config, configMigrations, createLogger('config-svc', config.LOG_LEVEL));
