import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo, LookupFunction } from 'node:net';
import { interceptors } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import {
  allowedHostOf,
  createOutboundGuard,
  isOutboundRefused,
  OUTBOUND_REFUSED,
  OutboundAllowListError,
  type OutboundResolver,
  outboundAllowedHostsEnv,
  parseAllowedHosts,
  specialAddressRange,
} from '../src/outbound-guard.ts';

/** A resolver of a few made-up names (anything else: ENOTFOUND), as a DNS answer the test controls. */
function fakeDns(records: Record<string, string[]>): OutboundResolver {
  return async (hostname, family = 0) => {
    const addresses = records[hostname];
    if (!addresses) throw Object.assign(new Error(`getaddrinfo ENOTFOUND ${hostname}`), { code: 'ENOTFOUND' });
    return addresses
      .map((address) => ({ address, family: address.includes(':') ? 6 : 4 }))
      .filter((a) => family === 0 || a.family === family);
  };
}

describe('the refused ranges (default: public addresses only)', () => {
  const guard = createOutboundGuard();
  const refused: Array<[string, string]> = [
    ['127.0.0.1', 'loopback'],
    ['127.255.255.254', 'loopback'],
    ['10.0.0.1', 'private'],
    ['172.16.0.1', 'private'],
    ['172.31.255.255', 'private'],
    ['192.168.1.1', 'private'],
    ['169.254.169.254', 'linkLocal'],
    ['100.64.0.1', 'carrierGradeNat'],
    ['100.127.255.255', 'carrierGradeNat'],
    ['0.0.0.0', 'unspecified'],
    ['0.1.2.3', 'unspecified'],
    ['255.255.255.255', 'broadcast'],
    ['224.0.0.1', 'multicast'],
    ['239.255.255.250', 'multicast'],
    ['192.0.2.10', 'reserved'],
    ['198.18.0.1', 'reserved'],
    ['240.0.0.1', 'reserved'],
    ['::1', 'loopback'],
    ['::', 'unspecified'],
    ['fe80::1', 'linkLocal'],
    ['febf::1', 'linkLocal'],
    ['fc00::1', 'uniqueLocal'],
    ['fd12:3456::1', 'uniqueLocal'],
    ['ff02::1', 'multicast'],
    ['fec0::1', 'deprecatedSiteLocal'],
    ['64:ff9b::7f00:1', 'rfc6052'],
    ['2002:7f00:1::', '6to4'],
    ['2001:0:4136:e378::1', 'teredo'],
    ['2001:db8::1', 'reserved'],
    ['::7f00:1', 'ipv4Compatible'],
    ['4000::1', 'notGlobalUnicast'],
    // IPv4-mapped IPv6: the IPv4 address it carries decides.
    ['::ffff:127.0.0.1', 'loopback'],
    ['::ffff:7f00:1', 'loopback'],
    ['::ffff:10.1.2.3', 'private'],
    ['::ffff:169.254.169.254', 'linkLocal'],
    ['::ffff:0:0', 'unspecified'],
  ];

  it.each(refused)('refuses %s (%s)', (address, range) => {
    expect(specialAddressRange(address)).toBe(range);
    const verdict = guard.checkAddress(address, 443);
    expect(verdict).toMatchObject({ allowed: false, reason: 'address', range });
    expect(verdict.allowed === false && verdict.message).toContain('which the operator does not allow (REGISTRY_ALLOWED_HOSTS)');
  });

  it.each(['93.184.216.34', '8.8.8.8', '172.32.0.1', '100.128.0.1', '169.255.0.1', '2606:4700:4700::1111', '::ffff:93.184.216.34'])(
    'allows the public address %s',
    (address) => {
      expect(specialAddressRange(address)).toBeUndefined();
      expect(guard.checkAddress(address, 443)).toMatchObject({ allowed: true, basis: 'public' });
    },
  );

  it('says what the address is, in words', () => {
    expect(guard.checkAddress('169.254.169.254', 80)).toMatchObject({
      message: '169.254.169.254 is a link-local address, which the operator does not allow (REGISTRY_ALLOWED_HOSTS)',
    });
    expect(guard.checkAddress('::ffff:7f00:1', 80)).toMatchObject({
      message: '::ffff:7f00:1 (127.0.0.1) is a loopback address, which the operator does not allow (REGISTRY_ALLOWED_HOSTS)',
    });
    expect(guard.checkAddress('10.0.0.8', 80, 'npm.evil.example')).toMatchObject({
      message: 'npm.evil.example resolves to 10.0.0.8, a private address, which the operator does not allow (REGISTRY_ALLOWED_HOSTS)',
    });
    expect(createOutboundGuard({ setting: 'PEER_HOSTS' }).checkAddress('10.0.0.8', 80)).toMatchObject({
      message: '10.0.0.8 is a private address, which the operator does not allow (PEER_HOSTS)',
    });
  });
});

