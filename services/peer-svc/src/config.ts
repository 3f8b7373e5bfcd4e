import { DOMAIN_EVENTS_EXCHANGE } from '@switchyard/contracts';
import { baseServiceEnv, databaseEnv, envPort, parseConfig } from '@switchyard/service-kit';
import { z } from 'zod';

/** Environment of peer-svc; every variable is optional except as noted. */
export const PeerEnv = z.object({
  ...baseServiceEnv,
  /** Port of the peer endpoints. */
  PORT: envPort(8084),
  ...databaseEnv,
  /** The topic exchange directory events go to (through the outbox). */
  EVENTS_EXCHANGE: z.string().min(1).default(DOMAIN_EVENTS_EXCHANGE),
  /** RabbitMQ URL; work bundles are published to client places' queues there. Unset: enqueue answers 503. */
  AMQP_URL: z
    .string()
    .regex(/^amqps?:\/\//, 'must be an amqp:// or amqps:// URL')
    .optional(),
  /** Realm of inbound Digest authentication (and of the users read). */
  DIGEST_REALM: z.string().min(1).default('EmissaryRealm'),
  /** Digest users, `user:password,user2:realm:password2` (ignored when PEER_USERS_FILE is set). */
  PEER_USERS: z.string().optional(),
  /** File of Digest users, one `user:password` or `user:realm:password` per line. */
  PEER_USERS_FILE: z.string().min(1).optional(),
  /** Peers that may be contacted and may contact us: comma-separated `host:port`. */
  PEER_ALLOW_LIST: z.string().default(''),
  /** This peer's own directory place URL, e.g. `http://127.0.0.1:8084/DirectoryPlace`. */
  PEER_SELF_URL: z.string().min(1).default('http://127.0.0.1:8084/DirectoryPlace'),
  /** Directory place URLs registered with at start (comma-separated); each must be allow-listed. */
  PEER_RENDEZVOUS: z.string().default(''),
  /** This server's user when a peer challenges it (Digest only). */
  PEER_CLIENT_USER: z.string().min(1).default('emissary'),
  /** Password of PEER_CLIENT_USER. */
  PEER_CLIENT_PASSWORD: z.string().default(''),
  /** Bound on connecting to a peer, in milliseconds. */
  PEER_CONNECT_TIMEOUT_MS: z.coerce.number().int().min(50).max(60_000).default(2_000),
  /** Bound on a peer's answer, in milliseconds. */
  PEER_RESPONSE_TIMEOUT_MS: z.coerce.number().int().min(50).max(120_000).default(5_000),
  /** Interval between heartbeats to every known peer, in milliseconds. */
  HEARTBEAT_INTERVAL_MS: z.coerce.number().int().min(50).max(3_600_000).default(30_000),
  /** Missed heartbeats in a row after which a peer is unhealthy. */
  HEARTBEAT_UNHEALTHY_AFTER: z.coerce.number().int().min(1).default(3),
  /** Missed heartbeats in a row after which a peer is failed. */
  HEARTBEAT_FAILED_AFTER: z.coerce.number().int().min(2).default(20),
  /** Largest accepted form body, in bytes (checked before parsing). */
  FORM_LIMIT_BYTES: z.coerce.number().int().min(1_024).max(16_777_216).default(1_048_576),
  /** Client places, `name=queue,name2=queue2`, recorded at start (names as `pickUpClientName` gives them). */
  CLIENT_PLACES: z.string().default(''),
});
export type PeerConfig = Readonly<z.output<typeof PeerEnv>>;

/**
 * Reads peer-svc's configuration from `env`.
 * @throws ConfigError listing every invalid variable
 */
export function loadPeerConfig(env: Record<string, string | undefined> = process.env): PeerConfig {
  return parseConfig('peer-svc', PeerEnv, env);
}

/**
 * Parses `CLIENT_PLACES` (`name=queue,...`; blanks ignored) into name → queue.
 * @throws TypeError for an entry without `=`, an empty name or queue
 */
export function parseClientPlaces(text: string): Map<string, string> {
  const places = new Map<string, string>();
  for (const raw of text.split(',')) {
    const entry = raw.trim();
    if (entry === '') continue;
    const eq = entry.lastIndexOf('=');
    const name = entry.slice(0, eq).trim();
    const queue = entry.slice(eq + 1).trim();
    if (eq < 0 || name === '' || queue === '') throw new TypeError(`CLIENT_PLACES entry ${JSON.stringify(entry)}: expected name=queue`);
    places.set(name, queue);
  }
  return places;
}
