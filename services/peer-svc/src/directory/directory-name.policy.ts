/**
 * Directory names (`KeyManipulator` keys) and directory place URLs, parsed and normalised.
 *
 * Grammar (upstream's `KeyManipulator`, https://github.com/NationalSecurityAgency/emissary,
 * `src/main/java/emissary/directory/KeyManipulator.java`): `dataType.serviceName.serviceType.serviceLocation[$expense]`, e.g.
 * `EMISSARY_DIRECTORY_SERVICES.DIRECTORY.STUDY.http://host:8001/DirectoryPlace$5050`. As in
 * `KeyManipulator.isValid`, only the dots *before* the first `//` separate tuples (so dots in the host
 * name do not count) and there must be exactly four tuples, the fourth being the URL's scheme. The
 * service location runs up to the first `$`; what follows is the expense (`cost*100 + 100 - quality`).
 *
 * This project is stricter than the engine (which accepted any text): the name must be printable ASCII
 * without whitespace, at most {@link MAX_DIRECTORY_NAME_LENGTH} characters; tuples are
 * `[A-Za-z0-9_*#-]{1,128}` (`*` for the wildcard keys, `#` for upstream's taint-breaking prefix); the
 * location is an `http`/`https` URL with no userinfo, no query or fragment, no percent-encoding, and a
 * path whose last segment names the place (so `foo.bar.baz.http://attacker:9999/` is malformed).
 */

/** Longest accepted directory name or directory place URL, in characters (the engine had no bound). */
export const MAX_DIRECTORY_NAME_LENGTH = 1024;
/** Longest accepted data type, service name or service type tuple, in characters. */
export const MAX_TUPLE_LENGTH = 128;
/** Largest accepted `$expense` (a Java `int` upstream). */
export const MAX_EXPENSE = 2_147_483_647;
/** Place name of every directory: the peer identity is `*.*.*.<hostUrl>DirectoryPlace` (`KeyManipulator.getDefaultDirectoryKey`). */
export const DIRECTORY_PLACE_NAME = 'DirectoryPlace';
/** Port assumed when a URL names none, made explicit by normalisation. */
export const DEFAULT_PORTS = { http: 80, https: 443 } as const;

/** Why a name was refused; `message` on the error says it in words (it never repeats the input). */
export type DirectoryNameProblem =
  | 'not-a-string'
  | 'too-long'
  | 'forbidden-character'
  | 'no-peer-url'
  | 'tuple-count'
  | 'tuple'
  | 'expense'
  | 'scheme'
  | 'userinfo'
  | 'host'
  | 'port'
  | 'query-or-fragment'
  | 'path';

/**
 * A malformed directory name or directory place URL. `problem` classifies it; `message` explains it
 * without echoing the input (callers that echo input neutralise it first, see `neutralise.policy.ts`).
 */
export class DirectoryNameError extends Error {
  readonly problem: DirectoryNameProblem;

  constructor(problem: DirectoryNameProblem, message: string) {
    super(message);
    this.name = 'DirectoryNameError';
    this.problem = problem;
  }
}

/** A normalised directory place URL, e.g. `http://host:8001/DirectoryPlace`. */
export interface PeerUrl {
  scheme: 'http' | 'https';
  /** Lower-case host name, canonical dotted IPv4, or bracketed compressed IPv6 (`[::1]`). */
  host: string;
  /** Always explicit: 80 / 443 when the input named none. */
  port: number;
  /** Starts with `/`; its last segment is {@link placeName}. */
  path: string;
  /** `scheme://host:port`. */
  origin: string;
  /** Up to and including the path's last `/` (`KeyManipulator.getServiceHostUrl`): `http://host:8001/`. */
  hostUrl: string;
  /** The last path segment, e.g. `DirectoryPlace`. */
  placeName: string;
  /** The whole normalised URL: `origin + path`. */
  href: string;
}

/** A parsed directory name; every string is normalised. */
export interface DirectoryName {
  dataType: string;
  serviceName: string;
  serviceType: string;
  /** The `$expense` suffix when present (upstream: `cost*100 + 100 - quality`). */
  expense: number | undefined;
  /** The service location. */
  url: PeerUrl;
  /** The whole normalised key, with `$expense` when present. */
  key: string;
  /** The normalised key without `$expense` (what upstream shows as a directory's `location`). */
  keyWithoutExpense: string;
  /** `*.*.*.<hostUrl>DirectoryPlace` (`KeyManipulator.getDefaultDirectoryKey`): the peer's identity. */
  peerKey: string;
}