describe('checkUrl: scheme, user info, literal addresses and names, without I/O', () => {
  const guard = createOutboundGuard();

  it('refuses schemes other than http and https, user info, and what does not parse', () => {
    expect(guard.checkUrl('ftp://files.example.com/')).toMatchObject({ allowed: false, reason: 'scheme' });
    expect(guard.checkUrl('file:///etc/passwd')).toMatchObject({ allowed: false, reason: 'scheme' });
    expect(guard.checkUrl('gopher://x.example.com/')).toMatchObject({ allowed: false, reason: 'scheme' });
    const userinfo = guard.checkUrl('https://user:s3cret@npm.example.com/');
    expect(userinfo).toMatchObject({ allowed: false, reason: 'userinfo' });
    expect(JSON.stringify(userinfo)).not.toContain('s3cret');
    expect(guard.checkUrl('https://token@npm.example.com/')).toMatchObject({ allowed: false, reason: 'userinfo' });
    expect(guard.checkUrl('not a url')).toMatchObject({ allowed: false, reason: 'unparsable' });
  });

  it('refuses literal addresses in every spelling URLs accept', () => {
    for (const url of [
      'http://127.0.0.1:9999/',
      'http://2130706433/',
      'http://0x7f.1/',
      'http://127.1/',
      'http://[::1]/',
      'http://[::ffff:127.0.0.1]/',
      'http://[::ffff:a9fe:a9fe]/latest/meta-data/',
      'http://169.254.169.254/latest/meta-data/',
      'http://[fe80::1]/',
      'http://0.0.0.0:8080/',
    ]) {
      expect(guard.checkUrl(url), url).toMatchObject({ allowed: false, reason: 'address' });
    }
    expect(guard.checkUrl('https://93.184.216.34/')).toMatchObject({ allowed: true, basis: 'public', port: 443 });
  });

  it('refuses localhost names by name; leaves other names to resolution', () => {
    expect(guard.checkUrl('http://localhost:4873/')).toMatchObject({
      allowed: false,
      reason: 'host',
      message: 'localhost is a loopback name, which the operator does not allow (REGISTRY_ALLOWED_HOSTS)',
    });
    expect(guard.checkUrl('http://registry.LOCALHOST./')).toMatchObject({ allowed: false, reason: 'host' });
    expect(guard.checkUrl('https://registry.npmjs.org/')).toMatchObject({
      allowed: true,
      basis: 'name',
      host: 'registry.npmjs.org',
      port: 443,
    });
  });
});

