import { describe, expect, it } from 'vitest';
import {
  DirectoryNameError,
  MAX_DIRECTORY_NAME_LENGTH,
  normaliseDirectoryName,
  parseDirectoryName,
  parsePeerUrl,
  peerKeyOf,
} from '../../src/directory/directory-name.policy.ts';

describe('parseDirectoryName', () => {
  it('parses the reference key with an expense', () => {
    const name = parseDirectoryName('EMISSARY_DIRECTORY_SERVICES.DIRECTORY.STUDY.http://host:8001/DirectoryPlace$5050');
    expect(name).toEqual({
      dataType: 'EMISSARY_DIRECTORY_SERVICES',
      serviceName: 'DIRECTORY',
      serviceType: 'STUDY',
      expense: 5050,
      url: {
        scheme: 'http',
        host: 'host',
        port: 8001,
        path: '/DirectoryPlace',
        origin: 'http://host:8001',
        hostUrl: 'http://host:8001/',
        placeName: 'DirectoryPlace',
        href: 'http://host:8001/DirectoryPlace',
      },
      key: 'EMISSARY_DIRECTORY_SERVICES.DIRECTORY.STUDY.http://host:8001/DirectoryPlace$5050',
      keyWithoutExpense: 'EMISSARY_DIRECTORY_SERVICES.DIRECTORY.STUDY.http://host:8001/DirectoryPlace',
      peerKey: '*.*.*.http://host:8001/DirectoryPlace',
    });
  });

  it.each([
    ['*.*.*.http://host:8001/DirectoryPlace', '*.*.*.http://host:8001/DirectoryPlace'],
    ['EMISSARY_DIRECTORY_SERVICES.DIRECTORY.STUDY.http://remoteHost:8888/DirectoryPlace', '*.*.*.http://remotehost:8888/DirectoryPlace'],
    ['EMISSARY_DIRECTORY_SERVICES.DIRECTORY.STUDY.http://localhost:9999/DirectoryPlace$5050', '*.*.*.http://localhost:9999/DirectoryPlace'],
    ['#EMISSARY_DIRECTORY_SERVICES.DIRECTORY.STUDY.http://peerB:8001/DirectoryPlace', '*.*.*.http://peerb:8001/DirectoryPlace'],
    ['A.B.C.http://peer.example.com:8001/DirectoryPlace', '*.*.*.http://peer.example.com:8001/DirectoryPlace'],
    ['A.B.C.https://peer.example.com/ctx/SomePlace', '*.*.*.https://peer.example.com:443/ctx/DirectoryPlace'],
    ['A.B.C.http://[::1]:8001/DirectoryPlace', '*.*.*.http://[::1]:8001/DirectoryPlace'],
  ])('accepts %s with peer key %s', (text, peerKey) => {
    expect(peerKeyOf(text)).toBe(peerKey);
  });

  it('counts only dots before // as tuple separators', () => {
    const name = parseDirectoryName('LANG-X.SVC.ID.http://a.b.c.d.example:80/X');
    expect([name.dataType, name.serviceName, name.serviceType, name.url.host]).toEqual(['LANG-X', 'SVC', 'ID', 'a.b.c.d.example']);
  });

  it.each([
    ['HTTP://HOST:8001/DirectoryPlace', 'http://host:8001/DirectoryPlace'],
    ['http://Host/DirectoryPlace', 'http://host:80/DirectoryPlace'],
    ['HTTPS://Host/DirectoryPlace', 'https://host:443/DirectoryPlace'],
    ['http://127.1:8001/DirectoryPlace', 'http://127.0.0.1:8001/DirectoryPlace'],
    ['http://[0:0:0:0:0:0:0:1]:8001/DirectoryPlace', 'http://[::1]:8001/DirectoryPlace'],
    ['http://host:08001/DirectoryPlace$05050', 'http://host:8001/DirectoryPlace$5050'],
  ])('normalises %s to %s and is idempotent', (url, normalised) => {
    const key = normaliseDirectoryName(`A.B.C.${url}`);
    expect(key).toBe(`A.B.C.${normalised}`);
    expect(normaliseDirectoryName(key)).toBe(key);
  });

  it.each<[string, unknown, string]>([
    ['no peer URL', 'EMISSARY_DIRECTORY_SERVICES.DIRECTORY.STUDY', 'no-peer-url'],
    ['no peer URL (bare location)', 'A.B.C.DirectoryPlace', 'no-peer-url'],
    ['three tuples', 'A.B.http://host:8001/DirectoryPlace', 'tuple-count'],
    ['five tuples', 'A.B.C.D.http://host:8001/DirectoryPlace', 'tuple-count'],
    ['empty tuple', 'A..C.http://host:8001/DirectoryPlace', 'tuple'],
    ['bad tuple character', 'A.B!.C.http://host:8001/DirectoryPlace', 'tuple'],
    ['overlong tuple', `${'A'.repeat(129)}.B.C.http://host:8001/DirectoryPlace`, 'tuple'],
    ['ftp scheme', 'A.B.C.ftp://host:8001/DirectoryPlace', 'scheme'],
    ['file scheme', 'A.B.C.file:///etc/passwd', 'scheme'],
    ['gopher scheme', 'A.B.C.gopher://host:70/DirectoryPlace', 'scheme'],
    ['userinfo', 'A.B.C.http://user:pw@host:8001/DirectoryPlace', 'userinfo'],
    ['userinfo host confusion', 'A.B.C.http://allowed:8001@evil:8001/DirectoryPlace', 'userinfo'],
    ['space', 'A.B.C.http://host:8001/Directory Place', 'forbidden-character'],
    ['CR LF', 'A.B.C.http://host:8001/DirectoryPlace\r\nX: y', 'forbidden-character'],
    ['tab in host', 'A.B.C.http://ho\tst:8001/DirectoryPlace', 'forbidden-character'],
    ['non-ASCII', 'A.B.C.http://hóst:8001/DirectoryPlace', 'forbidden-character'],
    ['leading whitespace', ' A.B.C.http://host:8001/DirectoryPlace', 'forbidden-character'],
    ['too long', `A.B.C.http://host:8001/${'x'.repeat(MAX_DIRECTORY_NAME_LENGTH)}`, 'too-long'],
    ['no place name (GHSL SSRF example)', 'foo.bar.baz.http://attacker:9999/', 'path'],
    ['no path', 'A.B.C.http://host:8001', 'path'],
    ['dot-dot segment', 'A.B.C.http://host:8001/a/../DirectoryPlace', 'path'],
    ['percent-encoding', 'A.B.C.http://host:8001/Directory%50lace', 'path'],
    ['backslash', 'A.B.C.http://host:8001\\@evil/DirectoryPlace', 'userinfo'],
    ['query', 'A.B.C.http://host:8001/DirectoryPlace?x=1', 'query-or-fragment'],
    ['fragment', 'A.B.C.http://host:8001/DirectoryPlace#x', 'query-or-fragment'],
    ['port 0', 'A.B.C.http://host:0/DirectoryPlace', 'port'],
    ['port too big', 'A.B.C.http://host:65536/DirectoryPlace', 'port'],
    ['empty port', 'A.B.C.http://host:/DirectoryPlace', 'host'],
    ['empty host', 'A.B.C.http://:8001/DirectoryPlace', 'host'],
    ['bad IPv4', 'A.B.C.http://1.2.3.256:8001/DirectoryPlace', 'host'],
    ['label with underscore', 'A.B.C.http://ho_st:8001/DirectoryPlace', 'host'],
    ['trailing dot host', 'A.B.C.http://host.:8001/DirectoryPlace', 'host'],
    ['bad expense', 'A.B.C.http://host:8001/DirectoryPlace$abc', 'expense'],
    ['empty expense', 'A.B.C.http://host:8001/DirectoryPlace$', 'expense'],
    ['expense overflow', 'A.B.C.http://host:8001/DirectoryPlace$2147483648', 'expense'],
    ['not a string', 42, 'not-a-string'],
    ['null', null, 'not-a-string'],
  ])('refuses %s', (_label, text, problem) => {
    expect(() => parseDirectoryName(text)).toThrow(DirectoryNameError);
    try {
      parseDirectoryName(text);
    } catch (error) {
      expect((error as DirectoryNameError).problem).toBe(problem);
      expect((error as DirectoryNameError).message).not.toContain('host:8001');
    }
  });
});

describe('parsePeerUrl', () => {
  it('parses a targetDir', () => {
    expect(parsePeerUrl('http://Localhost:9999/DirectoryPlace')).toMatchObject({
      href: 'http://localhost:9999/DirectoryPlace',
      origin: 'http://localhost:9999',
      placeName: 'DirectoryPlace',
    });
  });

  it('refuses a bare place name (upstream Namespace suffix match is not reproduced)', () => {
    expect(() => parsePeerUrl('DirectoryPlace')).toThrow(DirectoryNameError);
  });

  it('round-trips its own output', () => {
    const url = parsePeerUrl('HTTPS://Peer.Example:8443/a/b/DirectoryPlace');
    expect(parsePeerUrl(url.href)).toEqual(url);
    expect(url.hostUrl).toBe('https://peer.example:8443/a/b/');
  });
});
