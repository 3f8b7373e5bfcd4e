import { isIPv4, isIPv6 } from 'node:net';

/**
 * The key under which a client's address is counted: an IPv4 address as it is (also when written IPv4-mapped,
 * `::ffff:203.0.113.9`); an IPv6 address as its /64 prefix (`2001:db8:0:1::/64`), since one subscriber usually
 * holds a whole /64 and could otherwise take a new address for every try (https://www.rfc-editor.org/rfc/rfc6177,
 * https://www.rfc-editor.org/rfc/rfc4291#section-2.5.1); anything else as it is; no address at all as `unknown`.
 */
export function clientAddressKey(address: string | undefined): string {
  if (!address) return 'unknown';
  const mapped = /^::ffff:(\d{1,3}(?:\.\d{1,3}){3})$/i.exec(address)?.[1];
  if (mapped && isIPv4(mapped)) return mapped;
  if (isIPv4(address)) return address;
  const withoutZone = address.replace(/%.*$/, '');
  if (!isIPv6(withoutZone)) return address;
  return `${ipv6Groups(withoutZone).slice(0, 4).join(':')}::/64`;
}

/** The eight 16-bit groups of a valid IPv6 address, lower-case hex without leading zeros (`::` expanded, an IPv4 tail as two groups). */
function ipv6Groups(address: string): string[] {
  const groups = (part: string): string[] => {
    if (part === '') return [];
    return part.split(':').flatMap((group) => {
      if (!group.includes('.')) return [group];
      const [a = 0, b = 0, c = 0, d = 0] = group.split('.').map(Number);
      return [((a << 8) | b).toString(16), ((c << 8) | d).toString(16)];
    });
  };
  const [head = '', tail] = address.split('::');
  const front = groups(head);
  const back = tail === undefined ? [] : groups(tail);
  const zeros = tail === undefined ? [] : Array.from({ length: 8 - front.length - back.length }, () => '0');
  return [...front, ...zeros, ...back].map((group) => Number.parseInt(group, 16).toString(16));
}