describe('the operator allow-list', () => {
  it('reads names, wildcards, addresses, ports and ranges, normalised, and names each entry it cannot read', () => {
    expect(
      parseAllowedHosts(
        ' Registry.Corp , *.corp.example:8443, 10.1.2.3, 127.0.0.1:4873, [::1]:8081, ::1, 10.0.0.0/8, fd00::/8,, bücher.example, 127.1:80 ',
      ),
    ).toEqual({
      hosts: [
        'registry.corp',
        '*.corp.example:8443',
        '10.1.2.3',
        '127.0.0.1:4873',
        '[::1]:8081',
        '::1',
        '10.0.0.0/8',
        'fd00::/8',
        'xn--bcher-kva.example',
        '127.0.0.1:80',
      ],
      problems: [],
    });
    expect(parseAllowedHosts('*, a.*.b, host:0, host:99999, host:x, 10.0.0.0/33, [nope]:1, user@host, host/path').problems).toEqual([
      '"*": expected a host name, *.domain, an IP address (each with an optional :port) or a CIDR range',
      '"a.*.b": expected a host name, *.domain, an IP address (each with an optional :port) or a CIDR range',
      '"host:0": the port must be a number from 1 to 65535',
      '"host:99999": the port must be a number from 1 to 65535',
      '"host:x": the port must be a number from 1 to 65535',
      '"10.0.0.0/33": not a CIDR range such as 10.0.0.0/8 or fd00::/8',
      '"[nope]:1": not an IPv6 address in brackets',
      '"user@host": expected a host name, *.domain, an IP address (each with an optional :port) or a CIDR range',
      '"host/path": not a CIDR range such as 10.0.0.0/8 or fd00::/8',
    ]);
    expect(() => createOutboundGuard({ allowedHosts: 'ok.example, *' })).toThrow(OutboundAllowListError);
  });

  it('is the env variable of a config schema: every bad entry a problem, unset an empty list', () => {
    const schema = z.object({ REGISTRY_ALLOWED_HOSTS: outboundAllowedHostsEnv });
    expect(schema.parse({}).REGISTRY_ALLOWED_HOSTS).toEqual([]);
    expect(schema.parse({ REGISTRY_ALLOWED_HOSTS: 'registries:8091, 10.0.0.0/8' }).REGISTRY_ALLOWED_HOSTS).toEqual([
      'registries:8091',
      '10.0.0.0/8',
    ]);
    const failed = schema.safeParse({ REGISTRY_ALLOWED_HOSTS: 'a:0,*' });
    expect(failed.success).toBe(false);
    expect(failed.error?.issues).toHaveLength(2);
  });

  it('allows a listed name at any port, or at its port only; a wildcard covers the names under it, not itself', () => {
    const guard = createOutboundGuard({ allowedHosts: 'registry.corp, nexus.corp:8081, *.mirrors.corp, localhost:4873' });
    expect(guard.checkUrl('http://registry.corp:1234/')).toMatchObject({ allowed: true, basis: 'listed' });
    expect(guard.checkUrl('http://REGISTRY.corp./')).toMatchObject({ allowed: true, basis: 'listed' });
    expect(guard.checkUrl('http://nexus.corp:8081/repository/npm/')).toMatchObject({ allowed: true, basis: 'listed' });
    expect(guard.checkUrl('http://nexus.corp:8082/')).toMatchObject({ allowed: true, basis: 'name' });
    expect(guard.checkUrl('https://npm.mirrors.corp/')).toMatchObject({ allowed: true, basis: 'listed' });
    expect(guard.checkUrl('https://a.b.mirrors.corp/')).toMatchObject({ allowed: true, basis: 'listed' });
    expect(guard.checkUrl('https://mirrors.corp/')).toMatchObject({ allowed: true, basis: 'name' });
    expect(guard.checkUrl('https://evilmirrors.corp/')).toMatchObject({ allowed: true, basis: 'name' });
    expect(guard.checkUrl('http://localhost:4873/')).toMatchObject({ allowed: true, basis: 'listed' });
    expect(guard.checkUrl('http://localhost:4874/')).toMatchObject({ allowed: false, reason: 'host' });
  });

  it('allows listed addresses (with their port) and ranges, IPv4-mapped forms included, and nothing beside them', () => {
    const guard = createOutboundGuard({ allowedHosts: '127.0.0.1:4873, [::1]:4873, 10.20.0.0/16, fd00:1::/32' });
    expect(guard.checkUrl('http://127.0.0.1:4873/')).toMatchObject({ allowed: true, basis: 'listed' });
    expect(guard.checkUrl('http://[::ffff:127.0.0.1]:4873/')).toMatchObject({ allowed: true, basis: 'listed' });
    expect(guard.checkUrl('http://127.0.0.1:4874/')).toMatchObject({ allowed: false, reason: 'address' });
    expect(guard.checkUrl('http://127.0.0.2:4873/')).toMatchObject({ allowed: false, reason: 'address' });
    expect(guard.checkUrl('http://[::1]:4873/')).toMatchObject({ allowed: true, basis: 'listed' });
    expect(guard.checkUrl('http://[::1]:80/')).toMatchObject({ allowed: false });
    expect(guard.checkUrl('http://10.20.255.1/')).toMatchObject({ allowed: true, basis: 'listed' });
    expect(guard.checkUrl('http://[::ffff:10.20.1.1]/')).toMatchObject({ allowed: true, basis: 'listed' });
    expect(guard.checkUrl('http://10.21.0.1/')).toMatchObject({ allowed: false, range: 'private' });
    expect(guard.checkUrl('http://[fd00:1:ffff::1]/')).toMatchObject({ allowed: true, basis: 'listed' });
    expect(guard.checkUrl('http://[fd00:2::1]/')).toMatchObject({ allowed: false, range: 'uniqueLocal' });
    // localhost is loopback: allowed where the loopback address is.
    expect(guard.checkUrl('http://localhost:4873/')).toMatchObject({ allowed: true });
  });

  it('adds hosts with allowing(), and allowedHostOf gives a URL its host:port entry', () => {
    expect(allowedHostOf('http://127.0.0.1:8091/npm/')).toBe('127.0.0.1:8091');
    expect(allowedHostOf('https://Registry.Corp/npm/')).toBe('registry.corp:443');
    expect(allowedHostOf('http://[::1]/')).toBe('[::1]:80');
    expect(() => allowedHostOf('ftp://x.example/')).toThrow(TypeError);
    const guard = createOutboundGuard({ allowedHosts: '10.0.0.0/8' });
    const wider = guard.allowing([allowedHostOf('http://registries:8091/npm/')]);
    expect(wider.allowedHosts).toEqual(['10.0.0.0/8', 'registries:8091']);
    expect(wider.checkUrl('http://registries:8091/')).toMatchObject({ basis: 'listed' });
    expect(guard.checkUrl('http://registries:8091/')).toMatchObject({ basis: 'name' });
  });
});

