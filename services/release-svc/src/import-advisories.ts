import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { createLogger } from '@switchyard/service-kit';
import { importOsv } from './advisories/osv-import.service.ts';
import { loadReleaseConfig } from './config.ts';
import { RELEASE_SCHEMA } from './db/schema.ts';
import { openReleaseDatabase } from './start.ts';

// `pnpm --filter @switchyard/release-svc advisories:import <file-or-folder>...`: stores the OSV advisories
// of every .json file given (folders are walked) in the `release` schema of DATABASE_URL / DATA_DIR.
const config = loadReleaseConfig();
const logger = createLogger('release-svc', config.LOG_LEVEL);
const files = (path: string): string[] =>
  statSync(path).isDirectory() ? readdirSync(path).flatMap((entry) => files(join(path, entry))) : path.endsWith('.json') ? [path] : [];
const paths = process.argv.slice(2).flatMap(files);
if (paths.length === 0) {
  process.stderr.write('usage: import-advisories <OSV .json file or folder>...\n');
  process.exit(2);
}
const database = await openReleaseDatabase(config, logger);
let stored = 0;
let withdrawn = 0;
try {
  for (const path of paths) {
    const result = await importOsv(database.db.withSchema(RELEASE_SCHEMA), JSON.parse(readFileSync(path, 'utf8')));
    stored += result.stored;
    withdrawn += result.withdrawn;
  }
} finally {
  await database.close();
}
process.stdout.write(`imported ${stored} advisories (${withdrawn} withdrawn) from ${paths.length} files\n`);
