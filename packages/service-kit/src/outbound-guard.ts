import { lookup as dnsLookup } from 'node:dns/promises';
import { isIP, type LookupFunction } from 'node:net';
import ipaddr from 'ipaddr.js';
import { Agent, buildConnector } from 'undici';
import { z } from 'zod';

/**
 * The outbound guard: one check for every request whose address a tenant can set (an account's private registry, a
 * URL a registry's document names, a redirect), after OWASP API7:2023 Server Side Request Forgery
 * (https://owasp.org/API-Security/editions/2023/en/0xa7-server-side-request-forgery/) and OWASP's SSRF prevention cheat
 * sheet. By default every public address is allowed and every other one refused: loopback, private (RFC 1918),
 * link-local (169.254.0.0/16, where cloud metadata answers, and fe80::/10), carrier-grade NAT (100.64.0.0/10),
 * unique-local (fc00::/7), unspecified, broadcast, multicast, reserved and documentation ranges, and the IPv6 forms that
 * carry an IPv4 address (IPv4-mapped `::ffff:a.b.c.d`, IPv4-compatible `::a.b.c.d`, NAT64, 6to4, Teredo) — the ranges
 * ipaddr.js (https://github.com/whitequark/ipaddr.js) names, and IPv6 outside 2000::/3. The operator's allow-list
 * (`REGISTRY_ALLOWED_HOSTS`) opens hosts, addresses and ranges on top: self-hosters run registries on internal hosts.
 *
 * The check that counts is made on the address actually connected to, after DNS: the guard's undici connector
 * ({@link OutboundGuard.connector}, {@link OutboundGuard.agent}) resolves a name itself, checks every address it
 * resolves to and connects only when all are allowed, so a name that resolves (or re-resolves: DNS rebinding) to a
 * refused address never gets a connection. {@link OutboundGuard.checkUrl} (no I/O) and
 * {@link OutboundGuard.checkUrlResolved} (with DNS) say the same at registration time, with a reason for the client.
 */

/** The `code` of an {@link OutboundRefusedError} (undici's retry interceptor does not retry an error with it). */
export const OUTBOUND_REFUSED = 'ERR_OUTBOUND_REFUSED';

/**
 * Why a URL or connection is refused: `unparsable` (not a URL, or no host), `scheme` (not http or https), `userinfo`
 * (`user:password@` in the URL), `address` (an address, given or resolved, in a refused range), `host` (a name refused
 * without resolving it: `localhost` and `*.localhost`, loopback by definition, RFC 6761 section 6.3).
 */
export type OutboundRefusalReason = 'unparsable' | 'scheme' | 'userinfo' | 'address' | 'host';

/**
 * What the guard allowed: `listed`, a host, address or range of the operator's list (connected to whatever address a
 * listed name resolves to); `public`, a public address (literal, or every address a name resolved to); `name`, a name
 * that is not listed and must be resolved, every address then checked ({@link OutboundGuard.checkUrl} cannot say more
 * without DNS); `unresolved`, such a name that did not resolve at {@link OutboundGuard.checkUrlResolved} (the
 * connection is checked when it is made).
 */
export type OutboundBasis = 'listed' | 'public' | 'name' | 'unresolved';

/** The guard's "yes": the host (lower case, no brackets or trailing dot), the port (explicit) and why. */
export interface OutboundAllowed {
  allowed: true;
  host: string;
  port: number;
  basis: OutboundBasis;
  /** The addresses the name resolved to (checkUrlResolved, connections), else empty. */
  addresses: string[];
}

/** The guard's "no": why, in a sentence for the client (no secrets: the URL's user info is never repeated). */
export interface OutboundRefusal {
  allowed: false;
  reason: OutboundRefusalReason;
  /** E.g. `evil.example resolves to 127.0.0.1, a loopback address, which the operator does not allow (REGISTRY_ALLOWED_HOSTS)`. */
  message: string;
  host?: string;
  port?: number;
  /** The refused address (as given or resolved). */
  address?: string;
  /** ipaddr.js's name of its range (`loopback`, `private`, `linkLocal`, …; `ipv4Compatible`, `notGlobalUnicast` are ours). */
  range?: string;
}

