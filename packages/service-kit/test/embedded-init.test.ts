import { existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sql } from 'kysely';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { EMBEDDED_POSTGRES_SETTINGS, initEmbeddedDataDir, openDatabase, openEmbeddedDatabase } from '../src/index.ts';

/** Creating a cluster takes a child Node.js process seconds of CPU, many of them beside the rest of the suite. */
const INIT_TEST_TIMEOUT_MS = 90_000;

describe('initEmbeddedDataDir', { timeout: INIT_TEST_TIMEOUT_MS }, () => {
  let root: string;
  beforeEach(() => {
    root = mkdtempSync(join(tmpdir(), 'embedded-init-'));
  });
  afterEach(() => {
    rmSync(root, { recursive: true, force: true });
  });

  it('creates the cluster of a missing folder in a child process, which this process then opens as an existing one', async () => {
    const dataDir = join(root, 'nested', 'pglite');
    expect(await initEmbeddedDataDir(dataDir)).toBe(true);
    expect(existsSync(join(dataDir, 'PG_VERSION'))).toBe(true);
    // The folder it was built in is gone: only the finished cluster is left.
    expect(readdirSync(join(root, 'nested'))).toEqual(['pglite']);
    expect(await initEmbeddedDataDir(dataDir)).toBe(false);

    await using embedded = openEmbeddedDatabase(dataDir);
    await embedded.pglite.exec('create table kept (id integer primary key); insert into kept values (7)');
    await embedded.close();
    await using reopened = openEmbeddedDatabase(dataDir);
    expect((await reopened.pglite.query<{ id: number }>('select id from kept')).rows).toEqual([{ id: 7 }]);
  });

  it('fills an empty folder, over what an interrupted start left beside it', async () => {
    const dataDir = join(root, 'pglite');
    mkdirSync(dataDir);
    mkdirSync(`${dataDir}.init`);
    writeFileSync(join(`${dataDir}.init`, 'PG_VERSION'), 'half made');
    expect(await initEmbeddedDataDir(dataDir)).toBe(true);
    expect(existsSync(join(dataDir, 'PG_VERSION'))).toBe(true);
    expect(existsSync(join(dataDir, 'base'))).toBe(true);
    expect(readdirSync(root)).toEqual(['pglite']);
  });

  it('leaves memory:// and a folder with other files alone', async () => {
    expect(await initEmbeddedDataDir('memory://')).toBe(false);
    const dataDir = join(root, 'pglite');
    mkdirSync(dataDir);
    writeFileSync(join(dataDir, 'something'), '');
    expect(await initEmbeddedDataDir(dataDir)).toBe(false);
    expect(readdirSync(dataDir)).toEqual(['something']);
  });

  it('kills a child that takes longer than the timeout, and leaves nothing behind', async () => {
    const dataDir = join(root, 'pglite');
    await expect(initEmbeddedDataDir(dataDir, 1)).rejects.toThrowError(/took over 1 ms/);
    expect(readdirSync(root)).toEqual([]);
  });
});

describe('embedded PGlite settings', { timeout: INIT_TEST_TIMEOUT_MS }, () => {
  it('starts every embedded PGlite with EMBEDDED_POSTGRES_SETTINGS', async () => {
    await using embedded = openEmbeddedDatabase('memory://');
    const shown = await embedded.pglite.query<{ shared_buffers: string }>('show shared_buffers');
    expect(shown.rows[0]?.shared_buffers).toBe(EMBEDDED_POSTGRES_SETTINGS.shared_buffers);

    const own = openDatabase<unknown>({ kind: 'pglite', dataDir: 'memory://' });
    try {
      const { rows } = await sql<{ shared_buffers: string }>`show shared_buffers`.execute(own.db);
      expect(rows[0]?.shared_buffers).toBe('16MB');
      // PGlite's own start parameters are kept beside the settings.
      const { rows: path } = await sql<{ search_path: string }>`show search_path`.execute(own.db);
      expect(path[0]?.search_path).toBe('public');
    } finally {
      await own.close();
    }
  });
});
