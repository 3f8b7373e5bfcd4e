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
    });
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
