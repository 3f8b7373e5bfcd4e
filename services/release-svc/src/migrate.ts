import { createLogger, migrateCommand } from '@switchyard/service-kit';
import { loadReleaseConfig } from './config.ts';
import { releaseMigrations } from './db/migrations/index.ts';
import { RELEASE_SCHEMA } from './db/schema.ts';

// `pnpm migrate`: brings the `release` schema of DATABASE_URL up to date.
const config = loadReleaseConfig();
await migrateCommand('release-svc', RELEASE_SCHEMA, config, releaseMigrations, createLogger('release-svc', config.LOG_LEVEL));
