import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { DEMO_SEED_PATH, generateRepos, parseSeed, startGitHubEmulator } from '@switchyard/code-host/emulator';
import type { EventEnvelope } from '@switchyard/contracts';
import { createLogger, type Listening } from '@switchyard/service-kit';
import { createTestDatabase, waitFor } from '@switchyard/service-kit/testing';
import amqplib from 'amqplib';
import { inject } from 'vitest';
import { loadConfigServiceConfig } from '../src/config.ts';
import { type RunningConfigService, startConfigService } from '../src/service.ts';

/** Tokens of the demo seed's users. */
export const ALICE = 'demo-token-alice';
export const BOB = 'demo-token-bob';
/** An organisation of 250 repos that alice belongs to with write permission. */
export const BIGCO = { id: 2900, login: 'bigco', repos: 250, firstRepoId: 900_000 };

/** The demo seed plus {@link BIGCO}. */
export function testSeed() {
  const demo = JSON.parse(readFileSync(DEMO_SEED_PATH, 'utf8'));
  return parseSeed({
    ...demo,
    organizations: [
      ...demo.organizations,
      { id: BIGCO.id, login: BIGCO.login, members: [{ login: 'alice', role: 'member' }], defaultRepoPermission: 'write' },
    ],
    repos: [...demo.repos, ...generateRepos(BIGCO.login, BIGCO.repos, BIGCO.firstRepoId)],
  });
}

/** config-svc in this process on a fresh database and its own exchange, with the GitHub emulator and a queue that collects every event. */
export interface ConfigHarness {
  url: string;
  service: RunningConfigService;
  events: EventEnvelope[];
  /** Waits until an event matching `match` has arrived and returns it. */
  waitForEvent: (match: (event: EventEnvelope) => boolean) => Promise<EventEnvelope>;
  close: () => Promise<void>;
}

/** Starts a {@link ConfigHarness}. Call from `beforeAll`. */
export async function startConfigHarness(label: string): Promise<ConfigHarness> {
  const logger = createLogger('config-svc', process.env.TEST_LOG_LEVEL ?? 'silent');
  const emulator: Listening = await startGitHubEmulator({ seed: testSeed(), logger });
  const database = await createTestDatabase(inject('databaseUrl'), label);
  const exchange = `test.${label}.${randomBytes(4).toString('hex')}`;
  const connection = await amqplib.connect(inject('amqpUrl'));
  const channel = await connection.createChannel();
  await channel.assertExchange(exchange, 'topic', { durable: true });
  const { queue } = await channel.assertQueue('', { exclusive: true, autoDelete: true });
  await channel.bindQueue(queue, exchange, '#');
  const events: EventEnvelope[] = [];
  await channel.consume(
    queue,
    (message) => {
      if (message) events.push(JSON.parse(message.content.toString()));
    },
    { noAck: true },
  );
  const service = await startConfigService(
    loadConfigServiceConfig({
      HOST: '127.0.0.1',
      PORT: '0',
      DATABASE_URL: database.url,
      AMQP_URL: inject('amqpUrl'),
      EVENTS_EXCHANGE: exchange,
      CODE_HOST_API_URL: emulator.url,
    }),
    logger,
  );
  return {
    url: service.url,
    service,
    events,
    waitForEvent: (match) => waitFor(async () => events.find(match), 10_000),
    close: async () => {
      await service.close();
      await channel.deleteExchange(exchange).catch(() => {});
      await connection.close();
      await emulator.close();
      await database.drop();
    },
  };
}
