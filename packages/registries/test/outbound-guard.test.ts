import { allowedHostOf, createOutboundGuard } from '@switchyard/service-kit';
import { describe, expect, it } from 'vitest';
import { createRegistryHttp } from '../src/http/registry-http.ts';
import { RegistryError } from '../src/port.ts';
import { registryFor } from '../src/registry-for.ts';
import { closedAfterEach } from './fixture-server.ts';

/**
 * The registries' HTTP client with an outbound guard's agent (`agentFactory`), as the release worker builds the clients
 * of accounts' private registries: what the guard refuses fails as `unreachable` with `address refused: …`, before any
 * request reaches the address, and is not retried.
 */
describe('registry HTTP through an outbound guard', () => {
  const { serve, track } = closedAfterEach();
  const client = (options: Parameters<typeof createRegistryHttp>[0]) => {
    const http = createRegistryHttp({ retryDelayMs: 10, ...options });
    track(http);
    return http;
  };

  it('refuses a registry on a loopback address with the credentials unsent, and asks it once allowed', async () => {
    const server = await serve({ '/express': { body: '{"name":"express"}' } });
    const refusing = client({ baseUrl: server.url, credentials: { token: 'tenant-token' }, agentFactory: createOutboundGuard().agent });
    const error = await refusing.get('express').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(RegistryError);
    expect(error).toMatchObject({
      kind: 'unreachable',
      message: 'address refused: 127.0.0.1 is a loopback address, which the operator does not allow (REGISTRY_ALLOWED_HOSTS)',
    });
    // Not retried (the retry interceptor leaves the guard's code alone), and nothing reached the server.
    expect(refusing.stats().requests).toBe(1);
    expect(server.requests).toEqual([]);

    const allowed = createOutboundGuard({ allowedHosts: [allowedHostOf(server.url)] });
    const asking = client({ baseUrl: server.url, credentials: { token: 'tenant-token' }, agentFactory: allowed.agent });
    expect((await asking.get('express')).body).toBe('{"name":"express"}');
    expect(server.requests[0]?.headers.authorization).toBe('Bearer tenant-token');
  });

  it('refuses a name that resolves to 127.0.0.1 when it connects', async () => {
    const server = await serve({ '/lodash': { body: '{}' } });
    const guard = createOutboundGuard({ resolve: async () => [{ address: '127.0.0.1', family: 4 }] });
    const port = new URL(server.url).port;
    const http = client({ baseUrl: `http://npm.rebind.example:${port}/`, agentFactory: guard.agent });
    await expect(http.get('lodash')).rejects.toMatchObject({
      kind: 'unreachable',
      message:
        'address refused: npm.rebind.example resolves to 127.0.0.1, a loopback address, which the operator does not allow (REGISTRY_ALLOWED_HOSTS)',
    });
    expect(server.requests).toEqual([]);
  });

  it('checks redirects: to a refused address refused, to another allowed origin followed without the credentials', async () => {
    const internal = await serve({ '/admin': { body: 'internal secrets' } });
    const mirror = await serve({ '/elsewhere': { body: 'moved' } });
    const registry = await serve({
      '/inside': { status: 302, body: '', headers: { location: `${internal.url}admin` } },
      '/metadata': { status: 302, body: '', headers: { location: 'http://169.254.169.254/latest/meta-data/' } },
      '/away': { status: 302, body: '', headers: { location: `${mirror.url}elsewhere` } },
    });
    const guard = createOutboundGuard({ allowedHosts: [allowedHostOf(registry.url), allowedHostOf(mirror.url)] });
    const http = client({ baseUrl: registry.url, credentials: { token: 'tenant-token' }, agentFactory: guard.agent });
    const inside = await http.get('inside').catch((e: unknown) => e);
    expect(inside).toMatchObject({ kind: 'unreachable' });
    expect((inside as Error).message).toMatch(/^address refused: 127\.0\.0\.1 is a loopback address/);
    expect((inside as Error).message).not.toContain('internal secrets');
    await expect(http.get('metadata')).rejects.toThrow(/address refused: 169\.254\.169\.254 is a link-local address/);
    expect(internal.requests).toEqual([]);

    expect((await http.get('away')).body).toBe('moved');
    expect(registry.requests.find((r) => r.path === '/away')?.headers.authorization).toBe('Bearer tenant-token');
    expect(mirror.requests[0]?.headers.authorization).toBeUndefined();
  });

  it('reaches every adapter through registryFor: an npm registry at a refused address fails its package as unreachable', async () => {
    const server = await serve({ '/express': { body: '{"name":"express","versions":{}}' } });
    const npm = registryFor('npm_and_yarn', {
      baseUrl: server.url,
      credentials: { token: 't' },
      agentFactory: createOutboundGuard().agent,
    });
    if (!npm) throw new Error('no npm adapter');
    track(npm);
    await expect(npm.fetchPackage('express')).rejects.toMatchObject({
      kind: 'unreachable',
      message: expect.stringMatching(/^address refused: /),
    });
    expect(server.requests).toEqual([]);
  });
});
