import { describe, expect, it } from 'vitest';
import { createPeerAllowList, PeerAllowListError, peerAllowListFromEnv } from '../../src/security/peer-allow-list.policy.ts';

describe('createPeerAllowList', () => {
  const list = createPeerAllowList(
    'http://127.0.0.1:9001/DirectoryPlace, HTTP://LocalHost:9002/DirectoryPlace,http://[0:0::1]:9003/DirectoryPlace,http://example.org/DirectoryPlace,https://secure.example:443/emissary/DirectoryPlace',
  );

  it('normalises entries: lower-case scheme and names, explicit default ports, canonical bracketed IPv6', () => {
    expect([...list.entries]).toEqual([
      'http://127.0.0.1:9001/DirectoryPlace',
      'http://localhost:9002/DirectoryPlace',
      'http://[::1]:9003/DirectoryPlace',
      'http://example.org:80/DirectoryPlace',
      'https://secure.example:443/emissary/DirectoryPlace',
    ]);
  });

  it('allows a peer only when its normalised directory URL is exactly an entry', () => {
    expect(list.isAllowedPeer('http://127.0.0.1:9001/DirectoryPlace')).toBe(true);
    expect(list.isAllowedPeer('HTTP://LOCALHOST:9002/DirectoryPlace')).toBe(true);
    expect(list.isAllowedPeer('http://[0000::0001]:9003/DirectoryPlace')).toBe(true);
    expect(list.isAllowedPeer('http://example.org:80/DirectoryPlace')).toBe(true);
    expect(list.isAllowedPeer('https://secure.example/emissary/DirectoryPlace')).toBe(true);
    // another scheme, path, place or port on a listed host
    expect(list.isAllowedPeer('https://127.0.0.1:9001/DirectoryPlace')).toBe(false);
    expect(list.isAllowedPeer('https://example.org:80/DirectoryPlace')).toBe(false);
    expect(list.isAllowedPeer('http://secure.example:443/emissary/DirectoryPlace')).toBe(false);
    expect(list.isAllowedPeer('http://127.0.0.1:9001/other/DirectoryPlace')).toBe(false);
    expect(list.isAllowedPeer('http://127.0.0.1:9001/OtherPlace')).toBe(false);
    expect(list.isAllowedPeer('http://127.0.0.1:9001/DirectoryPlace/')).toBe(false);
    expect(list.isAllowedPeer('http://127.0.0.1:9002/DirectoryPlace')).toBe(false);
    // names are not resolved
    expect(list.isAllowedPeer('http://localhost:9001/DirectoryPlace')).toBe(false);
    expect(list.isAllowedPeer('http://user@127.0.0.1:9001/DirectoryPlace')).toBe(false);
    expect(list.isAllowedPeer('not a url')).toBe(false);
  });

  it('checks request URLs: under an entry base (scheme, host, port, path up to the place), any endpoint', () => {
    expect(list.check('http://127.0.0.1:9001/emissary/Heartbeat.action')).toMatchObject({
      ok: true,
      hostPort: '127.0.0.1:9001',
      directory: 'http://127.0.0.1:9001/DirectoryPlace',
    });
    expect(list.check('HTTP://LOCALHOST:9002/emissary/RegisterPeer.action').ok).toBe(true);
    expect(list.check('http://[0000::0001]:9003/x').ok).toBe(true);
    expect(list.check(new URL('http://example.org/emissary/Heartbeat.action')).ok).toBe(true);
    expect(list.check('https://secure.example/emissary/emissary/Heartbeat.action').ok).toBe(true);
    expect(list.check('https://secure.example/Heartbeat.action')).toMatchObject({ ok: false, reason: 'not-listed' });
    expect(list.check('https://127.0.0.1:9001/emissary/Heartbeat.action')).toMatchObject({ ok: false, reason: 'not-listed' });
    expect(list.check('https://example.org/')).toMatchObject({ ok: false, reason: 'not-listed' });
  });

  it('refuses other schemes, userinfo, other ports and unlisted hosts', () => {
    expect(list.check('file:///etc/passwd')).toMatchObject({ ok: false, reason: 'scheme' });
    expect(list.check('ftp://127.0.0.1:9001/')).toMatchObject({ ok: false, reason: 'scheme' });
    expect(list.check('javascript:alert(1)')).toMatchObject({ ok: false, reason: 'scheme' });
    expect(list.check('http://user:pw@127.0.0.1:9001/')).toMatchObject({ ok: false, reason: 'userinfo' });
    expect(list.check('http://user@127.0.0.1:9001/')).toMatchObject({ ok: false, reason: 'userinfo' });
    expect(list.check('http://@127.0.0.1:9001/')).toMatchObject({ ok: false, reason: 'userinfo' });
    expect(list.check('http://127.0.0.1:9001@evil.example:9001/')).toMatchObject({ ok: false, reason: 'userinfo' });
    expect(list.check('http://127.0.0.1:9002/')).toMatchObject({ ok: false, reason: 'not-listed' });
    expect(list.check('http://localhost:9001/')).toMatchObject({ ok: false, reason: 'not-listed' });
    expect(list.check('http://[::1]:9001/')).toMatchObject({ ok: false, reason: 'not-listed' });
    expect(list.check('http://127.0.0.1.nip.io:9001/')).toMatchObject({ ok: false, reason: 'not-listed' });
    expect(list.check('http://localhost.:9002/')).toMatchObject({ ok: false, reason: 'not-listed' });
    expect(list.check('not a url')).toMatchObject({ ok: false, reason: 'unparsable' });
    expect(list.check('http://169.254.169.254/').ok).toBe(false);
  });

  it('refuses malformed entries (host:port alone included), naming each', () => {
    expect(() =>
      createPeerAllowList('127.0.0.1:9001,http://a:1,ftp://a:1/DirectoryPlace,http://u@h:1/DirectoryPlace,http://a:70000/DirectoryPlace'),
    ).toThrow(PeerAllowListError);
    try {
      createPeerAllowList('localhost:9001,http://h:1/DirectoryPlace?x=1,http://ok:1/DirectoryPlace');
      expect.unreachable();
    } catch (error) {
      expect((error as PeerAllowListError).problems).toHaveLength(2);
      expect((error as PeerAllowListError).message).toContain('http://host:port/DirectoryPlace');
    }
  });

  it('an empty or unset list refuses everything', () => {
    expect(createPeerAllowList('').isAllowedPeer('http://127.0.0.1:9001/DirectoryPlace')).toBe(false);
    expect(peerAllowListFromEnv({}).check('http://127.0.0.1:9001/').ok).toBe(false);
    expect(
      peerAllowListFromEnv({ PEER_ALLOW_LIST: 'http://127.0.0.1:9001/DirectoryPlace' }).isAllowedPeer(
        'http://127.0.0.1:9001/DirectoryPlace',
      ),
    ).toBe(true);
  });
});
