import { existsSync } from 'node:fs';
import pg from 'pg';
import type { TestProject } from 'vitest/node';
import './provided-context.ts';

const HOW_TO =
  'Integration and end-to-end tests need a real PostgreSQL server. Set TEST_DATABASE_URL ' +
  '(e.g. postgres://postgres@127.0.0.1:5432/postgres, a user that may CREATE DATABASE), or run a Docker engine so testcontainers can start one.';

function dockerAvailable(): boolean {
  return Boolean(process.env.DOCKER_HOST) || existsSync('/var/run/docker.sock');
}

/**
 * Vitest global setup of the integration and end-to-end projects: provides `databaseUrl` from
 * `TEST_DATABASE_URL`, else from a PostgreSQL container started with testcontainers when Docker is
 * there, else fails the run with a message saying how to provide one (never skips).
 */
export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const stops: Array<() => Promise<unknown>> = [];
  let databaseUrl = process.env.TEST_DATABASE_URL;
  if (!databaseUrl) {
    if (!dockerAvailable()) throw new Error(HOW_TO);
    const { PostgreSqlContainer } = await import('@testcontainers/postgresql');
    const container = await new PostgreSqlContainer('postgres:17-alpine').start();
    databaseUrl = container.getConnectionUri();
    stops.push(() => container.stop());
  }
  const client = new pg.Client({ connectionString: databaseUrl, connectionTimeoutMillis: 5_000 });
  try {
    await client.connect();
    await client.query('select 1');
  } catch (error) {
    throw new Error(`Cannot reach TEST_DATABASE_URL (${(error as Error).message}). ${HOW_TO}`);
  } finally {
    await client.end().catch(() => {});
  }
  project.provide('databaseUrl', databaseUrl);
  return async () => {
    for (const stop of stops.reverse()) await stop();
  };
}