export type OutboundVerdict = OutboundAllowed | OutboundRefusal;

/**
 * A connection the guard refused (given to undici's connect callback, so a request through a guarded agent rejects
 * with it). `code` is {@link OUTBOUND_REFUSED}; `message` the refusal's sentence; nothing of any answer is in it
 * (there was none: no connection was made).
 */
export class OutboundRefusedError extends Error {
  readonly code = OUTBOUND_REFUSED;
  readonly refusal: OutboundRefusal;

  constructor(refusal: OutboundRefusal) {
    super(refusal.message);
    this.name = 'OutboundRefusedError';
    this.refusal = refusal;
  }
}

/** Whether `error` is (or was caused by) a connection the guard refused; `OutboundRefusedError`s of another copy of this module count. */
export function isOutboundRefused(error: unknown): error is OutboundRefusedError {
  for (let e = error, depth = 0; e instanceof Error && depth < 5; e = e.cause, depth++) {
    if ((e as { code?: unknown }).code === OUTBOUND_REFUSED) return true;
  }
  return false;
}

/** Thrown by {@link createOutboundGuard} for entries of the allow-list it cannot read; `problems` names each one. */
export class OutboundAllowListError extends Error {
  readonly problems: readonly string[];

  constructor(problems: readonly string[]) {
    super(`invalid allow-list of outbound hosts\n  ${problems.join('\n  ')}`);
    this.name = 'OutboundAllowListError';
    this.problems = problems;
  }
}

/** Resolves a name to its addresses (all of them), as `dns.promises.lookup(name, { all: true })` does. */
export type OutboundResolver = (hostname: string, family?: 0 | 4 | 6) => Promise<ReadonlyArray<{ address: string; family: number }>>;

/** Options of {@link createOutboundGuard}. */
export interface OutboundGuardOptions {
  /**
   * The operator's allow-list, an array or one comma-separated string (see {@link parseAllowedHosts}): `registry.corp`
   * (that name, any port), `registry.corp:8443` (that port only), `*.corp.example` (every name under it, not itself),
   * `10.1.2.3`, `10.1.2.3:8081`, `[fd00::1]:8081`, `::1`, `10.1.0.0/16`, `fd00::/8` (addresses, given or resolved).
   * Default none: public addresses only.
   */
  allowedHosts?: string | readonly string[];
  /** The operator's setting named in refusals, default `REGISTRY_ALLOWED_HOSTS`. */
  setting?: string;
  /** Name resolution; default `dns.promises.lookup` with `all: true` (the system resolver, as Node's own connections use). */
  resolve?: OutboundResolver;
  /** Bound on resolving a name in {@link OutboundGuard.checkUrlResolved}, ms, default 5000 (a name that takes longer counts as unresolved). */
  resolveTimeoutMs?: number;
}

