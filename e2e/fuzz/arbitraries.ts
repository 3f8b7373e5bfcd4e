import fc from 'fast-check';
import { DEMO_TOKENS } from './stack.ts';

/*
 * The building blocks of fuzzed requests, shared by every route of the route table: methods, path segments, query
 * strings, headers and bodies, each mixing plausible values with the awkward ones that break parsers.
 */

/** Methods every route is tried with: HTTP's own and a few WebDAV ones Node's parser knows. */
export const ANY_METHOD = fc.constantFrom(
  'GET',
  'HEAD',
  'POST',
  'PUT',
  'PATCH',
  'DELETE',
  'OPTIONS',
  'TRACE',
  'PROPFIND',
  'PURGE',
  'SEARCH',
);

/** A method: one the route documents most of the time, any other now and then. */
export const methodOf = (...documented: string[]) =>
  fc.oneof({ weight: 3, arbitrary: fc.constantFrom(...documented) }, { weight: 1, arbitrary: ANY_METHOD });

/** Characters that have broken parsers, SQL and loggers before. */
const AWKWARD_CHARS = ['\u0000', '\ud800', '\uffff', '\n', '\r', '\t', '"', "'", '\\', '%', ';', '&', '=', '/', '..', '\u202e', 'é', '😀'];

/** Text of any code points (lone surrogates included), at most `maxLength` units. */
export const awkwardText = (maxLength = 30) =>
  fc.string({ unit: fc.oneof(fc.constantFrom(...AWKWARD_CHARS), fc.string({ unit: 'binary', minLength: 1, maxLength: 1 })), maxLength });

/** A huge string (up to 64 KiB; beyond every JSON body limit but the gateway's). */
export const hugeText = fc.integer({ min: 17_000, max: 65_536 }).map((n) => 'x'.repeat(n));

/** Any JSON value, the wrong type for almost every field. */
export const anyJson = fc.oneof(
  fc.jsonValue({ maxDepth: 3 }),
  awkwardText(),
  fc.integer(),
  fc.double(),
  fc.boolean(),
  fc.constant(null),
  fc.constantFrom(2 ** 53 + 1, -1, 0, 1e308, -0, 2_147_483_648),
);

/** `value` most of the time, else any JSON value or a huge string: a field of a valid-shaped body, mutated now and then. */
export const mutated = <T>(value: fc.Arbitrary<T>) =>
  fc.oneof({ weight: 20, arbitrary: value }, { weight: 2, arbitrary: anyJson }, { weight: 1, arbitrary: hugeText });

/** Percent-encoding of text, as UTF-8 (lone surrogates replaced), so it is a valid request target. */
const encodeText = (text: string) => encodeURIComponent(text.toWellFormed());

/** A raw ISO-8859-1 character sent unescaped in the target (Node sends it as one byte). */
const latin1Raw = fc.integer({ min: 0xa0, max: 0xff }).map((code) => String.fromCharCode(code));

/**
 * One path segment: `known` values (ids that exist) often, else numbers of every size and shape, `..` and `.` (plain
 * and percent-encoded), encoded slashes and backslashes, broken percent-escapes, NUL, raw Latin-1 bytes and
 * percent-encoded text of any code points.
 */
export const pathSegment = (known: readonly string[] = []) =>
  fc.oneof(
    ...(known.length > 0 ? [{ weight: 3, arbitrary: fc.constantFrom(...known) }] : []),
    { weight: 2, arbitrary: fc.integer({ min: -5, max: 60 }).map(String) },
    {
      weight: 2,
      arbitrary: fc.constantFrom(
        '0',
        '2147483647',
        '2147483648',
        '9007199254740993',
        '99999999999999999999999999',
        '1e3',
        '0x1F',
        '1.5',
        '+1',
        '-0',
        '00001',
        'NaN',
        'Infinity',
        '%201',
        '',
        '00000000-0000-0000-0000-000000000000',
        'ffffffff-ffff-ffff-ffff-ffffffffffff',
      ),
    },
    {
      weight: 2,
      arbitrary: fc.constantFrom(
        '..',
        '.',
        '%2e%2e',
        '%2E',
        '.%2e',
        '%2f',
        '%2F..',
        '%5c',
        '\\',
        '%00',
        '%',
        '%zz',
        '%E0%A4%A',
        '%C0%AF',
        '%FF',
        ';x=1',
        '%3F',
        '%23',
      ),
    },
    { weight: 1, arbitrary: latin1Raw },
    { weight: 3, arbitrary: awkwardText(20).map(encodeText) },
  );

