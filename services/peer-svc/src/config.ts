import { readFileSync } from 'node:fs';
import { DOMAIN_EVENTS_EXCHANGE } from '@switchyard/contracts';
import { baseServiceEnv, ConfigError, databaseEnv, envPort, parseConfig } from '@switchyard/service-kit';
import { z } from 'zod';
import type { DirectoryEntry } from './directory/directory-entry.policy.ts';
import { parseDirectoryPlaces } from './directory/directory-places.policy.ts';
import { DEFAULT_TRANSFER_DATA_IDS, parseTransferDataIds } from './directory/zone-transfer.policy.ts';
import type { DigestAlgorithm } from './security/digest.policy.ts';
import { DigestUsersError, parseDigestUsers } from './security/digest-users.policy.ts';

const DIGEST_ALGORITHM_NAMES: readonly DigestAlgorithm[] = ['SHA-256', 'MD5'];

/** Environment of peer-svc; every variable is optional except as noted. */
export const PeerEnv = z.object({
  ...baseServiceEnv,
  /** Port of the peer endpoints. */
  PORT: envPort(8084),
  ...databaseEnv,
  /** The topic exchange directory events go to (through the outbox). */
  EVENTS_EXCHANGE: z.string().min(1).default(DOMAIN_EVENTS_EXCHANGE),
  /** RabbitMQ URL; work bundles are published to client places' queues there. Unset: they are kept in the database. */
  AMQP_URL: z
    .string()
    .regex(/^amqps?:\/\//, 'must be an amqp:// or amqps:// URL')
    .optional(),
  /** Realm of inbound Digest authentication (and of the users read). */
  DIGEST_REALM: z.string().min(1).default('EmissaryRealm'),
  /**
   * Digest algorithms, comma-separated in order of preference (`SHA-256`, `MD5`; each at most once): the challenges
   * offered to inbound requests, and the only ones answered when a peer challenges our outbound calls.
   */
  DIGEST_ALGORITHMS: z
    .string()
    .default('SHA-256')
    .transform((text, ctx) => {
      const names = text.split(',').map((name) => name.trim().toUpperCase());
      const algorithms = DIGEST_ALGORITHM_NAMES.filter((algorithm) => names.includes(algorithm));
      const known = names.every((name) => (DIGEST_ALGORITHM_NAMES as readonly string[]).includes(name));
      if (!known || algorithms.length !== names.length) {
        ctx.addIssue({ code: 'custom', message: 'must be SHA-256 and/or MD5, comma-separated, each at most once' });
        return z.NEVER;
      }
      return names as DigestAlgorithm[];
    }),
  /** Digest users, `user:password,user2:realm:password2` (ignored when PEER_USERS_FILE is set). */
  PEER_USERS: z.string().optional(),
  /** File of Digest users, one `user:password` or `user:realm:password` per line. */
  PEER_USERS_FILE: z.string().min(1).optional(),
  /** Peers that may be contacted and may contact us: comma-separated directory place URLs (`http://host:port/DirectoryPlace`). */
  PEER_ALLOW_LIST: z.string().default(''),
  /** This peer's own directory place URL, e.g. `http://127.0.0.1:8084/DirectoryPlace`. */
  PEER_SELF_URL: z.string().min(1).default('http://127.0.0.1:8084/DirectoryPlace'),
  /** Directory place URLs registered with at start (comma-separated); each must be allow-listed. */
  PEER_RENDEZVOUS: z.string().default(''),
  /**
   * The directory place URL of our parent directory (upstream's `RELAY_HOST`): at start, and whenever it answers again,
   * we ask it to make us its child (`AddChildDirectory.action`); it must be allow-listed. Empty: no parent.
   */
  PEER_PARENT: z.string().default(''),
  /** This server's user when a peer challenges it (Digest only). */
  PEER_CLIENT_USER: z.string().min(1).default('emissary'),
  /** Password of PEER_CLIENT_USER; required when PEER_RENDEZVOUS names peers. */
  PEER_CLIENT_PASSWORD: z.string().default(''),
  /** Most peers recorded; a registration of a new peer beyond it is refused (403). */
  PEER_MAX: z.coerce.number().int().min(1).max(100_000).default(256),
  /**
   * Heartbeat rounds a peer that is neither configured (PEER_RENDEZVOUS) nor registered (`registered_at` unset) may miss
   * in a row before it is deleted.
   */
  PEER_EXPIRE_AFTER: z.coerce.number().int().min(1).max(1_000_000).default(3),
  /** Bound on connecting to a peer, in milliseconds. */
  PEER_CONNECT_TIMEOUT_MS: z.coerce.number().int().min(50).max(60_000).default(2_000),
  /** Bound on a peer's answer, in milliseconds. */
  PEER_RESPONSE_TIMEOUT_MS: z.coerce.number().int().min(50).max(120_000).default(5_000),
  /** Interval between heartbeats to every known peer, in milliseconds. */
  HEARTBEAT_INTERVAL_MS: z.coerce.number().int().min(50).max(3_600_000).default(30_000),
  /** Heartbeats in flight at once in a round (the rest wait for a slot). */
  HEARTBEAT_CONCURRENCY: z.coerce.number().int().min(1).max(256).default(8),
  /** Missed heartbeats in a row after which a peer is unhealthy. */
  HEARTBEAT_UNHEALTHY_AFTER: z.coerce.number().int().min(1).default(3),
  /** Missed heartbeats in a row after which a peer is failed. */
  HEARTBEAT_FAILED_AFTER: z.coerce.number().int().min(2).default(20),
  /** Largest accepted form body, in bytes (checked before parsing). */
  FORM_LIMIT_BYTES: z.coerce.number().int().min(1_024).max(16_777_216).default(1_048_576),
  /** Client places, `name=queue,name2=queue2`, recorded at start (names as `pickUpClientName` gives them). */
  CLIENT_PLACES: z.string().default(''),
  /**
   * Local places this directory advertises: `KEY|cost|quality|description` entries separated by `;` or newlines
   * (ignored when DIRECTORY_PLACES_FILE is set; see `parseDirectoryPlaces`).
   */
  DIRECTORY_PLACES: z.string().default(''),
  /** File of local places, one `KEY|cost|quality|description` per line (`#` comments). */
  DIRECTORY_PLACES_FILE: z.string().min(1).optional(),
  /** Largest directory (RegisterPeer answer) read from a peer in a zone transfer, in bytes; a larger one fails the registration. */
  PEER_TRANSFER_MAX_BYTES: z.coerce.number().int().min(1_024).max(67_108_864).default(4_194_304),
  /**
   * Data ids (`DATATYPE::SERVICE_TYPE`, comma-separated) kept from a peer's directory in a zone transfer; default upstream's
   * filter, `EMISSARY_DIRECTORY_SERVICES::STUDY,INITIAL::INPUT`.
   */
  DIRECTORY_TRANSFER_DATA_IDS: z
    .string()
    .default(DEFAULT_TRANSFER_DATA_IDS.join(','))
    .transform((text, ctx) => {
      try {
        return parseTransferDataIds(text);
      } catch (error) {
        ctx.addIssue({ code: 'custom', message: (error as Error).message });
        return z.NEVER;
      }
    }),
  /** Bound on telling the peers we leave, at a clean stop, in milliseconds. */
  PEER_LEAVE_TIMEOUT_MS: z.coerce.number().int().min(0).max(60_000).default(3_000),
  /** Most work bundles one client place's queue holds in the database (no AMQP_URL); beyond, enqueue answers 503. */
  WORK_QUEUE_LIMIT: z.coerce.number().int().min(1).max(10_000_000).default(10_000),
});
export type PeerConfig = Readonly<z.output<typeof PeerEnv>>;

/**
 * {@link PeerEnv} with the checks across variables: peers configured (PEER_RENDEZVOUS) or a parent (PEER_PARENT) need
 * PEER_CLIENT_PASSWORD; the parent is not also a rendezvous peer.
 */
const PeerEnvChecked = PeerEnv.superRefine((config, ctx) => {
  if ((config.PEER_RENDEZVOUS.trim() !== '' || config.PEER_PARENT.trim() !== '') && config.PEER_CLIENT_PASSWORD === '') {
    ctx.addIssue({
      code: 'custom',
      path: ['PEER_CLIENT_PASSWORD'],
      message: 'must be set when PEER_RENDEZVOUS or PEER_PARENT names directories (they challenge our registrations)',
    });
  }
  const parent = config.PEER_PARENT.trim();
  if (parent !== '' && config.PEER_RENDEZVOUS.split(',').some((url) => url.trim() === parent)) {
    ctx.addIssue({
      code: 'custom',
      path: ['PEER_PARENT'],
      message: 'must not also be in PEER_RENDEZVOUS (a directory is a peer or a parent)',
    });
  }
});

/**
 * Reads peer-svc's configuration from `env`.
 * @throws ConfigError listing every invalid variable, PEER_RENDEZVOUS or PEER_PARENT set without PEER_CLIENT_PASSWORD,
 *   and a PEER_PARENT that is also in PEER_RENDEZVOUS
 */
export function loadPeerConfig(env: Record<string, string | undefined> = process.env): PeerConfig {
  return parseConfig('peer-svc', PeerEnvChecked, env);
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

/** Where {@link loadDigestUsers} reads users: a file path (wins when set) or the value of `PEER_USERS`. */
export interface DigestUsersSource {
  /** The realm users are for; `user:realm:password` entries for another realm are skipped. */
  realm: string;
  file?: string | undefined;
  env?: string | undefined;
}

/**
 * Loads Digest users (`username → password`) from `source.file` (`PEER_USERS_FILE`, UTF-8, see `parseDigestUsers` for
 * the format) when set, else from `source.env` (`PEER_USERS`).
 * @throws DigestUsersError when neither is set, or the content is invalid; the file's read error (ENOENT…) as is.
 */
export function loadDigestUsers(source: DigestUsersSource): Map<string, string> {
  if (source.file !== undefined && source.file !== '') {
    return parseDigestUsers(readFileSync(source.file, 'utf8'), source.realm, 'file', source.file);
  }
  if (source.env !== undefined && source.env !== '') return parseDigestUsers(source.env, source.realm, 'env', 'PEER_USERS');
  throw new DigestUsersError('Digest users', ['neither a users file nor PEER_USERS is set']);
}

/** Where {@link loadDirectoryPlaces} reads the local places: a file path (wins when set) or the value of `DIRECTORY_PLACES`. */
export interface DirectoryPlacesSource {
  file?: string | undefined;
  env?: string | undefined;
  /** This directory's own key: a declared place may not use it (the directory advertises itself). */
  selfKey: string;
}

/**
 * The local places of `DIRECTORY_PLACES_FILE` (UTF-8, when set) or else `DIRECTORY_PLACES` (none when neither is set),
 * in the format of `parseDirectoryPlaces`.
 * @throws ConfigError for an unreadable file or any bad entry
 */
export function loadDirectoryPlaces(source: DirectoryPlacesSource): DirectoryEntry[] {
  if (source.file !== undefined && source.file !== '') {
    let text: string;
    try {
      text = readFileSync(source.file, 'utf8');
    } catch (error) {
      throw new ConfigError('peer-svc', [
        `DIRECTORY_PLACES_FILE: cannot read ${source.file} (${(error as { code?: string }).code ?? 'error'})`,
      ]);
    }
    return parseDirectoryPlaces(text, 'file', source.selfKey);
  }
  return parseDirectoryPlaces(source.env ?? '', 'env', source.selfKey);
}