/** The guard; see {@link createOutboundGuard}. */
export interface OutboundGuard {
  /** The allow-list, normalised (lower case, IDN as punycode, addresses canonical). */
  readonly allowedHosts: readonly string[];
  /**
   * Checks `url` without I/O: http or https, no user info, and a host that is allowed — a listed one, a public address,
   * or a name to resolve (`basis: 'name'`; a name's addresses are checked by {@link checkUrlResolved} and at connect time).
   */
  checkUrl(url: string | URL): OutboundVerdict;
  /**
   * {@link checkUrl}, then a name that is not listed is resolved and every address checked: a name that resolves to a
   * refused address is refused (`reason: 'address'`). A name that does not resolve (or not within `resolveTimeoutMs`)
   * is allowed as `unresolved`: the connection is checked when it is made.
   */
  checkUrlResolved(url: string | URL): Promise<OutboundVerdict>;
  /** Checks one address (IPv4 or IPv6, IPv4-mapped forms read as IPv4) connected to on `port`; `name` is the name it was resolved from, for the message. */
  checkAddress(address: string, port: number, name?: string): OutboundVerdict;
  /** A guard with the same options and `hosts` added to the allow-list (e.g. the operator's own registries). @throws OutboundAllowListError */
  allowing(hosts: Iterable<string>): OutboundGuard;
  /**
   * An undici connector that checks every connection before it is made: a literal address, a listed name, or a name it
   * resolves itself (every address checked; the socket connects only to those). A refused connection calls back with
   * an {@link OutboundRefusedError}. `options` are undici's `buildConnector` options (`timeout`, TLS options); a
   * `lookup` among them is replaced.
   */
  connector(options?: buildConnector.BuildOptions): buildConnector.connector;
  /**
   * An undici `Agent` whose every connection goes through {@link connector} (`options.connect` as its build options).
   * It follows no redirect (undici's default); a redirect interceptor composed on it (`agent.compose(interceptors.redirect(…))`)
   * connects through the guard too, and undici drops `authorization`, `cookie` and `proxy-authorization` on a redirect
   * to another origin.
   * @throws TypeError when `options.connect` is a function (it would bypass the guard)
   */
  agent(options?: Agent.Options): Agent;
}

type Address = ipaddr.IPv4 | ipaddr.IPv6;

/** One entry of the allow-list. */
type HostPattern =
  | { kind: 'name'; name: string; port: number | undefined }
  | { kind: 'suffix'; suffix: string; port: number | undefined }
  | { kind: 'address'; address: Address; port: number | undefined }
  | { kind: 'range'; range: [Address, number] };

/** IPv4-mapped IPv6 addresses read as the IPv4 address they carry. */
const canonical = (address: Address): Address =>
  address.kind() === 'ipv6' && (address as ipaddr.IPv6).isIPv4MappedAddress() ? (address as ipaddr.IPv6).toIPv4Address() : address;

const showAddress = (address: Address) => (address.kind() === 'ipv6' ? (address as ipaddr.IPv6).toRFC5952String() : address.toString());

const GLOBAL_UNICAST = ipaddr.IPv6.parseCIDR('2000::/3');
const IPV4_COMPATIBLE = ipaddr.IPv6.parseCIDR('::/96');

/**
 * The special range `address` is in (ipaddr.js's name), or undefined for a public address. IPv6 outside 2000::/3
 * (global unicast, RFC 4291) is refused too: `::a.b.c.d` (IPv4-compatible, deprecated) as `ipv4Compatible`, the rest as
 * `notGlobalUnicast`. An IPv4-mapped address is read as the IPv4 address it carries.
 * @throws Error (ipaddr.js's) for a string that is not an IP address
 */
export function specialAddressRange(address: string): string | undefined {
  const ip = canonical(ipaddr.parse(address));
  const range = ip.range();
  if (range !== 'unicast') return range;
  if (ip.kind() === 'ipv6' && !ip.match(GLOBAL_UNICAST)) return ip.match(IPV4_COMPATIBLE) ? 'ipv4Compatible' : 'notGlobalUnicast';
  return undefined;
}

const RANGE_WORDS: Record<string, string> = {
  unspecified: 'an unspecified address',
  broadcast: 'the broadcast address',
  multicast: 'a multicast address',
  linkLocal: 'a link-local address',
  loopback: 'a loopback address',
  carrierGradeNat: 'a carrier-grade NAT address',
  private: 'a private address',
  reserved: 'a reserved address',
  uniqueLocal: 'a unique-local address',
  deprecatedSiteLocal: 'a site-local address',
  ipv4Mapped: 'an IPv4-mapped address',
  rfc6145: 'an IPv4-translated address',
  rfc6052: 'a NAT64 address',
  '6to4': 'a 6to4 address',
  teredo: 'a Teredo address',
  ipv4Compatible: 'an IPv4-compatible IPv6 address',
  notGlobalUnicast: 'an IPv6 address outside the global unicast range',
};

