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
import { loadDigestUsers, loadDirectoryPlaces, type PeerConfig, parseClientPlaces } from './config.ts';
import { peerMigrations } from './db/migrations/index.ts';
import { PEER_SCHEMA, type PeerDatabase } from './db/schema.ts';
import { directoryPlaceEntry } from './directory/directory-entry.policy.ts';
import { parsePeerUrl } from './directory/directory-name.policy.ts';
import { peerThresholds } from './directory/peer-state.policy.ts';
import { createChildDirectories } from './registry/child-directory.service.ts';
import { createDeparture } from './registry/departure.service.ts';
import { createDirectoryEntryService, type DirectoryEntryService } from './registry/directory-entry.service.ts';
import { createDirectoryLinks } from './registry/directory-links.service.ts';
import { startHeartbeatLoop } from './registry/heartbeat.loop.ts';
import { createHeartbeatService, type HeartbeatService } from './registry/heartbeat.service.ts';
import { createPeerService, type PeerService } from './registry/peer.service.ts';
import { createPeerActions } from './registry/peer-actions.service.ts';
import { createPlaceActions } from './registry/place-actions.service.ts';
import { createPlaceAdvertiser, type PlaceAdvertiser } from './registry/place-advertiser.service.ts';
import { createRegistrar, DIRECTORY_KEY_PREFIX, type Registrar } from './registry/registrar.service.ts';
import { createZoneTransfer } from './registry/zone-transfer.service.ts';
import { createDigestAuthenticator } from './security/digest-auth.middleware.ts';
import { createPeerClient } from './security/peer.client.ts';
import { createPeerAllowList } from './security/peer-allow-list.policy.ts';
import { createClientPlaceService } from './work-bundle/client-place.service.ts';
import { openWorkQueue } from './work-bundle/work-queue.service.ts';

/** A running peer-svc: its base URL, its services (for tests, the launcher and the benchmarks), and `close()`. */
export type RunningPeer = RunningService<{
  url: string;
  port: number;
  database: Database<PeerDatabase>;
  /** The directories known here (peers, children, the parent). */
  store: PeerService;
  /** The directory's entries. */
  entries: DirectoryEntryService;
  registrar: Registrar;
  /** The heartbeat rounds (tests run one with `beatOnce()`; the loop runs them every `HEARTBEAT_INTERVAL_MS`). */
  heartbeats: HeartbeatService;
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
 * (`overrides.embeddedDatabase` when the launcher shares one) and migrations, client places recorded, the local
 * directory entries replaced (the directory place's own and `DIRECTORY_PLACES[_FILE]`), HTTP on
 * `config.HOST:config.PORT`, the heartbeat loop, then registration with each `PEER_RENDEZVOUS` peer and with the
 * `PEER_PARENT` as its child, in the background (failures logged; the heartbeats retry). Rendezvous peers and the parent
 * are kept when they fail.
 * `close()` stops the heartbeat loop (waiting for its round), tells the peers we leave (`FailDirectory.action`, at most
 * `PEER_LEAVE_TIMEOUT_MS`), then closes HTTP, the work queue, the pushes of our places, the peer client, the events'
 * relay and bus, and the database.
 * @throws ConfigError (a bad directory place) and ConfigError-like errors (DigestUsersError, PeerAllowListError,
 *   DirectoryNameError, TypeError) / MigrationFailedError / the listen error (after closing what it had opened)
 */
export async function startPeerService(config: PeerConfig, logger: Logger, overrides: DatabaseOverrides = {}): Promise<RunningPeer> {
  const users = loadDigestUsers({ realm: config.DIGEST_REALM, file: config.PEER_USERS_FILE, env: config.PEER_USERS });
  const allowList = createPeerAllowList(config.PEER_ALLOW_LIST);
  const selfUrl = parsePeerUrl(config.PEER_SELF_URL);
  const clientPlaceQueues = parseClientPlaces(config.CLIENT_PLACES);
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
    const db = database.db.withSchema(PEER_SCHEMA);
    // Directory events: RabbitMQ at AMQP_URL, else an in-process bus (nothing outside the process hears them).
    const events = await startEventPublishing({
      db: database.db,
      schema: PEER_SCHEMA,
      logger,
      // The relay LISTENs for commits on PostgreSQL; on PGlite the outbox's writes wake it in-process.
      databaseUrl: database.kind === 'postgres' ? config.DATABASE_URL : undefined,
      amqpUrl: config.AMQP_URL,
      exchange: config.EVENTS_EXCHANGE,
    });
    scope.defer(() => events.close());
    const store = createPeerService(db);
    const entries = createDirectoryEntryService(db);
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
    const transferRules = {
      selfHostUrl: selfUrl.hostUrl,
      dataIds: config.DIRECTORY_TRANSFER_DATA_IDS,
      maxBytes: config.PEER_TRANSFER_MAX_BYTES,
      logger,
    };
    const zoneTransfer = createZoneTransfer({ entries, ...transferRules });
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
      db,
      client,
      advertiser,
      transferRules,
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
    const heartbeats = createHeartbeatService({
      store,
      links,
      client,
      selfKey,
      thresholds,
      isConfigured,
      concurrency: config.HEARTBEAT_CONCURRENCY,
      expireAfter: config.PEER_EXPIRE_AFTER,
      onChange: (change) => logger.info(change, 'peer health changed'),
      logger,
    });
    // RabbitMQ at AMQP_URL, else durable rows of peer.work_bundle (nothing accepted is lost on a restart).
    const workQueue = await openWorkQueue({ amqpUrl: config.AMQP_URL, db, databaseLimit: config.WORK_QUEUE_LIMIT, logger });
    scope.defer(() => workQueue.close());
    const clientPlaces = createClientPlaceService({ db, workQueue });
    await clientPlaces.record(clientPlaceQueues);
    const authenticator = createDigestAuthenticator({ realm: config.DIGEST_REALM, users, algorithms: config.DIGEST_ALGORITHMS });
    const app = createPeerApp({
      logger,
      ping: database.ping,
      peerActions: createPeerActions({ store, entries, registrar, departure, children, allowList }),
      placeActions: createPlaceActions({ store, entries, registrar, allowList, transferDataIds: config.DIRECTORY_TRANSFER_DATA_IDS }),
      clientPlaces,
      authenticate: authenticator.middleware,
      formLimitBytes: config.FORM_LIMIT_BYTES,
    });
    const http = scope.use(await listen(app, config.PORT, config.HOST));
    logger.info({ url: http.url, self: selfUrl.href }, 'peer-svc listening');
    // Disposed in reverse order: the heartbeat loop stops first (its round under way ends), then the peers are told we
    // leave (while HTTP still answers their call-backs), then HTTP closes.
    scope.defer(() => leaveWithin(departure.announceLeave(), config.PEER_LEAVE_TIMEOUT_MS));
    scope.use(startHeartbeatLoop({ heartbeats, intervalMs: config.HEARTBEAT_INTERVAL_MS, logger }));
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
