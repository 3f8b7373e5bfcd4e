import { DirectoryNameError, type PeerUrl, parsePeerUrl } from '../directory/directory-name.policy.ts';

/** Thrown by {@link createPeerAllowList} for entries that are not directory place URLs; `problems` names each bad entry. */
export class PeerAllowListError extends Error {
  readonly problems: readonly string[];

  constructor(problems: readonly string[]) {
    super(`invalid peer allow-list\n  ${problems.join('\n  ')}`);
    this.name = 'PeerAllowListError';
    this.problems = problems;
  }
}

/**
 * Outcome of {@link PeerAllowList.check}: the parsed URL, its `host:port` (for logs) and the allowed directory it
 * belongs to, or why it is refused.
 */
export type PeerCheck =
  | { ok: true; url: URL; hostPort: string; directory: string }
  | { ok: false; reason: 'unparsable' | 'scheme' | 'userinfo' | 'not-listed'; hostPort?: string };

/** The configured peers; see {@link createPeerAllowList}. */
export interface PeerAllowList {
  /** The normalised directory place URLs (`http://host:port/DirectoryPlace`: lower-case scheme and host, explicit port). */
  readonly entries: ReadonlySet<string>;
  /** Whether `directoryUrl` (a directory place URL, e.g. a directory name's location) is exactly an entry once normalised. Never throws. */
  isAllowedPeer(directoryUrl: string): boolean;
  /**
   * Whether a request URL may be contacted: an `http`/`https` URL without userinfo under an entry's base
   * (`scheme://host:port/` plus the entry's path up to its last `/`, e.g. `http://host:port/emissary/Heartbeat.action`
   * for the entry `http://host:port/DirectoryPlace`). Parses and checks; never throws, never resolves names, never connects.
   */
  check(url: string | URL): PeerCheck;
}

const defaultPorts: Record<string, string> = { 'http:': '80', 'https:': '443' };
const authorityOf = /^[A-Za-z][A-Za-z0-9+.-]*:[\\/]*([^\\/?#]*)/;

/** `host:port` of an http(s) URL (WHATWG-normalised host, explicit port). */
function hostPortOf(url: URL): string {
  return `${url.hostname}:${url.port === '' ? defaultPorts[url.protocol] : url.port}`;
}

function parseEntry(entry: string): PeerUrl | undefined {
  try {
    return parsePeerUrl(entry);
  } catch (error) {
    if (error instanceof DirectoryNameError) return undefined;
    throw error;
  }
}

/**
 * Builds the allow-list of peers from their directory place URLs, e.g. `http://127.0.0.1:9001/DirectoryPlace`,
 * `https://peers.example.com/DirectoryPlace` (a string is split on `,`, whitespace trimmed, empty entries ignored).
 * Entries are parsed and normalised as every directory place URL is (`parsePeerUrl`: lower-case scheme and host,
 * default port 80/443 made explicit, canonical IP literals, IPv6 bracketed).
 * - {@link PeerAllowList.isAllowedPeer}: a peer (RegisterPeer's `directoryName`, a heartbeat's `hbf`, a child directory,
 *   a rendezvous peer) is allowed only when its normalised directory URL equals an entry: scheme, host, port and path.
 *   So `https://host:port/DirectoryPlace` is not allowed by `http://host:port/DirectoryPlace`, nor is another path
 *   on the same host and port.
 * - {@link PeerAllowList.check}: the outbound client's check of a request URL (an endpoint beside an allowed directory).
 * Names are compared as names, never resolved (so `localhost` does not admit `127.0.0.1`, and a name's DNS is
 * trusted: prefer IP literals). An empty list refuses everything.
 * @throws PeerAllowListError listing every malformed entry (not an http(s) directory place URL, userinfo, query…).
 */
export function createPeerAllowList(entries: string | Iterable<string>): PeerAllowList {
  const list = typeof entries === 'string' ? entries.split(',') : [...entries];
  const normalised = new Set<string>();
  const bases = new Map<string, string>();
  const problems: string[] = [];
  for (const raw of list) {
    const entry = raw.trim();
    if (entry === '') continue;
    const url = parseEntry(entry);
    if (url === undefined) {
      problems.push(`${JSON.stringify(entry)}: expected a directory place URL such as http://host:port/DirectoryPlace`);
      continue;
    }
    normalised.add(url.href);
    bases.set(url.hostUrl, url.href);
  }
  if (problems.length > 0) throw new PeerAllowListError(problems);

  const check = (input: string | URL): PeerCheck => {
    let url: URL;
    try {
      url = typeof input === 'string' ? new URL(input) : new URL(input.href);
    } catch {
      return { ok: false, reason: 'unparsable' };
    }
    if (url.protocol !== 'http:' && url.protocol !== 'https:') return { ok: false, reason: 'scheme' };
    const authority = typeof input === 'string' ? authorityOf.exec(input.trim())?.[1] : undefined;
    if (url.username !== '' || url.password !== '' || authority?.includes('@')) return { ok: false, reason: 'userinfo' };
    const hostPort = hostPortOf(url);
    const target = `${url.protocol}//${hostPort}${url.pathname}`;
    for (const [base, directory] of bases) {
      if (target.startsWith(base)) return { ok: true, url, hostPort, directory };
    }
    return { ok: false, reason: 'not-listed', hostPort };
  };

  const isAllowedPeer = (directoryUrl: string) => {
    const url = parseEntry(directoryUrl);
    return url !== undefined && normalised.has(url.href);
  };

  return { entries: normalised, check, isAllowedPeer };
}

/** The allow-list from the environment variable `PEER_ALLOW_LIST` (comma-separated directory place URLs); unset means empty (nothing allowed). */
export function peerAllowListFromEnv(env: Record<string, string | undefined> = process.env): PeerAllowList {
  return createPeerAllowList(env.PEER_ALLOW_LIST ?? '');
}