/** `a loopback address`, `a private address`, … (`a special-purpose address (<name>)` for the rarer ranges). */
const rangeWords = (range: string) => RANGE_WORDS[range] ?? `a special-purpose address (${range})`;

const PORT = /^\d{1,5}$/;
const NAME = /^[a-z0-9_-]+(?:\.[a-z0-9_-]+)*$/;

/** A name as URLs spell it (lower case, IDN as punycode), without a trailing dot; undefined when it is no host name. */
function normaliseName(text: string): string | undefined {
  let hostname: string;
  try {
    const url = new URL(`http://${text}/`);
    if (url.username !== '' || url.password !== '' || url.port !== '' || url.pathname !== '/' || url.search !== '' || url.hash !== '')
      return undefined;
    hostname = url.hostname;
  } catch {
    return undefined;
  }
  const name = hostname.endsWith('.') ? hostname.slice(0, -1) : hostname;
  return NAME.test(name) ? name : undefined;
}

/** A URL's or a connection's host: lower case, IPv6 without brackets, no trailing dot. */
function normaliseHost(host: string): string {
  const bare = host.startsWith('[') && host.endsWith(']') ? host.slice(1, -1) : host;
  const lower = bare.toLowerCase();
  return lower.endsWith('.') ? lower.slice(0, -1) : lower;
}

/** Reads one allow-list entry; a string is the problem with it. */
function parsePattern(raw: string): HostPattern | string {
  const entry = raw.trim().toLowerCase();
  const bad = (why: string) => `${JSON.stringify(raw.trim())}: ${why}`;
  if (entry.includes('/')) {
    if (!ipaddr.isValidCIDR(entry)) return bad('not a CIDR range such as 10.0.0.0/8 or fd00::/8');
    const [address, bits] = ipaddr.parseCIDR(entry);
    // ::ffff:a.b.c.d/n (n ≥ 96) is the IPv4 range a.b.c.d/(n − 96), as the addresses it holds are read.
    if (address.kind() === 'ipv6' && bits >= 96 && (address as ipaddr.IPv6).isIPv4MappedAddress()) {
      return { kind: 'range', range: [(address as ipaddr.IPv6).toIPv4Address(), bits - 96] };
    }
    return { kind: 'range', range: [address, bits] };
  }
  let host = entry;
  let portText: string | undefined;
  const bracketed = /^\[([^\]]+)\](?::(.*))?$/.exec(entry);
  if (bracketed) {
    host = bracketed[1] ?? '';
    portText = bracketed[2];
    if (isIP(host) !== 6) return bad('not an IPv6 address in brackets');
  } else if ((entry.match(/:/g) ?? []).length === 1) {
    const at = entry.lastIndexOf(':');
    host = entry.slice(0, at);
    portText = entry.slice(at + 1);
  }
  let port: number | undefined;
  if (portText !== undefined) {
    port = PORT.test(portText) ? Number(portText) : Number.NaN;
    if (!(port >= 1 && port <= 65_535)) return bad('the port must be a number from 1 to 65535');
  }
  if (isIP(host) !== 0) return { kind: 'address', address: canonical(ipaddr.parse(host)), port };
  if (host.startsWith('*.')) {
    const suffix = normaliseName(host.slice(2));
    if (suffix === undefined || isIP(suffix) !== 0) return bad('a wildcard is *. followed by a domain name, e.g. *.corp.example');
    return { kind: 'suffix', suffix: `.${suffix}`, port };
  }
  const name = normaliseName(host);
  if (name === undefined || host.includes('*')) {
    return bad('expected a host name, *.domain, an IP address (each with an optional :port) or a CIDR range');
  }
  // An IPv4 address in another spelling (127.1, 0x7f.0.0.1) reads as the address, as URLs read it.
  if (isIP(name) !== 0) return { kind: 'address', address: ipaddr.parse(name), port };
  return { kind: 'name', name, port };
}

