/** Thrown by {@link createPeerAllowList} for entries that are not `host:port`; `problems` names each bad entry. */
export class PeerAllowListError extends Error {
  readonly problems: readonly string[];

  constructor(problems: readonly string[]) {
    super(`invalid peer allow-list\n  ${problems.join('\n  ')}`);
    this.name = 'PeerAllowListError';
    this.problems = problems;
  }
}

/** Outcome of {@link PeerAllowList.check}: the parsed URL and its `host:port` key, or why it is refused. */
export type PeerCheck =
  | { ok: true; url: URL; hostPort: string }
  | { ok: false; reason: 'unparsable' | 'scheme' | 'userinfo' | 'not-listed'; hostPort?: string };

/** The configured peers; see {@link createPeerAllowList}. */
export interface PeerAllowList {
  /** The normalised entries (`host:port`, host lower-case, IPv6 bracketed). */
  readonly entries: ReadonlySet<string>;
  /** Whether `url` may be contacted: {@link PeerAllowList.check} succeeded. Never throws. */
  isAllowedPeer(url: string | URL): boolean;
  /** Parses and checks `url`; never throws, never resolves names, never connects. */
  check(url: string | URL): PeerCheck;
}

const defaultPorts: Record<string, string> = { 'http:': '80', 'https:': '443' };
const authorityOf = /^[A-Za-z][A-Za-z0-9+.-]*:[\\/]*([^\\/?#]*)/;

/** `host:port` of an http(s) URL as compared against the list (WHATWG-normalised host, explicit port). */
function hostPortOf(url: URL): string {
  return `${url.hostname}:${url.port === '' ? defaultPorts[url.protocol] : url.port}`;
}

/**
 * Builds the allow-list of peers from `host:port` entries, e.g. `127.0.0.1:9001`, `localhost:9002`, `[::1]:9003`
 * (a string is split on `,`, whitespace trimmed, empty entries ignored). The port is required (1-65535); a host is a
 * DNS name or an IP literal, IPv6 in brackets. Entries are normalised as a WHATWG URL host is (lower-case;
 * `[0:0::1]` → `[::1]`), which is also how URLs are normalised before comparison: a URL is allowed only when its
 * scheme is `http:` or `https:`, it carries no userinfo (`user:pw@`, even an empty `@`), and its normalised
 * `host:port` (default port 80/443 made explicit) is exactly an entry. Names are compared as names, never resolved
 * (so `localhost` does not admit `127.0.0.1`, and a name's DNS is trusted: prefer IP literals).
 * An empty list refuses everything.
 * @throws PeerAllowListError listing every malformed entry.
 */
export function createPeerAllowList(entries: string | Iterable<string>): PeerAllowList {
  const list = typeof entries === 'string' ? entries.split(',') : [...entries];
  const normalised = new Set<string>();
  const problems: string[] = [];
  for (const raw of list) {
    const entry = raw.trim();
    if (entry === '') continue;
    const match = /^([^/?#@\\\s]+):(\d{1,5})$/.exec(entry);
    const port = Number(match?.[2]);
    let host: string | undefined;
    try {
      const url = match?.[1] === undefined ? undefined : new URL(`http://${match[1]}/`);
      host = url !== undefined && url.port === '' && url.pathname === '/' ? url.hostname : undefined;
    } catch {
      host = undefined;
    }
    if (host === undefined || host === '' || !(port >= 1 && port <= 65_535)) {
      problems.push(`${JSON.stringify(entry)}: expected host:port with an explicit port 1-65535 (IPv6 as [::1]:port)`);
      continue;
    }
    normalised.add(`${host}:${port}`);
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
    return normalised.has(hostPort) ? { ok: true, url, hostPort } : { ok: false, reason: 'not-listed', hostPort };
  };

  return { entries: normalised, check, isAllowedPeer: (url) => check(url).ok };
}

/** The allow-list from the environment variable `PEER_ALLOW_LIST` (comma-separated `host:port`); unset means empty (nothing allowed). */
export function peerAllowListFromEnv(env: Record<string, string | undefined> = process.env): PeerAllowList {
  return createPeerAllowList(env.PEER_ALLOW_LIST ?? '');
}
