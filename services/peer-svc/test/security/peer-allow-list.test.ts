import { describe, expect, it } from 'vitest';
import { createPeerAllowList, PeerAllowListError, peerAllowListFromEnv } from '../../src/security/peer-allow-list.ts';

describe('createPeerAllowList', () => {
  const list = createPeerAllowList('127.0.0.1:9001, LocalHost:9002,[0:0::1]:9003,example.org:80,secure.example:443');

  it('normalises entries: lower-case names, canonical bracketed IPv6', () => {
    expect([...list.entries]).toEqual(['127.0.0.1:9001', 'localhost:9002', '[::1]:9003', 'example.org:80', 'secure.example:443']);
  });

  it('accepts http and https URLs whose host:port is listed, whatever the case or the IPv6 spelling', () => {
    expect(list.isAllowedPeer('http://127.0.0.1:9001/emissary/Heartbeat.action')).toBe(true);
    expect(list.isAllowedPeer('https://127.0.0.1:9001/')).toBe(true);
    expect(list.isAllowedPeer('HTTP://LOCALHOST:9002/x')).toBe(true);
    expect(list.isAllowedPeer('http://[::1]:9003/')).toBe(true);
    expect(list.isAllowedPeer('http://[0000::0001]:9003/')).toBe(true);
    expect(list.isAllowedPeer(new URL('http://localhost:9002/'))).toBe(true);
  });

  it('makes default ports explicit', () => {
    expect(list.isAllowedPeer('http://example.org/')).toBe(true);
    expect(list.isAllowedPeer('https://example.org/')).toBe(false); // 443 is not listed for example.org
    expect(list.isAllowedPeer('https://secure.example/')).toBe(true);
    expect(list.isAllowedPeer('http://secure.example/')).toBe(false);
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
    expect(list.check('http://localhost:9001/')).toMatchObject({ ok: false, reason: 'not-listed' }); // names are not resolved
    expect(list.check('http://[::1]:9001/')).toMatchObject({ ok: false, reason: 'not-listed' });
    expect(list.check('http://127.0.0.1.nip.io:9001/')).toMatchObject({ ok: false, reason: 'not-listed' });
    expect(list.check('http://localhost.:9002/')).toMatchObject({ ok: false, reason: 'not-listed' });
    expect(list.check('not a url')).toMatchObject({ ok: false, reason: 'unparsable' });
    expect(list.isAllowedPeer('http://169.254.169.254/')).toBe(false);
  });

  it('refuses malformed entries, naming each', () => {
    expect(() => createPeerAllowList('localhost,127.0.0.1:0,http://a:1,::1:9001,a:70000,u@h:1')).toThrow(PeerAllowListError);
    try {
      createPeerAllowList('localhost,127.0.0.1:0');
    } catch (error) {
      expect((error as PeerAllowListError).problems).toHaveLength(2);
    }
  });

  it('an empty or unset list refuses everything', () => {
    expect(createPeerAllowList('').isAllowedPeer('http://127.0.0.1:9001/')).toBe(false);
    expect(peerAllowListFromEnv({}).isAllowedPeer('http://127.0.0.1:9001/')).toBe(false);
    expect(peerAllowListFromEnv({ PEER_ALLOW_LIST: '127.0.0.1:9001' }).isAllowedPeer('http://127.0.0.1:9001/')).toBe(true);
  });
});