function patternText(pattern: HostPattern): string {
  const withPort = (host: string, port: number | undefined) => (port === undefined ? host : `${host}:${port}`);
  switch (pattern.kind) {
    case 'name':
      return withPort(pattern.name, pattern.port);
    case 'suffix':
      return withPort(`*${pattern.suffix}`, pattern.port);
    case 'address': {
      const shown = showAddress(pattern.address);
      return pattern.address.kind() === 'ipv6'
        ? pattern.port === undefined
          ? shown
          : `[${shown}]:${pattern.port}`
        : withPort(shown, pattern.port);
    }
    case 'range':
      return `${showAddress(pattern.range[0])}/${pattern.range[1]}`;
  }
}

/**
 * Reads an allow-list (an array, or one string split on commas; blanks skipped) into its normalised entries, and the
 * entries it cannot read: a host name (`registry.corp`, IDN allowed), `*.` and a domain (every name under it), an IPv4
 * or IPv6 address (`10.1.2.3`, `::1`, `[::1]`), each with an optional `:port` (IPv6 in brackets then), or a CIDR range
 * without a port (`10.0.0.0/8`, `fd00::/8`).
 */
export function parseAllowedHosts(entries: string | Iterable<string>): { hosts: string[]; problems: string[] } {
  const list = typeof entries === 'string' ? entries.split(',') : [...entries];
  const hosts: string[] = [];
  const problems: string[] = [];
  for (const raw of list) {
    if (raw.trim() === '') continue;
    const pattern = parsePattern(raw);
    if (typeof pattern === 'string') problems.push(pattern);
    else hosts.push(patternText(pattern));
  }
  return { hosts: [...new Set(hosts)], problems };
}

/**
 * The allow-list entry of a URL's host and port (`registry.corp:443`, `127.0.0.1:8091`, `[::1]:8091`): what to add with
 * {@link OutboundGuard.allowing} to let the operator's own URLs through, and nothing else on their hosts.
 * @throws TypeError for a string that is not an http(s) URL
 */
export function allowedHostOf(url: string | URL): string {
  const parsed = new URL(String(url));
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') throw new TypeError(`not an http(s) URL: ${parsed.protocol}`);
  const port = parsed.port === '' ? (parsed.protocol === 'https:' ? '443' : '80') : parsed.port;
  return `${parsed.hostname}:${port}`;
}

/**
 * The variable of a service's environment schema that holds an allow-list of outbound hosts
 * (`REGISTRY_ALLOWED_HOSTS`): comma-separated entries as {@link parseAllowedHosts} reads them, normalised; unset or
 * empty: none. Each entry it cannot read is its own configuration problem.
 */
export const outboundAllowedHostsEnv = z
  .string()
  .default('')
  .transform((text, ctx): readonly string[] => {
    const { hosts, problems } = parseAllowedHosts(text);
    for (const problem of problems) ctx.addIssue({ code: 'custom', message: problem });
    return Object.freeze(hosts);
  });

const defaultResolve: OutboundResolver = (hostname, family = 0) => dnsLookup(hostname, { all: true, family, order: 'verbatim' });

/** Rejects after `ms` unless `promise` settles first. */
function within<T>(promise: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`no answer within ${ms} ms`)), ms);
    timer.unref();
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}

/**
 * Builds the outbound guard from the operator's allow-list (see {@link OutboundGuardOptions.allowedHosts}); hosts
 * listed there are allowed whatever they resolve to, addresses and ranges listed there are allowed when connected to,
 * every other host only at public addresses.
 * @throws OutboundAllowListError listing every entry it cannot read
 */
