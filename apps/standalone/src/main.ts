// First: its flags apply to V8 before the other modules are evaluated.
import './v8-flags.ts';
import { randomBytes } from 'node:crypto';
import { loadCatalogConfig } from '@switchyard/catalog-svc/config';
import { startCatalogService } from '@switchyard/catalog-svc/start';
import { loadConfigServiceConfig } from '@switchyard/config-svc/config';
import { startConfigService } from '@switchyard/config-svc/start';
import { loadGatewayConfig } from '@switchyard/gateway/config';
import { startGateway } from '@switchyard/gateway/start';
import { loadDemoSeed, startGitHubEmulator, type WebhookOptions } from '@switchyard/github-emulator';
import { createInProcessBus, type MessageBus } from '@switchyard/messaging';
import { loadPeerConfig } from '@switchyard/peer-svc/config';
import { startPeerService } from '@switchyard/peer-svc/start';
import { emulatorRegistryEnv, loadDemoSeed as loadRegistrySeed, startRegistryEmulator } from '@switchyard/registry-emulator';
import { loadReleaseConfig } from '@switchyard/release-svc/config';
import { startReleaseApi } from '@switchyard/release-svc/start';
import { startReleaseWorker } from '@switchyard/release-svc/worker';
import {
  createLogger,
  type DatabaseOverrides,
  embeddedDataDir,
  initEmbeddedDataDir,
  openEmbeddedDatabase,
  runService,
  startService,
} from '@switchyard/service-kit';
import { banner } from './banner.ts';
import { acceleratedClock, isSimulated } from './clock.ts';
import { prepareDashboard } from './dashboard.ts';
import { demoAppAuth } from './demo-app.ts';
import { demoSecretsKey } from './demo-secrets-key.ts';
import { emulatorStateDirs } from './emulator-state.ts';
import { processTreeMemory } from './process-tree.ts';
import { readLauncherSettings } from './settings.ts';

/**
 * `pnpm start`: the whole stack in one process, each service on its own port behind the gateway.
 * With nothing configured it uses embedded PGlite under `DATA_DIR` (default `.data/`), an in-process
 * message bus, the GitHub emulator with its demo data on :8090 (release-svc's worker reads manifests
 * with the demo bot's token) and the package-registry emulator with its demo packages on :8091 (`REGISTRY_PORT`;
 * `REGISTRY_URLS` points update runs at real registries instead; the emulator's host:port joins `REGISTRY_ALLOWED_HOSTS`, so
 * accounts may register its private registries). The emulators keep what changes in them under
 * `DATA_DIR` too (`code-host/`, `registry/`), so a restart finds the pull requests and versions the services' rows
 * name; `DATA_DIR=memory://` keeps all of it in memory. Without `SECRETS_KEY`, registry credentials are
 * sealed with a key the launcher keeps in `DATA_DIR/secrets.key` (made on first start). `DATABASE_URL`, `AMQP_URL` and `CODE_HOST_API_URL` (with `CODE_HOST_TOKEN` for
 * the worker) switch to the real ones. `GATEWAY_PORT` (8080), `CONFIG_PORT` (8081), `RELEASE_PORT` (8082),
 * `CATALOG_PORT` (8083), `PEER_PORT` (8084) and `CODE_HOST_PORT` (8090) move the ports; `LOG_LEVEL` defaults to
 * `warn` here. peer-svc runs with a demo Digest user `emissary`/`emissary-demo`, itself on its allow-list, and a client
 * place `demo-pickup` whose work bundles go to RabbitMQ with `AMQP_URL`, else to its database (PGlite included).
 *
 * The gateway serves the dashboard (`apps/dashboard`) at `/ui/`: the launcher builds it first when its `dist/` is missing or
 * older than its sources (`node apps/dashboard/build.ts`, a child process running beside the services' start), and
 * starts without it, after a warning, when that build fails; `DASHBOARD_DIR` serves another built folder instead.
 *
 * Everything listens on loopback (127.0.0.1) only, since the banner prints the emulator's demo tokens: `HOST` (e.g.
 * `0.0.0.0`) moves the gateway, the one entry point, onto another address; the services behind it and the emulator stay
 * on loopback whatever `HOST` says. `METRICS_PORT` gives the gateway's `/metrics` a port of its own, on the same host.
 *
 * Memory (`pnpm bench:launcher-memory`): a fresh `DATA_DIR`'s database is created by a short-lived child process
 * ({@link initEmbeddedDataDir}), PGlite runs with a small `shared_buffers`, and `v8-flags.ts` keeps V8's heap and
 * PGlite's compiled code small: about 285 MiB resident once ready and 290 MiB after 10,000 books when started by
 * `./dev start` (which adds `--max-semi-space-size=16`; without it, 30 MiB more in some starts). The banner gives the
 * resident memory of the launcher's whole process tree ({@link processTreeMemory}).
 */