describe('checkUrlResolved: a name that resolves to a refused address is refused', () => {
  const guard = createOutboundGuard({
    allowedHosts: 'registry.corp, 10.9.0.0/16',
    resolve: fakeDns({
      'npm.evil.example': ['127.0.0.1'],
      'metadata.evil.example': ['169.254.169.254'],
      'mixed.evil.example': ['93.184.216.34', '10.0.0.5'],
      'v6.evil.example': ['::ffff:192.168.0.1'],
      'npm.acme.example': ['93.184.216.34', '2606:2800:220:1::1'],
      'registry.corp': ['10.1.1.1'],
      'internal.acme.example': ['10.9.3.4'],
    }),
  });

  it('refuses a name resolving to a refused address (any of them), and says what it resolves to', async () => {
    expect(await guard.checkUrlResolved('http://npm.evil.example:9999/')).toMatchObject({
      allowed: false,
      reason: 'address',
      address: '127.0.0.1',
      range: 'loopback',
      message: 'npm.evil.example resolves to 127.0.0.1, a loopback address, which the operator does not allow (REGISTRY_ALLOWED_HOSTS)',
    });
    expect(await guard.checkUrlResolved('http://metadata.evil.example/')).toMatchObject({ allowed: false, range: 'linkLocal' });
    expect(await guard.checkUrlResolved('https://mixed.evil.example/')).toMatchObject({ allowed: false, address: '10.0.0.5' });
    expect(await guard.checkUrlResolved('https://v6.evil.example/')).toMatchObject({ allowed: false, range: 'private' });
  });

  it('allows public resolutions, listed names whatever they resolve to, listed ranges, and names that do not resolve', async () => {
    expect(await guard.checkUrlResolved('https://npm.acme.example/')).toMatchObject({
      allowed: true,
      basis: 'public',
      addresses: ['93.184.216.34', '2606:2800:220:1::1'],
    });
    expect(await guard.checkUrlResolved('https://registry.corp/')).toMatchObject({ allowed: true, basis: 'listed' });
    expect(await guard.checkUrlResolved('https://internal.acme.example/')).toMatchObject({ allowed: true });
    expect(await guard.checkUrlResolved('https://nowhere.invalid/')).toMatchObject({ allowed: true, basis: 'unresolved' });
    expect(await guard.checkUrlResolved('ftp://npm.acme.example/')).toMatchObject({ allowed: false, reason: 'scheme' });
  });

  it('counts a resolver that does not answer in time as unresolved', async () => {
    const slow = createOutboundGuard({ resolve: () => new Promise(() => {}), resolveTimeoutMs: 50 });
    expect(await slow.checkUrlResolved('https://slow.example/')).toMatchObject({ allowed: true, basis: 'unresolved' });
  });

  it('refuses localhost by name before any DNS, and resolves other names with the system resolver by default', async () => {
    const system = createOutboundGuard();
    expect(await system.checkUrlResolved('http://localhost:9/')).toMatchObject({ allowed: false, reason: 'host' });
    // `.invalid` never resolves (RFC 6761): left to the connection's check.
    expect(await system.checkUrlResolved('https://npm.acme.invalid/')).toMatchObject({ allowed: true, basis: 'unresolved' });
  });
});

