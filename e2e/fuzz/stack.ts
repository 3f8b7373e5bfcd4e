import { randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DEMO_SEED_PATH } from '@switchyard/github-emulator';
import { emulatorRegistryEnv } from '@switchyard/registry-emulator';
import {
  createTestDatabase,
  deleteConsumerQueues,
  freePort,
  type ProcessStack,
  type RunningProcess,
  type ServiceProcess,
} from '@switchyard/service-kit/testing';
import amqplib from 'amqplib';

const main = (path: string) => new URL(`../../${path}`, import.meta.url).pathname;
const emulatorMain = main('packages/github-emulator/src/main.ts');
const registryMain = main('packages/registry-emulator/src/main.ts');
const catalogMain = main('services/catalog-svc/src/main.ts');
const configMain = main('services/config-svc/src/main.ts');
const releaseMain = main('services/release-svc/src/main.ts');
const workerMain = main('services/release-svc/src/worker-main.ts');
const peerMain = main('services/peer-svc/src/main.ts');
const gatewayMain = main('services/gateway/src/main.ts');

/** The demo seed's tokens (packages/github-emulator/src/demo-seed.json): two users and the bot every organisation has. */
export const DEMO_TOKENS = { alice: 'demo-token-alice', bob: 'demo-token-bob', bot: 'demo-token-bot' } as const;

/** The Digest user peer-svc accepts in the fuzz stack. */
export const PEER_CREDENTIALS = { user: 'emissary', password: 'fuzz-peer-secret' } as const;

/** The client place peer-svc knows in the fuzz stack (`pickUpClientName`). */
export const PEER_CLIENT_PLACE = 'fuzz-pickup-client';

/** The secret release-svc's `POST /webhooks/github` checks deliveries' `X-Hub-Signature-256` with (`WEBHOOK_SECRET`). */
export const WEBHOOK_SECRET = 'fuzz-webhook-secret-0123456789';

/**
 * The key config-svc seals registry credentials' secrets with and the worker opens them with (`SECRETS_KEY`, 32 bytes
 * as 64 hex digits): without it, storing a credential answers 503.
 */
const SECRETS_KEY = 'f0'.repeat(32);

/** The whole system as the fuzzer drives it: the gateway's URL, what the peer endpoints expect, and every process. */
export interface FuzzStack {
  /** `http://127.0.0.1:<port>` of the gateway: every fuzzed request goes there. */
  gatewayUrl: string;
  /** peer-svc's own directory place URL (`http://127.0.0.1:<port>/DirectoryPlace`), the only allow-listed peer. */
  peerSelfUrl: string;
  /** Every process of the stack by name (`gateway`, `catalog-svc`, ...), to check that none has exited. */
  processes: Record<string, RunningProcess>;
}

/** Where the stack's backing servers are. */
export interface FuzzStackOptions {
  /** A PostgreSQL URL whose user may CREATE DATABASE; each API gets a fresh database, dropped on dispose. */
  databaseUrl: string;
  /** RabbitMQ; the stack uses an exchange, queue prefix and client-place queue of its own, deleted on dispose. */
  amqpUrl: string;
}

/** Names of the processes that are still running: for each one that exited, `name exited with <code|signal>`. */
export function exitedProcesses(stack: FuzzStack): string[] {
  return Object.entries(stack.processes)
    .filter(([, running]) => running.child.exitCode !== null || running.child.signalCode !== null)
    .map(
      ([name, running]) => `${name} exited with ${running.child.exitCode ?? running.child.signalCode}:\n${running.output().slice(-2_000)}`,
    );
}

/**
 * Starts every process of the system, each its own OS process as a deployment runs them, and registers their stop
 * and the clean-up of databases, queues and the exchange in `processes`: the GitHub emulator (demo seed, with a rate
 * limit high enough for a long fuzz run), catalog-svc, config-svc, release-svc's API and one worker, peer-svc and the
 * gateway in front of all four APIs. config-svc and the worker share a `SECRETS_KEY` (registry credentials can be
 * stored), and release-svc's API checks webhook deliveries with {@link WEBHOOK_SECRET}. The dependency API runs with
 * its failed-authentication limit and per-token budget off (`AUTH_FAILURE_LIMIT=0`, `CODE_HOST_TOKEN_BUDGET=0`): the
 * fuzzer sends bad credentials from one address on purpose, and a 429 for every request after the twentieth would
 * hide what the routes do. peer-svc allow-lists only itself, so no request makes it contact another host.
 * @throws when a process does not become ready (with its output); what started is stopped by disposing `processes`
 */
