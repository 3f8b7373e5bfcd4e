import { existsSync } from 'node:fs';
import amqplib from 'amqplib';
import pg from 'pg';
import type { TestProject } from 'vitest/node';
import './provided-context.ts';
import { startTestContainers } from './test-containers.ts';

const HOW_TO =
  'Integration and end-to-end tests need a real PostgreSQL server and a real RabbitMQ broker. Set TEST_DATABASE_URL ' +
  '(e.g. postgres://postgres@127.0.0.1:5432/postgres, a user that may CREATE DATABASE) and TEST_AMQP_URL ' +
  '(e.g. amqp://guest:guest@127.0.0.1:5672), or run a Docker engine so testcontainers can start them.';

function dockerAvailable(): boolean {
  return Boolean(process.env.DOCKER_HOST) || existsSync('/var/run/docker.sock');
}

async function checkPostgres(url: string): Promise<void> {
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 5_000 });
  try {
    await client.connect();
    await client.query('select 1');
  } catch (error) {
    throw new Error(`Cannot reach PostgreSQL at TEST_DATABASE_URL (${(error as Error).message}). ${HOW_TO}`);
  } finally {
    await client.end().catch(() => {});
  }
}

async function checkRabbitMq(url: string): Promise<void> {
  try {
    const connection = await amqplib.connect(url, { timeout: 5_000 });
    await connection.close();
  } catch (error) {
    throw new Error(`Cannot reach RabbitMQ at TEST_AMQP_URL (${(error as Error).message}). ${HOW_TO}`);
  }
}

/**
 * Vitest global setup of the integration and end-to-end projects. Provides `databaseUrl` and `amqpUrl`
 * from `TEST_DATABASE_URL` and `TEST_AMQP_URL`, else from containers started with testcontainers when a
 * Docker engine is there (removed again at the end of the run, pass or fail; see `test-containers.ts`),
 * else fails the run with a message saying how to provide them (never skips).
 */
export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  let databaseUrl = process.env.TEST_DATABASE_URL;
  let amqpUrl = process.env.TEST_AMQP_URL;
  if ((!databaseUrl || !amqpUrl) && !dockerAvailable()) throw new Error(HOW_TO);
  const containers = await startTestContainers({ postgres: !databaseUrl, rabbitmq: !amqpUrl });
  databaseUrl ??= containers.databaseUrl as string;
  amqpUrl ??= containers.amqpUrl as string;
  try {
    await Promise.all([checkPostgres(databaseUrl), checkRabbitMq(amqpUrl)]);
  } catch (error) {
    await containers.remove();
    throw error;
  }
  project.provide('databaseUrl', databaseUrl);
  project.provide('amqpUrl', amqpUrl);
  return containers.remove;
}
