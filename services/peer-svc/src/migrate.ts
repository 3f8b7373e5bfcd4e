import { createLogger, migrateCommand } from '@switchyard/service-kit';
import { loadPeerConfig } from './config.ts';
import { peerMigrations } from './db/migrations/index.ts';
import { PEER_SCHEMA } from './db/schema.ts';

// `pnpm migrate`: brings the `peer` schema of DATABASE_URL up to date.
const config = loadPeerConfig();
await migrateCommand('peer-svc', PEER_SCHEMA, config, peerMigrations, createLogger('peer-svc', config.LOG_LEVEL));
