import { startEventPublishing } from '@switchyard/messaging';
import {
  type Database,
  type DatabaseOverrides,
  type Logger,
  listen,
  openServiceDatabase,
  type RunningService,
  startService,
} from '@switchyard/service-kit';
import { createPeerApp } from './app.ts';
import { type PeerConfig, parseClientPlaces } from './config.ts';
import { peerMigrations } from './db/migrations/index.ts';
import { PEER_SCHEMA, type PeerDatabase } from './db/schema.ts';
import { directoryPlaceEntry } from './directory/directory-entry.ts';
import { parsePeerUrl } from './directory/directory-name.ts';
import { loadDirectoryPlaces } from './directory/directory-places.ts';
import { peerThresholds } from './directory/peer-state.ts';
import { openWorkQueue } from './queue/work-queue.ts';
import { createChildDirectories } from './registry/child-directories.ts';
import { createChildEntryStore } from './registry/child-entry-store.ts';
import { createDeparture } from './registry/departure.ts';
import { createDirectoryLinks } from './registry/directory-links.ts';
import { createDirectoryStore, type DirectoryStore } from './registry/directory-store.ts';
import { createEntryStore, type EntryStore } from './registry/entry-store.ts';
import { createHeartbeatManager, type HeartbeatManager } from './registry/heartbeat-manager.ts';
import { createPlaceAdvertiser, type PlaceAdvertiser } from './registry/place-advertiser.ts';
import { createRegistrar, DIRECTORY_KEY_PREFIX, type Registrar } from './registry/registrar.ts';
import { createZoneTransfer } from './registry/zone-transfer.ts';
import { createDigestAuthenticator } from './security/digest-server.ts';
import { loadDigestUsers } from './security/digest-users.ts';
import { createPeerAllowList } from './security/peer-allow-list.ts';
import { createPeerClient } from './security/peer-client.ts';

/** A running peer-svc: its base URL, its registrar and store (for tests and the launcher), and `close()`. */
export type RunningPeer = RunningService<{
  url: string;
  port: number;
  database: Database<PeerDatabase>;
  store: DirectoryStore;
  entries: EntryStore;
  registrar: Registrar;
  heartbeats: HeartbeatManager;
  /** Pushes of our proxies to the peers (tests wait for `idle()`). */
  advertiser: PlaceAdvertiser;
}>;

/** Waits for `leaving` at most `ms` (a peer that does not answer must not hold the stop). */
async function leaveWithin(leaving: Promise<unknown>, ms: number): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  await Promise.race([leaving, new Promise((resolve) => (timer = setTimeout(resolve, ms)))]);
  clearTimeout(timer);
}

/**
 * Opens the database `config` names (or the shared embedded one in `overrides`) and brings the `peer` schema up to
 * date. @throws MigrationFailedError
 */
export function openPeerDatabase(config: PeerConfig, logger: Logger, overrides: DatabaseOverrides = {}): Promise<Database<PeerDatabase>> {
  return openServiceDatabase<PeerDatabase>(PEER_SCHEMA, config, peerMigrations, logger, overrides);
}

/**
 * Starts peer-svc: configuration checks (users, allow-list, own URL, client places, directory places), database
 * (`overrides.embeddedDatabase` when the launcher shares one) and migrations, client places recorded, the local directory entries replaced (the directory place's own and
 * `DIRECTORY_PLACES[_FILE]`), HTTP on `config.HOST:config.PORT`, the heartbeat manager, then registration
 * with each `PEER_RENDEZVOUS` peer and with the `PEER_PARENT` as its child, in the background (failures logged; the
 * heartbeats retry). Rendezvous peers and the parent are kept when they fail.
 * `close()` stops the heartbeats, tells the peers we leave (`FailDirectory.action`, at most `PEER_LEAVE_TIMEOUT_MS`), then HTTP, the work queue, the peer client, the events' relay and bus, and the database.
 * @throws ConfigError (a bad directory place) and ConfigError-like errors (DigestUsersError, PeerAllowListError, DirectoryNameError, TypeError) / MigrationFailedError / the listen error
 * (after closing what it had opened)
 */