/** `?`-less query string of `names` (and random names) with awkward values, repeated keys and bracket keys. */
export const queryString = (names: readonly string[], values: fc.Arbitrary<string> = fc.constant('1')) => {
  const name = fc.oneof(
    { weight: 4, arbitrary: fc.constantFrom(...names, 'page') },
    { weight: 1, arbitrary: fc.constantFrom('a[]', 'a[b]', '__proto__', 'constructor', '', '%', '&') },
    { weight: 1, arbitrary: awkwardText(10).map(encodeText) },
  );
  const value = fc.oneof(
    { weight: 3, arbitrary: values },
    { weight: 2, arbitrary: pathSegment() },
    { weight: 1, arbitrary: fc.constantFrom('', '%', '%zz', '+', 'a+b', '%2B', '[]', '{}', 'null', 'true', '-1', '0', '101') },
  );
  const pair = fc.oneof({ weight: 5, arbitrary: fc.tuple(name, value).map(([n, v]) => `${n}=${v}`) }, { weight: 1, arbitrary: name });
  return fc.array(pair, { maxLength: 6 }).map((pairs) => pairs.join('&'));
};

/** A path plus, half the time, a query string. */
export const withQuery = (path: fc.Arbitrary<string>, query: fc.Arbitrary<string>) =>
  fc.tuple(path, fc.option(query, { freq: 2 })).map(([p, q]) => (q === null ? p : `${p}?${q}`));

/** A header value Node lets a client send: visible ASCII and ISO-8859-1, tabs and spaces. */
export const headerValue = (maxLength = 40) =>
  fc.string({
    unit: fc
      .oneof(fc.integer({ min: 0x20, max: 0x7e }), fc.integer({ min: 0xa0, max: 0xff }), fc.constant(0x09))
      .map((c) => String.fromCharCode(c)),
    maxLength,
  });

/** `Authorization` values that authenticate: the demo tokens under each scheme the API takes. */
export const demoAuthorization = fc.constantFrom(
  `Personal ${DEMO_TOKENS.alice}`,
  `Personal ${DEMO_TOKENS.bob}`,
  `Personal ${DEMO_TOKENS.bot}`,
  `Bearer ${DEMO_TOKENS.alice}`,
  `Bearer ${DEMO_TOKENS.bob}`,
);

/** `Authorization` values that do not: no token, other schemes, unknown tokens and garbage. */
export const badAuthorization = fc.oneof(
  fc.constantFrom(
    'Personal',
    'Personal ',
    'Personal  demo-token-alice',
    'personal demo-token-alice',
    'Personal demo-token-alice extra',
    'Personal demo-token-nobody',
    `token ${DEMO_TOKENS.bot}`,
    'Basic YWxpY2U6c2VjcmV0',
    'Digest username="x"',
    `Personal ${'a'.repeat(5_000)}`,
  ),
  headerValue(60),
);

/** An `Authorization` header (undefined: none): mostly one that authenticates, so requests reach the routes' own checks. */
export const authorization = fc.oneof(
  { weight: 8, arbitrary: demoAuthorization },
  { weight: 1, arbitrary: fc.constant(undefined) },
  { weight: 3, arbitrary: badAuthorization },
);