export function createOutboundGuard(options: OutboundGuardOptions = {}): OutboundGuard {
  const { hosts, problems } = parseAllowedHosts(options.allowedHosts ?? []);
  if (problems.length > 0) throw new OutboundAllowListError(problems);
  const patterns = hosts.map((host) => parsePattern(host) as HostPattern);
  const setting = options.setting ?? 'REGISTRY_ALLOWED_HOSTS';
  const resolve = options.resolve ?? defaultResolve;
  const resolveTimeoutMs = options.resolveTimeoutMs ?? 5_000;
  const notAllowed = `which the operator does not allow (${setting})`;
  const portFits = (wanted: number | undefined, port: number) => wanted === undefined || wanted === port;

  const listedName = (name: string, port: number) =>
    patterns.some(
      (p) =>
        (p.kind === 'name' && p.name === name && portFits(p.port, port)) ||
        (p.kind === 'suffix' && name.endsWith(p.suffix) && portFits(p.port, port)),
    );

  const checkAddress = (text: string, port: number, name?: string): OutboundVerdict => {
    const host = normaliseHost(text);
    if (!ipaddr.isValid(host))
      return { allowed: false, reason: 'unparsable', message: `${JSON.stringify(text)} is not an IP address`, port };
    const ip = canonical(ipaddr.parse(host));
    const listed = patterns.some(
      (p) =>
        (p.kind === 'address' && p.address.kind() === ip.kind() && showAddress(p.address) === showAddress(ip) && portFits(p.port, port)) ||
        (p.kind === 'range' && p.range[0].kind() === ip.kind() && ip.match(p.range)),
    );
    const allowed = (basis: OutboundBasis): OutboundAllowed => ({
      allowed: true,
      host: name ?? host,
      port,
      basis,
      addresses: name ? [host] : [],
    });
    if (listed) return allowed('listed');
    const range = specialAddressRange(host);
    if (range === undefined) return allowed('public');
    const shown = showAddress(ip) === host ? host : `${host} (${showAddress(ip)})`;
    const message =
      name === undefined
        ? `${shown} is ${rangeWords(range)}, ${notAllowed}`
        : `${name} resolves to ${shown}, ${rangeWords(range)}, ${notAllowed}`;
    return { allowed: false, reason: 'address', message, host: name ?? host, port, address: host, range };
  };

  /** A host (normalised) and port, without I/O. */
  const checkHost = (host: string, port: number): OutboundVerdict => {
    if (isIP(host) !== 0) return checkAddress(host, port);
    if (listedName(host, port)) return { allowed: true, host, port, basis: 'listed', addresses: [] };
    if (host === 'localhost' || host.endsWith('.localhost')) {
      // Loopback by definition: refused by name unless loopback is allowed at this port, and then resolved and checked
      // like any name (so `::1` is not connected to when only 127.0.0.1 is listed).
      const loopback = checkAddress('127.0.0.1', port);
      if (!loopback.allowed) return { allowed: false, reason: 'host', message: `${host} is a loopback name, ${notAllowed}`, host, port };
    }
    return { allowed: true, host, port, basis: 'name', addresses: [] };
  };

  /** Every address a name resolved to, checked: the first refused one refuses the name. */
  const checkResolved = (host: string, port: number, addresses: ReadonlyArray<{ address: string }>): OutboundVerdict => {
    if (addresses.length === 0) return { allowed: true, host, port, basis: 'unresolved', addresses: [] };
    for (const { address } of addresses) {
      const verdict = checkAddress(address, port, host);
      if (!verdict.allowed) return verdict;
    }
    return { allowed: true, host, port, basis: 'public', addresses: addresses.map((a) => a.address) };
  };

  const checkUrl = (input: string | URL): OutboundVerdict => {
    let url: URL;
    try {
      url = new URL(String(input));
    } catch {
      return { allowed: false, reason: 'unparsable', message: 'the URL cannot be parsed' };
    }
    if (url.protocol !== 'http:' && url.protocol !== 'https:') {
      return { allowed: false, reason: 'scheme', message: `the scheme ${url.protocol} is not allowed: only http and https are` };
    }
    if (url.username !== '' || url.password !== '') {
      return { allowed: false, reason: 'userinfo', message: 'a URL with user info (user:password@) is not allowed' };
    }
    const host = normaliseHost(url.hostname);
    if (host === '') return { allowed: false, reason: 'unparsable', message: 'the URL has no host' };
    return checkHost(host, url.port === '' ? (url.protocol === 'https:' ? 443 : 80) : Number(url.port));
  };

  const checkUrlResolved = async (input: string | URL): Promise<OutboundVerdict> => {
    const verdict = checkUrl(input);
    if (!verdict.allowed || verdict.basis !== 'name') return verdict;
    let addresses: ReadonlyArray<{ address: string }>;
    try {
      addresses = await within(resolve(verdict.host), resolveTimeoutMs);
    } catch {
      return { ...verdict, basis: 'unresolved' };
    }
    return checkResolved(verdict.host, verdict.port, addresses);
  };

  /** net's `lookup` for connections to `port`: resolves, checks every address, answers only when all are allowed. */
  const lookupAt =
    (port: number): LookupFunction =>
    (hostname, lookupOptions, callback) => {
      const family = lookupOptions.family === 4 || lookupOptions.family === 6 ? lookupOptions.family : 0;
      const host = normaliseHost(hostname);
      resolve(host, family).then(
        (found) => {
          const addresses = family === 0 ? found : found.filter((a) => a.family === family);
          if (addresses.length === 0) {
            const error = Object.assign(new Error(`getaddrinfo ENOTFOUND ${hostname}`), { code: 'ENOTFOUND', hostname });
            callback(error, '', 0);
            return;
          }
          const verdict = checkResolved(host, port, addresses);
          if (!verdict.allowed) callback(new OutboundRefusedError(verdict) as unknown as NodeJS.ErrnoException, '', 0);
          else if (lookupOptions.all)
            callback(
              null,
              addresses.map((a) => ({ address: a.address, family: a.family })),
            );
          else callback(null, addresses[0]?.address ?? '', addresses[0]?.family ?? 4);
        },
        (error: NodeJS.ErrnoException) => callback(error, '', 0),
      );
    };

  const connector = (buildOptions: buildConnector.BuildOptions = {}): buildConnector.connector => {
    const direct = buildConnector(buildOptions);
    const byPort = new Map<number, buildConnector.connector>();
    return (connectOptions, callback) => {
      const port = Number(connectOptions.port) || (connectOptions.protocol === 'https:' ? 443 : 80);
      const verdict = checkHost(normaliseHost(connectOptions.hostname), port);
      if (!verdict.allowed) {
        const error = new OutboundRefusedError(verdict);
        process.nextTick(() => callback(error, null));
        return;
      }
      if (verdict.basis !== 'name') {
        direct(connectOptions, callback);
        return;
      }
      let checked = byPort.get(port);
      if (checked === undefined) {
        checked = buildConnector({ ...buildOptions, lookup: lookupAt(port) } as buildConnector.BuildOptions);
        byPort.set(port, checked);
      }
      checked(connectOptions, callback);
    };
  };

  const agent = (agentOptions: Agent.Options = {}): Agent => {
    const { connect, ...rest } = agentOptions;
    if (typeof connect === 'function') throw new TypeError('a guarded agent builds its own connector: give connect as options');
    return new Agent({ ...rest, connect: connector(connect ?? {}) });
  };

  return {
    allowedHosts: Object.freeze(hosts),
    checkUrl,
    checkUrlResolved,
    checkAddress,
    allowing: (more) => createOutboundGuard({ ...options, allowedHosts: [...hosts, ...more] }),
    connector,
    agent,
  };
}