export async function startPeerService(config: PeerConfig, logger: Logger, overrides: DatabaseOverrides = {}): Promise<RunningPeer> {
  const users = loadDigestUsers({ realm: config.DIGEST_REALM, file: config.PEER_USERS_FILE, env: config.PEER_USERS });
  const allowList = createPeerAllowList(config.PEER_ALLOW_LIST);
  const selfUrl = parsePeerUrl(config.PEER_SELF_URL);
  const clientPlaces = parseClientPlaces(config.CLIENT_PLACES);
  const selfKey = `${DIRECTORY_KEY_PREFIX}${selfUrl.href}`;
  const places = loadDirectoryPlaces({ file: config.DIRECTORY_PLACES_FILE, env: config.DIRECTORY_PLACES, selfKey });
  const rendezvous = config.PEER_RENDEZVOUS.split(',')
    .map((entry) => entry.trim())
    .filter((entry) => entry !== '');
  const parent = config.PEER_PARENT.trim() === '' ? undefined : parsePeerUrl(config.PEER_PARENT.trim()).href;
  const configured = new Set([...rendezvous.map((url) => parsePeerUrl(url).href), ...(parent === undefined ? [] : [parent])]);
  const thresholds = peerThresholds({ unhealthyAfter: config.HEARTBEAT_UNHEALTHY_AFTER, failedAfter: config.HEARTBEAT_FAILED_AFTER });

  return startService(async (scope) => {
    const database = scope.use(await openPeerDatabase(config, logger, overrides));
    // Directory events: RabbitMQ at AMQP_URL, else an in-process bus (nothing outside the process hears them).
    const events = await startEventPublishing({
      db: database.db,
      schema: PEER_SCHEMA,
      logger,
      amqpUrl: config.AMQP_URL,
      exchange: config.EVENTS_EXCHANGE,
    });
    scope.defer(() => events.close());
    const store = createDirectoryStore(database.db.withSchema(PEER_SCHEMA));
    for (const [name, queue] of clientPlaces) await store.saveClientPlace(name, queue);
    const entries = createEntryStore(database.db.withSchema(PEER_SCHEMA));
    await entries.replaceLocal([directoryPlaceEntry(selfKey), ...places]);
    const client = createPeerClient({
      allowList,
      credentials: { username: config.PEER_CLIENT_USER, password: config.PEER_CLIENT_PASSWORD, realm: config.DIGEST_REALM },
      algorithms: config.DIGEST_ALGORITHMS,
      connectTimeoutMs: config.PEER_CONNECT_TIMEOUT_MS,
      responseTimeoutMs: config.PEER_RESPONSE_TIMEOUT_MS,
      logger,
    });
    scope.defer(() => client.close());
    const zoneTransfer = createZoneTransfer({
      entries,
      selfHostUrl: selfUrl.hostUrl,
      dataIds: config.DIRECTORY_TRANSFER_DATA_IDS,
      maxBytes: config.PEER_TRANSFER_MAX_BYTES,
      logger,
    });
    const registrar = createRegistrar({
      selfUrl,
      allowList,
      client,
      store,
      maxPeers: config.PEER_MAX,
      zoneTransfer,
      transferMaxBytes: config.PEER_TRANSFER_MAX_BYTES,
    });
    const advertiser = createPlaceAdvertiser({ store, client, concurrency: config.HEARTBEAT_CONCURRENCY, logger });
    scope.defer(() => advertiser.idle());
    const children = createChildDirectories({
      selfUrl,
      selfKey,
      store,
      entries,
      childEntries: createChildEntryStore(database.db.withSchema(PEER_SCHEMA)),
      client,
      advertiser,
      transferRules: {
        selfHostUrl: selfUrl.hostUrl,
        dataIds: config.DIRECTORY_TRANSFER_DATA_IDS,
        maxBytes: config.PEER_TRANSFER_MAX_BYTES,
        logger,
      },
      maxPeers: config.PEER_MAX,
      logger,
    });
    const links = createDirectoryLinks({ registrar, children, entries });
    const isConfigured = (url: string) => configured.has(url);
    const departure = createDeparture({
      selfKey,
      store,
      links,
      client,
      isConfigured,
      failedAfter: thresholds.failedAfter,
      concurrency: config.HEARTBEAT_CONCURRENCY,
      onChange: (change) => logger.info(change, 'peer health changed'),
      logger,
    });
    const heartbeats = createHeartbeatManager({
      store,
      links,
      client,
      selfKey,
      intervalMs: config.HEARTBEAT_INTERVAL_MS,
      thresholds,
      isConfigured,
      concurrency: config.HEARTBEAT_CONCURRENCY,
      expireAfter: config.PEER_EXPIRE_AFTER,
      onChange: (change) => logger.info(change, 'peer health changed'),
      logger,
    });
    // RabbitMQ at AMQP_URL, else durable rows of peer.work_bundle (nothing accepted is lost on a restart).
    const workQueue = await openWorkQueue({
      amqpUrl: config.AMQP_URL,
      db: database.db.withSchema(PEER_SCHEMA),
      databaseLimit: config.WORK_QUEUE_LIMIT,
      logger,
    });
    scope.defer(() => workQueue.close());
    const authenticator = createDigestAuthenticator({ realm: config.DIGEST_REALM, users, algorithms: config.DIGEST_ALGORITHMS });
    const app = createPeerApp({
      logger,
      ping: database.ping,
      store,
      entries,
      registrar,
      departure,
      children,
      allowList,
      transferDataIds: config.DIRECTORY_TRANSFER_DATA_IDS,
      workQueue,
      authenticate: authenticator.middleware,
      formLimitBytes: config.FORM_LIMIT_BYTES,
    });
    const http = scope.use(await listen(app, config.PORT, config.HOST));
    logger.info({ url: http.url, self: selfUrl.href }, 'peer-svc listening');
    heartbeats.start();
    // Disposed in reverse order: heartbeats stop first, then the peers are told we leave (while HTTP still answers
    // their call-backs), then HTTP closes.
    scope.defer(async () => {
      await heartbeats.stop();
      await leaveWithin(departure.announceLeave(), config.PEER_LEAVE_TIMEOUT_MS);
    });
    for (const peer of rendezvous) {
      registrar
        .registerWith(peer)
        .catch((error: unknown) => logger.warn({ peer, err: error }, 'registration with a rendezvous peer failed'));
    }
    if (parent !== undefined) {
      registrar
        .registerAsChild(parent)
        .catch((error: unknown) => logger.warn({ parent, err: error }, 'registration with the parent directory failed'));
    }
    return { url: http.url, port: http.port, database, store, entries, registrar, heartbeats, advertiser };
  });
}