export async function startFuzzStack(processes: ProcessStack, options: FuzzStackOptions): Promise<FuzzStack> {
  const suffix = randomBytes(4).toString('hex');
  const exchange = `e2e.fuzz.${suffix}`;
  const queuePrefix = `e2e.fuzz.${suffix}`;
  const placeQueue = `e2e_fuzz_place_${suffix}`;

  const amqp = await amqplib.connect(options.amqpUrl);
  processes.defer(() => amqp.close().catch(() => undefined));
  processes.defer(async () => {
    await deleteConsumerQueues(
      options.amqpUrl,
      ['read-model', 'notifications', 'scans', 'update-runs', 'release-notifications', 'config-files', 'app-installations'].map(
        (consumer) => `${queuePrefix}.${consumer}`,
      ),
    );
    const channel = await amqp.createChannel();
    await channel.deleteQueue(placeQueue).catch(() => undefined);
    await channel.deleteExchange(exchange).catch(() => undefined);
    await channel.close().catch(() => undefined);
  });

  const [catalogDb, dependencyDb, peerDb] = await Promise.all(
    ['e2e_fuzz_catalog', 'e2e_fuzz_dependency', 'e2e_fuzz_peer'].map((label) => createTestDatabase(options.databaseUrl, label)),
  );
  for (const db of [catalogDb, dependencyDb, peerDb]) if (db) processes.defer(() => db.drop());

  const seedDir = mkdtempSync(join(tmpdir(), 'switchyard-fuzz-'));
  processes.defer(() => rmSync(seedDir, { recursive: true, force: true }));
  const seedPath = join(seedDir, 'seed.json');
  const seed = JSON.parse(readFileSync(DEMO_SEED_PATH, 'utf8')) as Record<string, unknown>;
  writeFileSync(seedPath, JSON.stringify({ ...seed, rateLimit: { limit: 10_000_000, windowSeconds: 3_600 } }));

  const emulator = await processes.service(emulatorMain, { CODE_HOST_SEED: seedPath, LOG_LEVEL: 'error' });
  // The registry emulator with its demo seed: the worker asks it, never a public registry.
  const registry = await processes.service(registryMain, { LOG_LEVEL: 'error' });
  const backend = {
    DATABASE_URL: dependencyDb?.url ?? '',
    SECRETS_KEY,
    AMQP_URL: options.amqpUrl,
    EVENTS_EXCHANGE: exchange,
    CODE_HOST_API_URL: emulator.url,
    AUTH_FAILURE_LIMIT: '0',
    CODE_HOST_TOKEN_BUDGET: '0',
    LOG_LEVEL: 'error',
  };
  const releasePort = await freePort();
  const peerPort = await freePort();
  const peerSelfUrl = `http://127.0.0.1:${peerPort}/DirectoryPlace`;
  // allSettled: one that fails must not leave the others starting after the stack was torn down.
  const started = await Promise.allSettled([
    processes.service(catalogMain, { DATABASE_URL: catalogDb?.url ?? '', LOG_LEVEL: 'error' }),
    processes.service(configMain, { ...backend, QUEUE_PREFIX: queuePrefix }),
    processes.service(releaseMain, { ...backend, WEBHOOK_SECRET }, { port: releasePort }),
    processes.service(
      workerMain,
      {
        ...backend,
        PORT: String(releasePort),
        QUEUE_PREFIX: queuePrefix,
        CODE_HOST_TOKEN: DEMO_TOKENS.bot,
        ...emulatorRegistryEnv(registry.url),
      },
      { portVariable: 'WORKER_PORT' },
    ),
    processes.service(
      peerMain,
      {
        DATABASE_URL: peerDb?.url ?? '',
        AMQP_URL: options.amqpUrl,
        EVENTS_EXCHANGE: exchange,
        PEER_USERS: `${PEER_CREDENTIALS.user}:${PEER_CREDENTIALS.password}`,
        PEER_CLIENT_USER: PEER_CREDENTIALS.user,
        PEER_CLIENT_PASSWORD: PEER_CREDENTIALS.password,
        PEER_ALLOW_LIST: peerSelfUrl,
        // The fuzzer's Digest client answers MD5 challenges only.
        DIGEST_ALGORITHMS: 'SHA-256,MD5',
        PEER_SELF_URL: peerSelfUrl,
        CLIENT_PLACES: `${PEER_CLIENT_PLACE}=${placeQueue}`,
        LOG_LEVEL: 'error',
      },
      { port: peerPort },
    ),
  ]);
  for (const result of started) if (result.status === 'rejected') throw result.reason;
  const [catalog, config, release, worker, peer] = started.map((result) => (result as PromiseFulfilledResult<ServiceProcess>).value) as [
    ServiceProcess,
    ServiceProcess,
    ServiceProcess,
    ServiceProcess,
    ServiceProcess,
  ];
  const gateway = await processes.service(gatewayMain, {
    CATALOG_SVC_URL: catalog.url,
    CONFIG_SVC_URL: config.url,
    RELEASE_SVC_URL: release.url,
    PEER_SVC_URL: peer.url,
    LOG_LEVEL: 'error',
  });
  return {
    gatewayUrl: gateway.url,
    peerSelfUrl,
    processes: {
      gateway,
      'github-emulator': emulator,
      'catalog-svc': catalog,
      'config-svc': config,
      'release-svc': release,
      'release-svc worker': worker,
      'peer-svc': peer,
    },
  };
}
