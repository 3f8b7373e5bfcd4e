import { randomBytes } from 'node:crypto';
import pg from 'pg';

/** A database made for one test file: its URL, and `drop()` to remove it (connections are ended first). */
export interface TestDatabase {
  url: string;
  name: string;
  drop: () => Promise<void>;
}

/**
 * Creates a fresh, empty database on the server behind `adminUrl` (a URL whose user may
 * `CREATE DATABASE`), named `t_<label>_<random>`, so test files never see each other's rows.
 * @param adminUrl e.g. the `databaseUrl` the integration suites' global setup provides
 * @param label a short tag for the name (letters, digits, `_`)
 */
export async function createTestDatabase(adminUrl: string, label: string): Promise<TestDatabase> {
  const name = `t_${label.replace(/\W/g, '_').toLowerCase()}_${randomBytes(4).toString('hex')}`;
  await withAdmin(adminUrl, (client) => client.query(`create database "${name}"`));
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    name,
    drop: () => withAdmin(adminUrl, (client) => client.query(`drop database if exists "${name}" with (force)`)).then(() => undefined),
  };
}

async function withAdmin<T>(adminUrl: string, work: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: adminUrl });
  await client.connect();
  try {
    return await work(client);
  } finally {
    await client.end();
  }
}
