import { describe, expect, it } from 'vitest';
import { clientAddressKey } from '../src/index.ts';

describe('clientAddressKey', () => {
  it('keeps IPv4 addresses, also when written IPv4-mapped', () => {
    expect(clientAddressKey('203.0.113.9')).toBe('203.0.113.9');
    expect(clientAddressKey('::ffff:203.0.113.9')).toBe('203.0.113.9');
    expect(clientAddressKey('::FFFF:127.0.0.1')).toBe('127.0.0.1');
  });

  it('groups IPv6 addresses by their /64 prefix, however they are written', () => {
    expect(clientAddressKey('2001:db8:0:1::1')).toBe('2001:db8:0:1::/64');
    expect(clientAddressKey('2001:0DB8:0000:0001:ffff:0:0:1')).toBe('2001:db8:0:1::/64');
    expect(clientAddressKey('2001:db8::1')).toBe('2001:db8:0:0::/64');
    expect(clientAddressKey('::1')).toBe('0:0:0:0::/64');
    expect(clientAddressKey('fe80::1%eth0')).toBe('fe80:0:0:0::/64');
    expect(clientAddressKey('64:ff9b::192.0.2.1')).toBe('64:ff9b:0:0::/64');
  });

  it('keeps anything else as it is, and names a missing address', () => {
    expect(clientAddressKey(undefined)).toBe('unknown');
    expect(clientAddressKey('')).toBe('unknown');
    expect(clientAddressKey('not-an-address')).toBe('not-an-address');
  });
});