/** `Content-Type` values: JSON and its variants, forms, other types, bad charsets and garbage. */
export const contentType = fc.oneof(
  {
    weight: 4,
    arbitrary: fc.constantFrom(
      'application/json',
      'application/json; charset=utf-8',
      'application/vnd.api+json',
      'application/x-www-form-urlencoded',
      'application/x-www-form-urlencoded; charset=ISO-8859-1',
    ),
  },
  {
    weight: 2,
    arbitrary: fc.constantFrom(
      'text/plain',
      'application/xml',
      'multipart/form-data; boundary=x',
      'application/json; charset=latin1',
      'application/json; charset=utf-16',
      'application/json; charset=bogus',
      'application/problem+json',
      '*/*',
      'json',
      '',
    ),
  },
  { weight: 1, arbitrary: headerValue(30) },
);

/** `Accept` values. */
export const accept = fc.oneof(
  fc.constantFrom('application/json', 'application/problem+json', 'text/plain', 'text/html', '*/*', 'application/xml', 'image/png;q=0'),
  headerValue(20),
);

/** Headers most requests go without: odd encodings, request ids, forwarding, `Accept`. */
const NOISE = {
  accept,
  'content-encoding': fc.constantFrom('gzip', 'deflate', 'br', 'identity', 'x-bogus'),
  'x-request-id': fc.oneof(headerValue(20), fc.constant('r'.repeat(200))),
  'x-forwarded-for': fc.constantFrom('10.0.0.1', 'garbage', '::1, 1.2.3.4'),
};

/**
 * Request headers: `content-type` mostly `usualType` (else none or any other), each of the route's own `extra`
 * headers half of the time, and now and then a few noise headers.
 */
export const headers = (
  extra: Record<string, fc.Arbitrary<string>> = {},
  usualType = 'application/json',
): fc.Arbitrary<Record<string, string>> =>
  fc
    .tuple(
      fc.oneof(
        { weight: 6, arbitrary: fc.constant(usualType) },
        { weight: 1, arbitrary: fc.constant(undefined) },
        { weight: 2, arbitrary: contentType },
      ),
      fc.record(extra, { requiredKeys: [] }),
      fc.oneof({ weight: 4, arbitrary: fc.constant({}) }, { weight: 1, arbitrary: fc.record(NOISE, { requiredKeys: [] }) }),
    )
    .map(([type, own, noise]) => ({ ...noise, ...own, ...(type === undefined ? {} : { 'content-type': type }) }) as Record<string, string>);

/** Nested arrays and objects `depth` deep, as JSON text (parsers and validators that recurse). */
export const deepJson = fc
  .tuple(fc.integer({ min: 50, max: 20_000 }), fc.boolean())
  .map(([depth, objects]) => (objects ? `${'{"a":'.repeat(depth)}1${'}'.repeat(depth)}` : `${'['.repeat(depth)}${']'.repeat(depth)}`));

/** Bodies that are not JSON: truncated or broken JSON, random text and bytes. */
export const invalidJson = fc.oneof(
  fc.constantFrom(
    '{',
    '{"a":',
    '[1,',
    '{"a" 1}',
    "{'a':1}",
    'nul',
    'NaN',
    '{"a":1}}',
    '\ufeff{}',
    '{"a":"\\u12"}',
    '"\\ud800"',
    '{"__proto__":{"x":1}}',
  ),
  awkwardText(60),
  fc.uint8Array({ maxLength: 64 }).map((bytes) => Buffer.from(bytes)),
);

/**
 * A request body: none, a valid-shaped `shaped` value (fields mutated) as JSON, any JSON, invalid JSON, deeply nested
 * JSON, now and then a body over the gateway's limit of 1 MiB.
 */
export const body = (shaped: fc.Arbitrary<unknown>) =>
  fc.oneof(
    { weight: 3, arbitrary: fc.constant(undefined) },
    { weight: 16, arbitrary: shaped.map((value) => JSON.stringify(value)) },
    { weight: 2, arbitrary: anyJson.map((value) => JSON.stringify(value)) },
    { weight: 2, arbitrary: invalidJson },
    { weight: 1, arbitrary: deepJson },
    { weight: 1, arbitrary: fc.constant(undefined).map(() => 'y'.repeat(1_048_577)) },
  );