/** A loopback HTTP server recording what it was sent; `answer` decides each response. */
async function startServer(answer: (url: string, headers: IncomingHttpHeaders) => { status: number; headers?: Record<string, string> }) {
  const seen: Array<{ url: string; headers: IncomingHttpHeaders }> = [];
  const server: Server = createServer((req, res) => {
    seen.push({ url: req.url ?? '', headers: req.headers });
    const { status, headers } = answer(req.url ?? '', req.headers);
    res.writeHead(status, { 'content-type': 'text/plain', ...headers }).end(`secret internal answer ${req.url}`);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return { port, origin: `http://127.0.0.1:${port}`, seen, close: () => new Promise<void>((resolve) => server.close(() => resolve())) };
}

describe('the guarded undici agent, against real servers on 127.0.0.1', () => {
  let target: Awaited<ReturnType<typeof startServer>>;
  let other: Awaited<ReturnType<typeof startServer>>;
  let entry: Awaited<ReturnType<typeof startServer>>;
  beforeAll(async () => {
    target = await startServer(() => ({ status: 200 }));
    other = await startServer(() => ({ status: 200 }));
    entry = await startServer((url) => {
      const to = new URLSearchParams(url.split('?')[1] ?? '').get('to');
      return to ? { status: 302, headers: { location: to } } : { status: 200 };
    });
  });
  afterAll(async () => {
    await target?.close();
    await other?.close();
    await entry?.close();
  });

  const get = async (agent: { request: (o: never) => Promise<{ statusCode: number; body: { text(): Promise<string> } }> }, url: string) => {
    const parsed = new URL(url);
    const res = await agent.request({
      origin: parsed.origin,
      path: `${parsed.pathname}${parsed.search}`,
      method: 'GET',
      headers: { authorization: 'Bearer tenant-token' },
    } as never);
    return { status: res.statusCode, body: await res.body.text() };
  };

  it('refuses to connect to a loopback address unless it is allowed, and the server never sees the request', async () => {
    const refusing = createOutboundGuard().agent();
    const error = await get(refusing, `${target.origin}/express`).catch((e: unknown) => e);
    expect(isOutboundRefused(error)).toBe(true);
    expect((error as { code: string }).code).toBe(OUTBOUND_REFUSED);
    expect((error as Error).message).toBe('127.0.0.1 is a loopback address, which the operator does not allow (REGISTRY_ALLOWED_HOSTS)');
    expect((error as Error).message).not.toContain('secret internal answer');
    expect(target.seen).toEqual([]);
    await refusing.close();

    const allowing = createOutboundGuard({ allowedHosts: [`127.0.0.1:${target.port}`] }).agent();
    expect(await get(allowing, `${target.origin}/express`)).toEqual({ status: 200, body: 'secret internal answer /express' });
    expect(target.seen.map((s) => s.url)).toEqual(['/express']);
    await allowing.close();
  });

  it('refuses at connect time a name that resolves to 127.0.0.1 (localhost, or any name a resolver says so of)', async () => {
    const before = target.seen.length;
    const guard = createOutboundGuard({ resolve: fakeDns({ 'npm.rebind.example': ['127.0.0.1'] }) });
    const agent = guard.agent();
    // checkUrl cannot know: the name is left to resolution, and the connection refused once resolved.
    expect(guard.checkUrl(`http://npm.rebind.example:${target.port}/`)).toMatchObject({ allowed: true, basis: 'name' });
    const rebound = await get(agent, `http://npm.rebind.example:${target.port}/lodash`).catch((e: unknown) => e);
    expect(isOutboundRefused(rebound)).toBe(true);
    expect((rebound as Error).message).toBe(
      'npm.rebind.example resolves to 127.0.0.1, a loopback address, which the operator does not allow (REGISTRY_ALLOWED_HOSTS)',
    );
    const local = await get(agent, `http://localhost:${target.port}/lodash`).catch((e: unknown) => e);
    expect(isOutboundRefused(local)).toBe(true);
    expect(target.seen.length).toBe(before);
    await agent.close();

    // The system resolver's localhost, at the connection itself: not refused by name once loopback is listed at its port,
    // then resolved, and each address it resolves to (127.0.0.1, and ::1 where the hosts file has it) checked and allowed.
    const system = createOutboundGuard({ allowedHosts: [`127.0.0.1:${target.port}`, `[::1]:${target.port}`] }).agent();
    expect(await get(system, `http://localhost:${target.port}/ok`)).toMatchObject({ status: 200 });
    await system.close();
    // A listed name connects whatever it resolves to.
    // (its own lookup here, as the system resolver does not know the name: a listed name is resolved as usual)
    const loopbackLookup: LookupFunction = (_hostname, options, callback) =>
      options.all ? callback(null, [{ address: '127.0.0.1', family: 4 }]) : callback(null, '127.0.0.1', 4);
    const listed = createOutboundGuard({ allowedHosts: ['npm.rebind.example'], resolve: fakeDns({}) }).agent({
      connect: { lookup: loopbackLookup },
    });
    expect(await get(listed, `http://npm.rebind.example:${target.port}/listed`)).toMatchObject({ status: 200 });
    await listed.close();
  });

  it('checks a redirect the same way: to a refused host refused, to another allowed origin followed without the Authorization header', async () => {
    const guard = createOutboundGuard({ allowedHosts: [`127.0.0.1:${entry.port}`, `127.0.0.1:${other.port}`] });
    const agent = guard.agent();
    const following = agent.compose(interceptors.redirect({ maxRedirections: 3 }));

    // Without an interceptor nothing is followed: the 302 is the answer.
    const plain = await get(agent, `${entry.origin}/start?to=${encodeURIComponent(`${other.origin}/next`)}`);
    expect(plain.status).toBe(302);

    const before = target.seen.length;
    const refused = await get(following, `${entry.origin}/start?to=${encodeURIComponent(`${target.origin}/internal`)}`).catch(
      (e: unknown) => e,
    );
    expect(isOutboundRefused(refused)).toBe(true);
    const refusedByName = await get(following, `${entry.origin}/start?to=${encodeURIComponent(`http://localhost:${target.port}/x`)}`).catch(
      (e: unknown) => e,
    );
    expect(isOutboundRefused(refusedByName)).toBe(true);
    const metadata = await get(
      following,
      `${entry.origin}/start?to=${encodeURIComponent('http://169.254.169.254/latest/meta-data/')}`,
    ).catch((e: unknown) => e);
    expect((metadata as Error).message).toContain('169.254.169.254 is a link-local address');
    expect(target.seen.length).toBe(before);

    const followed = await get(following, `${entry.origin}/start?to=${encodeURIComponent(`${other.origin}/next`)}`);
    expect(followed).toEqual({ status: 200, body: 'secret internal answer /next' });
    const atEntry = entry.seen.at(-1);
    expect(atEntry?.headers.authorization).toBe('Bearer tenant-token');
    const atOther = other.seen.at(-1);
    expect(atOther?.url).toBe('/next');
    expect(atOther?.headers.authorization).toBeUndefined();
    await agent.close();
  });

  it('will not take a connector function that would bypass it', () => {
    expect(() => createOutboundGuard().agent({ connect: (_o, cb) => cb(new Error('no'), null) })).toThrow(TypeError);
  });
});