const TUPLE = /^[A-Za-z0-9_*#-]+$/;
const PRINTABLE_ASCII = /^[\x21-\x7e]*$/;
const AUTHORITY = /^(\[[0-9A-Fa-f:.]+\]|[A-Za-z0-9.-]+)(?::(\d{1,5}))?$/;
const LABEL = /^[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?$/;
const SEGMENT = /^[A-Za-z0-9._~-]+$/;

function checkText(text: unknown, what: string): asserts text is string {
  if (typeof text !== 'string') throw new DirectoryNameError('not-a-string', `${what} must be a string`);
  if (text.length > MAX_DIRECTORY_NAME_LENGTH) {
    throw new DirectoryNameError('too-long', `${what} must be at most ${MAX_DIRECTORY_NAME_LENGTH} characters`);
  }
  if (!PRINTABLE_ASCII.test(text)) {
    throw new DirectoryNameError('forbidden-character', `${what} must be printable ASCII without whitespace or control characters`);
  }
}

function canonicalHost(raw: string): string {
  const host = raw.toLowerCase();
  if (!host.startsWith('[')) {
    if (host.length > 253 || !host.split('.').every((label) => LABEL.test(label))) {
      throw new DirectoryNameError('host', 'host must be a DNS name, an IPv4 address or a bracketed IPv6 address');
    }
  }
  try {
    // WHATWG parsing only canonicalises here (IPv4 forms such as 127.1, IPv6 compression): the
    // character checks above already refused everything it would otherwise have repaired silently.
    return new URL(`http://${host}/`).hostname;
  } catch {
    throw new DirectoryNameError('host', 'host must be a DNS name, an IPv4 address or a bracketed IPv6 address');
  }
}

/**
 * Parses and normalises a directory place URL such as `targetDir`, `hbt` or a name's service location:
 * `HTTP://Host:8001/DirectoryPlace` → `{ href: 'http://host:8001/DirectoryPlace', origin: 'http://host:8001', … }`.
 * Scheme and host become lower case, the port explicit, IPv4/IPv6 literals canonical.
 * @throws DirectoryNameError when it is not a string, longer than {@link MAX_DIRECTORY_NAME_LENGTH}, holds
 *   whitespace/control/non-ASCII characters, has a scheme other than http/https, userinfo, a bad host or
 *   port (1–65535), a query or fragment, percent-encoding, `.`/`..`/empty path segments, or no place name.
 */
export function parsePeerUrl(text: unknown): PeerUrl {
  checkText(text, 'directory place URL');
  const match = /^([A-Za-z][A-Za-z0-9+.-]*):\/\/([^/?#]*)(.*)$/.exec(text);
  if (!match) throw new DirectoryNameError('no-peer-url', 'directory place URL must have the form http(s)://host:port/Place');
  const [, rawScheme = '', authority = '', rest = ''] = match;
  const scheme = rawScheme.toLowerCase();
  if (scheme !== 'http' && scheme !== 'https') throw new DirectoryNameError('scheme', 'peer URL scheme must be http or https');
  if (authority.includes('@')) throw new DirectoryNameError('userinfo', 'peer URL must not carry user information');
  const hostPort = AUTHORITY.exec(authority);
  if (!hostPort) throw new DirectoryNameError('host', 'peer URL must name a host and optionally a port');
  const [, rawHost = '', rawPort] = hostPort;
  const port = rawPort === undefined ? DEFAULT_PORTS[scheme] : Number(rawPort);
  if (port < 1 || port > 65_535) throw new DirectoryNameError('port', 'peer URL port must be between 1 and 65535');
  const host = canonicalHost(rawHost);
  if (rest.includes('?') || rest.includes('#'))
    throw new DirectoryNameError('query-or-fragment', 'peer URL must not have a query or fragment');
  const segments = rest.split('/').slice(1);
  if (
    !rest.startsWith('/') ||
    !segments.every((segment) => SEGMENT.test(segment) && segment !== '.' && segment !== '..') ||
    segments.length === 0
  ) {
    throw new DirectoryNameError('path', 'peer URL path must be /-separated segments of [A-Za-z0-9._~-] ending in the place name');
  }
  const origin = `${scheme}://${host}:${port}`;
  const placeName = segments.at(-1) ?? '';
  return {
    scheme,
    host,
    port,
    path: rest,
    origin,
    hostUrl: origin + rest.slice(0, rest.length - placeName.length),
    placeName,
    href: origin + rest,
  };
}

/**
 * Parses and normalises a directory name `<dataType>.<serviceName>.<serviceType>.<peer_url>[$expense]`
 * (`KeyManipulator`), e.g. `EMISSARY_DIRECTORY_SERVICES.DIRECTORY.STUDY.HTTP://Host:8001/DirectoryPlace$5050` →
 * `{ dataType: 'EMISSARY_DIRECTORY_SERVICES', serviceName: 'DIRECTORY', serviceType: 'STUDY', expense: 5050,
 * url: { href: 'http://host:8001/DirectoryPlace', … }, peerKey: '*.*.*.http://host:8001/DirectoryPlace', … }`.
 * @throws DirectoryNameError for a malformed name: no `//` (no peer URL), not exactly four tuples before
 *   it, a tuple outside `[A-Za-z0-9_*#-]{1,128}`, an expense that is not a decimal int, or any URL problem
 *   listed at {@link parsePeerUrl}.
 */
export function parseDirectoryName(text: unknown): DirectoryName {
  checkText(text, 'directory name');
  const slashes = text.indexOf('//');
  if (slashes < 0) throw new DirectoryNameError('no-peer-url', 'directory name must end in a peer URL (<dotted_name>.<peer_url>)');
  const tuples = text.slice(0, slashes).split('.');
  if (tuples.length !== 4) {
    throw new DirectoryNameError('tuple-count', 'directory name must have exactly three dotted tuples before the peer URL');
  }
  const [dataType = '', serviceName = '', serviceType = '', schemePart = ''] = tuples;
  for (const tuple of [dataType, serviceName, serviceType]) {
    if (tuple.length > MAX_TUPLE_LENGTH || !TUPLE.test(tuple)) {
      throw new DirectoryNameError('tuple', `directory name tuples must be 1 to ${MAX_TUPLE_LENGTH} characters of [A-Za-z0-9_*#-]`);
    }
  }
  const location = schemePart + text.slice(slashes);
  const dollar = location.indexOf('$');
  let expense: number | undefined;
  if (dollar >= 0) {
    const digits = location.slice(dollar + 1);
    expense = Number(digits);
    if (!/^\d{1,10}$/.test(digits) || expense > MAX_EXPENSE) {
      throw new DirectoryNameError('expense', `directory name expense must be a decimal integer from 0 to ${MAX_EXPENSE}`);
    }
  }
  const url = parsePeerUrl(dollar >= 0 ? location.slice(0, dollar) : location);
  const keyWithoutExpense = `${dataType}.${serviceName}.${serviceType}.${url.href}`;
  return {
    dataType,
    serviceName,
    serviceType,
    expense,
    url,
    keyWithoutExpense,
    key: expense === undefined ? keyWithoutExpense : `${keyWithoutExpense}$${expense}`,
    peerKey: directoryKeyOf(url),
  };
}

/**
 * The key of the directory place on `url`'s host (`KeyManipulator.getDefaultDirectoryKey`):
 * `http://host:8001/ToUpperPlace` → `*.*.*.http://host:8001/DirectoryPlace`. A peer's identity.
 */
export function directoryKeyOf(url: PeerUrl): string {
  return `*.*.*.${url.hostUrl}${DIRECTORY_PLACE_NAME}`;
}

/** Whether `text` is the directory place URL `self` (after normalisation); false for anything that is not a URL. */
export function isSameDirectoryUrl(text: unknown, self: PeerUrl): boolean {
  try {
    return parsePeerUrl(text).href === self.href;
  } catch {
    return false;
  }
}

/**
 * The normalised form of a directory name (`parseDirectoryName(text).key`).
 * @throws DirectoryNameError as {@link parseDirectoryName}
 */
export function normaliseDirectoryName(text: unknown): string {
  return parseDirectoryName(text).key;
}

/**
 * The peer identity of a directory name: `*.*.*.<scheme>://host:port/…/DirectoryPlace`, the key the
 * allow-list, peer table and heartbeat map are keyed by (`KeyManipulator.getDefaultDirectoryKey`).
 * @throws DirectoryNameError as {@link parseDirectoryName}
 */
export function peerKeyOf(text: unknown): string {
  return parseDirectoryName(text).peerKey;
}
