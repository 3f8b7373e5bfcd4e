import { createHash, timingSafeEqual } from 'node:crypto';

/** The Digest algorithms this service speaks (RFC 7616 §3.3); the `-sess` variants and SHA-512-256 are not supported. */
export type DigestAlgorithm = 'SHA-256' | 'MD5';

/**
 * The algorithm named by a challenge's or credentials' `algorithm` parameter, matched case-insensitively.
 * An absent parameter means MD5 (RFC 7616 §3.3, RFC 2617 §3.2.1); an unsupported one gives `undefined`.
 */
export function digestAlgorithmOf(value: string | undefined): DigestAlgorithm | undefined {
  if (value === undefined) return 'MD5';
  const upper = value.toUpperCase();
  return upper === 'SHA-256' ? 'SHA-256' : upper === 'MD5' ? 'MD5' : undefined;
}

/** Lower-case hex hash of the UTF-8 bytes of `data` (64 hex digits for SHA-256, 32 for MD5): RFC 7616 §3.4 `H()`. */
export function digestHash(algorithm: DigestAlgorithm, data: string): string {
  return createHash(algorithm === 'SHA-256' ? 'sha256' : 'md5')
    .update(data, 'utf8')
    .digest('hex');
}

/** Everything the qop=`auth` `response` is computed from; `nc` is 8 hex digits, `uri` the request target as sent. */
export interface DigestResponseInput {
  algorithm: DigestAlgorithm;
  username: string;
  realm: string;
  password: string;
  method: string;
  uri: string;
  nonce: string;
  nc: string;
  cnonce: string;
}

/**
 * The `response` value for qop=`auth` (RFC 7616 §3.4.1-§3.4.3):
 * `H(H(user:realm:password):nonce:nc:cnonce:auth:H(method:uri))`, lower-case hex.
 */
export function digestResponse(input: DigestResponseInput): string {
  const { algorithm } = input;
  const ha1 = digestHash(algorithm, `${input.username}:${input.realm}:${input.password}`);
  const ha2 = digestHash(algorithm, `${input.method}:${input.uri}`);
  return digestHash(algorithm, `${ha1}:${input.nonce}:${input.nc}:${input.cnonce}:auth:${ha2}`);
}

/** Constant-time equality of two strings (compared as UTF-8 bytes); `false` at once when the lengths differ. */
export function safeEqual(a: string, b: string): boolean {
  const left = Buffer.from(a, 'utf8');
  const right = Buffer.from(b, 'utf8');
  return left.length === right.length && timingSafeEqual(left, right);
}

/** One challenge (`WWW-Authenticate`) or credentials (`Authorization`) item: scheme lower-cased, parameter names lower-cased. */
export interface AuthItem {
  scheme: string;
  params: Map<string, string>;
  token68?: string;
}

const tchar = /[!#$%&'*+\-.^_`|~0-9A-Za-z]/;

/**
 * Parses an RFC 9110 §11.6.1 challenge list (`WWW-Authenticate`, possibly several header lines or several
 * challenges on one line) or a credentials header into items. Quoted strings are unescaped (`\x` → `x`).
 * Returns `undefined` when the text is malformed (unterminated quote, duplicate parameter, stray characters),
 * so callers fail closed.
 */
export function parseAuthHeader(header: string | readonly string[] | undefined): AuthItem[] | undefined {
  if (header === undefined) return [];
  const lines = typeof header === 'string' ? [header] : header;
  const items: AuthItem[] = [];
  for (const line of lines) {
    const parsed = parseLine(line);
    if (parsed === undefined) return undefined;
    items.push(...parsed);
  }
  return items;
}

function parseLine(s: string): AuthItem[] | undefined {
  const items: AuthItem[] = [];
  let i = 0;
  const skip = (chars: string) => {
    while (i < s.length && chars.includes(s.charAt(i))) i++;
  };
  const token = () => {
    const start = i;
    while (i < s.length && tchar.test(s.charAt(i))) i++;
    return s.slice(start, i);
  };
  const quoted = (): string | undefined => {
    i++; // opening quote
    let out = '';
    while (i < s.length) {
      const c = s.charAt(i);
      if (c === '\\') {
        if (i + 1 >= s.length) return undefined;
        out += s.charAt(i + 1);
        i += 2;
      } else if (c === '"') {
        i++;
        return out;
      } else {
        out += c;
        i++;
      }
    }
    return undefined;
  };
  for (;;) {
    skip(' \t,');
    if (i >= s.length) return items;
    const scheme = token();
    if (scheme === '') return undefined;
    const item: AuthItem = { scheme: scheme.toLowerCase(), params: new Map() };
    items.push(item);
    for (;;) {
      const save = i;
      skip(' \t,');
      if (i >= s.length) break;
      const name = token();
      if (name === '') return undefined;
      skip(' \t');
      if (s.charAt(i) !== '=') {
        i = save; // the next challenge's scheme
        break;
      }
      i++;
      skip(' \t');
      let value: string | undefined;
      if (s.charAt(i) === '"') value = quoted();
      else value = token();
      if (value === undefined) return undefined;
      if (value === '') {
        // token68 such as `Basic dXNlcg==`: keep it whole, it is never interpreted
        while (i < s.length && s.charAt(i) === '=') i++;
        item.token68 = s.slice(save, i).trim();
        continue;
      }
      const key = name.toLowerCase();
      if (item.params.has(key)) return undefined;
      item.params.set(key, value);
    }
  }
}

/** An RFC 9110 quoted-string holding `value` (`"` and `\` escaped). Control characters are refused with a TypeError. */
export function quoteString(value: string): string {
  // biome-ignore lint/suspicious/noControlCharactersInRegex: refusing control characters is the point
  if (/[\u0000-\u001f\u007f]/.test(value)) throw new TypeError('control characters cannot be sent in a quoted string');
  return `"${value.replaceAll('\\', '\\\\').replaceAll('"', '\\"')}"`;
}
