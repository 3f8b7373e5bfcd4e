import { ConfigError } from '@switchyard/service-kit';
import { describe, expect, it } from 'vitest';
import { loadPeerConfig, parseClientPlaces } from '../src/config.ts';

describe('peer-svc configuration', () => {
  it('has the documented defaults', () => {
    const config = loadPeerConfig({});
    expect(config).toMatchObject({
      PORT: 8084,
      DIGEST_REALM: 'EmissaryRealm',
      HEARTBEAT_UNHEALTHY_AFTER: 3,
      HEARTBEAT_FAILED_AFTER: 20,
      PEER_ALLOW_LIST: '',
      DIGEST_ALGORITHMS: ['SHA-256'],
      PEER_MAX: 256,
      PEER_EXPIRE_AFTER: 3,
      HEARTBEAT_CONCURRENCY: 8,
    });
  });

  it('reads DIGEST_ALGORITHMS in order of preference and refuses anything but SHA-256 and MD5, each once', () => {
    expect(loadPeerConfig({ DIGEST_ALGORITHMS: 'md5, SHA-256' }).DIGEST_ALGORITHMS).toEqual(['MD5', 'SHA-256']);
    expect(loadPeerConfig({ DIGEST_ALGORITHMS: 'MD5' }).DIGEST_ALGORITHMS).toEqual(['MD5']);
    for (const bad of ['SHA-512-256', 'MD5,MD5', 'SHA-256,', 'MD5-sess']) {
      expect(() => loadPeerConfig({ DIGEST_ALGORITHMS: bad }), bad).toThrow(/DIGEST_ALGORITHMS/);
    }
  });

  it('refuses configured peers without a client password, naming both variables', () => {
    const rendezvous = { PEER_RENDEZVOUS: 'http://127.0.0.1:9001/DirectoryPlace' };
    expect(() => loadPeerConfig(rendezvous)).toThrow(ConfigError);
    expect(() => loadPeerConfig({ ...rendezvous, PEER_CLIENT_PASSWORD: '' })).toThrow(/PEER_CLIENT_PASSWORD.*PEER_RENDEZVOUS/);
    expect(loadPeerConfig({ ...rendezvous, PEER_CLIENT_PASSWORD: 'secret' }).PEER_CLIENT_PASSWORD).toBe('secret');
    expect(loadPeerConfig({ PEER_RENDEZVOUS: ' ' }).PEER_CLIENT_PASSWORD).toBe('');
  });

  it('refuses a parent without a client password, or one that is also a rendezvous peer', () => {
    const parent = 'http://127.0.0.1:9001/DirectoryPlace';
    expect(() => loadPeerConfig({ PEER_PARENT: parent })).toThrow(/PEER_CLIENT_PASSWORD.*PEER_PARENT/);
    expect(() => loadPeerConfig({ PEER_PARENT: parent, PEER_RENDEZVOUS: parent, PEER_CLIENT_PASSWORD: 'secret' })).toThrow(
      /PEER_PARENT.*must not also be in PEER_RENDEZVOUS/,
    );
    expect(loadPeerConfig({ PEER_PARENT: parent, PEER_CLIENT_PASSWORD: 'secret' }).PEER_PARENT).toBe(parent);
  });

  it('bounds PEER_MAX, PEER_EXPIRE_AFTER and HEARTBEAT_CONCURRENCY', () => {
    expect(() => loadPeerConfig({ PEER_MAX: '0' })).toThrow(/PEER_MAX/);
    expect(() => loadPeerConfig({ PEER_EXPIRE_AFTER: '0' })).toThrow(/PEER_EXPIRE_AFTER/);
    expect(() => loadPeerConfig({ HEARTBEAT_CONCURRENCY: '0' })).toThrow(/HEARTBEAT_CONCURRENCY/);
  });

  it('reads the zone transfer settings: 4 MiB cap, upstream data ids by default; refuses malformed ones', () => {
    const config = loadPeerConfig({});
    expect(config.PEER_TRANSFER_MAX_BYTES).toBe(4 * 1024 * 1024);
    expect(config.PEER_LEAVE_TIMEOUT_MS).toBe(3000);
    expect([...config.DIRECTORY_TRANSFER_DATA_IDS]).toEqual(['EMISSARY_DIRECTORY_SERVICES::STUDY', 'INITIAL::INPUT']);
    expect([...loadPeerConfig({ DIRECTORY_TRANSFER_DATA_IDS: 'UNKNOWN::TRANSFORM' }).DIRECTORY_TRANSFER_DATA_IDS]).toEqual([
      'UNKNOWN::TRANSFORM',
    ]);
    expect(() => loadPeerConfig({ DIRECTORY_TRANSFER_DATA_IDS: 'INITIAL' })).toThrow(/DIRECTORY_TRANSFER_DATA_IDS/);
    expect(() => loadPeerConfig({ PEER_TRANSFER_MAX_BYTES: '10' })).toThrow(/PEER_TRANSFER_MAX_BYTES/);
  });

  it('refuses a non-AMQP broker URL and a too small form limit', () => {
    expect(() => loadPeerConfig({ AMQP_URL: 'http://x' })).toThrow(/AMQP_URL/);
    expect(() => loadPeerConfig({ FORM_LIMIT_BYTES: '10' })).toThrow(/FORM_LIMIT_BYTES/);
  });

  it('parses client places name=queue, the last = splitting', () => {
    expect(parseClientPlaces(' a.b.c.http://h:1/P=q1 , x=q2,')).toEqual(
      new Map([
        ['a.b.c.http://h:1/P', 'q1'],
        ['x', 'q2'],
      ]),
    );
    expect(() => parseClientPlaces('noqueue')).toThrow(TypeError);
    expect(() => parseClientPlaces('name=')).toThrow(TypeError);
  });
});