const env: Record<string, string | undefined> = { LOG_LEVEL: 'warn', ...process.env };
const loopback = '127.0.0.1';
// An empty HOST counts as unset, as it does for every service's configuration.
const gatewayHost = env.HOST || loopback;
/**
 * How long a signal gives the launcher to close every service (and their embedded database) before it exits with
 * status 1: longer than one service's deadline, since it closes them all, one after another.
 */
const LAUNCHER_SHUTDOWN_DEADLINE_MS = 30_000;

await runService(
  'switchyard',
  async () => {
    // Each part is registered as it starts: a failure closes those started so far, and close() stops them last first.
    const switchyard = await startService(async (scope) => {
      const level = env.LOG_LEVEL ?? 'warn';
      // CLOCK_START and CLOCK_RATE (the worker's scheduler clock) and CODE_HOST_RATE_LIMIT, for long runs (`pnpm soak`).
      const settings = readLauncherSettings(env);
      const clock = isSimulated(settings.clock) ? acceleratedClock(settings.clock) : undefined;
      // Built while the services start (it never rejects; a stop ends the build), awaited before the gateway starts.
      const stopBuild = new AbortController();
      scope.defer(() => stopBuild.abort());
      const dashboard = env.DASHBOARD_DIR
        ? Promise.resolve(env.DASHBOARD_DIR)
        : prepareDashboard(createLogger('dashboard', level), { signal: stopBuild.signal });
      const dataDir = env.DATA_DIR || '.data';
      // The emulators' state beside the database (none with memory://): a restart on the same folder keeps their world.
      const emulatorState = emulatorStateDirs(dataDir);
      let codeHostUrl = env.CODE_HOST_API_URL;
      // The emulator's webhooks go to the gateway's POST /webhooks/github, signed with the release API's WEBHOOK_SECRET
      // (a fresh one per start unless given); `url` is set once the gateway listens (the sender reads it per delivery).
      const webhookSecret = env.WEBHOOK_SECRET || randomBytes(24).toString('hex');
      const webhooks: WebhookOptions = { secret: webhookSecret };
      // How the worker acts on the code host: as given for another code host; on the emulator, as its demo App unless a
      // CODE_HOST_TOKEN says personal-token mode (`demo-token-bot`, the demo's bot account).
      let workerAuth: Record<string, string> = {};
      if (!codeHostUrl) {
        const codeHostPort = Number(env.CODE_HOST_PORT ?? 8090);
        const seed = loadDemoSeed();
        const emulator = await startGitHubEmulator({
          seed: settings.codeHostRateLimit ? { ...seed, rateLimit: { ...seed.rateLimit, limit: settings.codeHostRateLimit } } : seed,
          logger: createLogger('code-host-emulator', env.CODE_HOST_LOG_LEVEL ?? 'error'),
          port: codeHostPort,
          host: loopback,
          webhooks,
          ...(emulatorState.codeHost ? { dataDir: emulatorState.codeHost } : {}),
          ...(settings.installationTokenTtlMs ? { installationTokenTtlMs: settings.installationTokenTtlMs } : {}),
          // The demo's pull-request and repo links (the dashboard's too) open the emulator's own pages: github.com has
          // none of its repos. CODE_HOST_HTML_URL names another web address.
          ...(env.CODE_HOST_HTML_URL || codeHostPort !== 0
            ? { htmlBaseUrl: env.CODE_HOST_HTML_URL || `http://${loopback}:${codeHostPort}` }
            : {}),
        });
        scope.use(emulator);
        codeHostUrl = emulator.url;
        workerAuth = env.CODE_HOST_TOKEN
          ? { CODE_HOST_TOKEN: env.CODE_HOST_TOKEN, GITHUB_APP_ID: '', GITHUB_APP_PRIVATE_KEY: '' }
          : await demoAppAuth(seed, emulatorState.codeHost);
      }
      let registryEnv: Record<string, string> = {};
      let registryUrl: string | undefined;
      if (!env.REGISTRY_URLS) {
        const registries = await startRegistryEmulator({
          seed: loadRegistrySeed(),
          logger: createLogger('registry-emulator', env.REGISTRY_LOG_LEVEL ?? 'error'),
          port: Number(env.REGISTRY_PORT ?? 8091),
          host: loopback,
          ...(emulatorState.registry ? { dataDir: emulatorState.registry } : {}),
        });
        scope.use(registries);
        registryUrl = registries.url;
        registryEnv = emulatorRegistryEnv(registries.url);
      }
      // The outbound guard's allow-list of config-svc (the base URLs accounts register) and of the worker (where it
      // connects): the operator's REGISTRY_ALLOWED_HOSTS, and the registry emulator's host:port when it runs here, so an
      // account's private registry on the emulator (`…/private/npm/`) is allowed although it listens on loopback.
      const registryAllowedHosts = [env.REGISTRY_ALLOWED_HOSTS, registryEnv.REGISTRY_ALLOWED_HOSTS].filter(Boolean).join(',');
      const secretsKey = env.SECRETS_KEY || demoSecretsKey(dataDir);
      // One embedded PGlite for every service, each in its own schema (as they share one PostgreSQL database in compose),
      // opened before them so that it is closed after every service has let go of it.
      const embeddedDir = embeddedDataDir(dataDir, 'pglite');
      // A fresh folder is initialised by a short-lived child process (see initEmbeddedDataDir), then opened here.
      if (!env.DATABASE_URL) await initEmbeddedDataDir(embeddedDir);
      const database: DatabaseOverrides = env.DATABASE_URL ? {} : { embeddedDatabase: scope.use(openEmbeddedDatabase(embeddedDir)) };
      const bus: MessageBus | undefined = env.AMQP_URL
        ? undefined
        : scope.adopt(createInProcessBus({ logger: createLogger('bus', level) }), (inProcess) => inProcess.close());

      const catalogConfig = loadCatalogConfig({ ...env, HOST: loopback, PORT: env.CATALOG_PORT ?? '8083' });
      const catalog = scope.use(await startCatalogService(catalogConfig, createLogger('catalog-svc', catalogConfig.LOG_LEVEL), database));

      const configConfig = loadConfigServiceConfig({
        ...env,
        SECRETS_KEY: secretsKey,
        HOST: loopback,
        PORT: env.CONFIG_PORT ?? '8081',
        CODE_HOST_API_URL: codeHostUrl,
        REGISTRY_ALLOWED_HOSTS: registryAllowedHosts,
        // The gateway is in front: its X-Forwarded-For names the client whose failed authentications count.
        TRUST_PROXY: env.TRUST_PROXY ?? '1',
      });
      const config = scope.use(
        await startConfigService(configConfig, createLogger('config-svc', configConfig.LOG_LEVEL), {
          ...database,
          ...(bus ? { bus } : {}),
        }),
      );

      const releaseConfig = loadReleaseConfig({
        ...env,
        ...registryEnv,
        REGISTRY_ALLOWED_HOSTS: registryAllowedHosts,
        SECRETS_KEY: secretsKey,
        HOST: loopback,
        PORT: env.RELEASE_PORT ?? '8082',
        CODE_HOST_API_URL: codeHostUrl,
        ...workerAuth,
        TRUST_PROXY: env.TRUST_PROXY ?? '1',
        WEBHOOK_SECRET: webhookSecret,
        // The demo shows jobs becoming pull requests on the emulator.
        PULL_REQUESTS: env.PULL_REQUESTS ?? 'on',
      });
      const release = scope.use(
        await startReleaseApi(releaseConfig, createLogger('release-svc', releaseConfig.LOG_LEVEL), {
          ...database,
          ...(bus ? { bus } : {}),
        }),
      );
      // The worker shares the API's database handle: the API lets go of it, after the worker stopped.
      scope.use(
        await startReleaseWorker(releaseConfig, createLogger('release-worker', releaseConfig.LOG_LEVEL), {
          ...(bus ? { bus } : {}),
          database: release.database,
          health: false,
          ...(clock ? { now: clock } : {}),
        }),
      );

      const peerPort = env.PEER_PORT ?? '8084';
      const peerConfig = loadPeerConfig({
        PEER_USERS: 'emissary:emissary-demo',
        PEER_SELF_URL: `http://127.0.0.1:${peerPort}/DirectoryPlace`,
        CLIENT_PLACES: 'demo-pickup=switchyard.demo-pickup',
        PEER_ALLOW_LIST: `http://127.0.0.1:${peerPort}/DirectoryPlace`,
        // MD5 as well as SHA-256, for Digest clients that answer MD5 only (such as the end-to-end suites' client).
        DIGEST_ALGORITHMS: 'SHA-256,MD5',
        ...env,
        HOST: loopback,
        PORT: peerPort,
      });
      const peer = scope.use(await startPeerService(peerConfig, createLogger('peer-svc', peerConfig.LOG_LEVEL), database));

      const gatewayConfig = loadGatewayConfig({
        ...env,
        HOST: gatewayHost,
        PORT: env.GATEWAY_PORT ?? '8080',
        CATALOG_SVC_URL: catalog.url,
        CONFIG_SVC_URL: config.url,
        RELEASE_SVC_URL: release.url,
        PEER_SVC_URL: peer.url,
        DASHBOARD_DIR: await dashboard,
      });
      const gatewayLogger = createLogger('gateway', gatewayConfig.LOG_LEVEL);
      const gateway = scope.use(await startGateway(gatewayConfig, gatewayLogger));
      webhooks.url = `${gateway.url}/webhooks/github`;

      process.stdout.write(
        banner({
          gatewayUrl: gateway.url,
          gatewayHost,
          database: catalog.database.kind,
          dataDir: embeddedDir,
          pid: process.pid,
          residentMemory: processTreeMemory(),
          bus: bus ? 'in-process' : 'RabbitMQ (AMQP_URL)',
          codeHost: env.CODE_HOST_API_URL ? `${codeHostUrl} (CODE_HOST_API_URL)` : `GitHub emulator with demo data at ${codeHostUrl}`,
          demoData: !env.CODE_HOST_API_URL,
          codeHostUrl,
          registryUrl,
          peerUrl: peer.url,
          workQueue: peerConfig.AMQP_URL ? 'rabbitmq' : 'database',
          dashboard: gatewayConfig.DASHBOARD_DIR !== undefined,
          ...(clock ? { clock: { now: clock(), rate: settings.clock.rate } } : {}),
        }),
      );
      return { logger: gatewayLogger };
    });
    return {
      logger: switchyard.logger,
      service: {
        [Symbol.asyncDispose]: async () => {
          await switchyard.close();
          process.stdout.write('switchyard stopped\n');
        },
      },
    };
  },
  LAUNCHER_SHUTDOWN_DEADLINE_MS,
);
