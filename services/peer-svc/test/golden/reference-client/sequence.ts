/**
 * A recorded request sequence of the original engine's client (https://github.com/NationalSecurityAgency/emissary,
 * "upstream"), as one of its directories sends it to a peer directory: a heartbeat, a registration (RegisterPeer), a
 * second heartbeat, and its leave (FailDirectory). Each step is the request as upstream's client writes it on the wire
 * and the answer expected from this service.
 *
 * Where the requests come from, upstream:
 * - `src/main/java/emissary/client/EmissaryClient.java`: every POST gets `X-Requested-By: emissary`
 *   (`createHttpPost` → `setCsrfHeader`, `CSRF_HEADER_PARAM` = Jersey's `CsrfProtectionFilter.HEADER_NAME`, token
 *   `DEFAULT_CONTEXT` = `emissary`); the requests of one process share a static `AUTH_CACHE` (`BasicAuthCache`, set as
 *   `HttpClientContext.AUTH_CACHE` in `send`); credentials for any host (`AuthScope(ANY_HOST, ANY_PORT)`), Digest only
 *   (`setTargetPreferredAuthSchemes(singleton(DIGEST))`, since 7.0).
 * - `src/main/java/emissary/directory/HeartbeatManager.java` (`getHeartbeat`): POST `<host url>emissary/Heartbeat.action`,
 *   form `hbf` = the sender's directory key, `hbt` = the receiver's directory place URL, UTF-8.
 * - `src/main/java/emissary/server/mvc/adapters/DirectoryAdapter.java`: `outboundRegisterPeer` → `zoneTransfer`: POST
 *   `<host url>emissary/RegisterPeer.action`, form `targetDir` then `directoryName`; `outboundFailDirectory`: POST
 *   `<host url>emissary/FailDirectory.action`, form `targetDir`, `dirFailName`, `dirAddPropFlag` (`true` from
 *   `DirectoryPlace.shutDown`), charset `Charset.defaultCharset()` (UTF-8).
 *
 * The wire form is Apache HttpClient 4.5's (the 7.x releases whose `DirectoryAdapter` imports `org.apache.http`):
 * - Headers in the order its protocol processor writes them: the request's own (`X-Requested-By`), `Content-Length`
 *   and `Content-Type` (`RequestContent`; `UrlEncodedFormEntity` with UTF-8: `application/x-www-form-urlencoded;
 *   charset=UTF-8`), `Host` (`RequestTargetHost`), `Connection: Keep-Alive` (`RequestClientConnControl`, `HTTP.CONN_KEEP_ALIVE`),
 *   `User-Agent` (`RequestUserAgent`), `Accept-Encoding: gzip,deflate` (`RequestAcceptEncoding`), then `Authorization`
 *   when there is one (added by `MainClientExec` after the processor).
 * - The form body is `URLEncodedUtils.format`: letters, digits and `-_.*` as they are, a space as `+`, every other
 *   UTF-8 byte as `%XX` (upper-case hex).
 * - Digest (`DigestScheme`): no `Authorization` until a 401; of several `WWW-Authenticate: Digest` lines the last one is
 *   taken (`AuthenticationStrategyImpl.getChallenges` keeps one challenge per scheme name, the later line overwriting);
 *   only `MD5`/`MD5-sess` are computed (another algorithm fails the request); the answer is sent on the same
 *   connection as `Digest username="…", realm="…", nonce="…", uri="<path>", response="…", qop=auth, nc=00000001,
 *   cnonce="<16 hex>", algorithm=MD5, opaque="…"` (`opaque` only when challenged with one; `qop`, `nc`, `algorithm`
 *   unquoted). After a success the scheme is kept in the auth cache (Digest is cachable) and sent preemptively to the
 *   same host: the cached copy (serialized by `BasicAuthCache`) reuses nonce and cnonce with `nc=00000002` each time.
 */

/** Placeholders of the fixture, replaced by the values of a test run. */
export interface ReplayValues {
  /** Our directory place URL, `http://127.0.0.1:<port>/DirectoryPlace`. */
  OUR_URL: string;
  /** Our directory key, `EMISSARY_DIRECTORY_SERVICES.DIRECTORY.STUDY.<OUR_URL>`. */
  OUR_KEY: string;
  /** Our host URL, `http://127.0.0.1:<port>/` (upstream `KeyManipulator.getServiceHostUrl`). */
  OUR_HOST_URL: string;
  /** `127.0.0.1:<port>`, the `Host` header. */
  OUR_HOST: string;
  /** The reference peer's directory place URL. */
  REF_URL: string;
  /** The reference peer's directory key, `EMISSARY_DIRECTORY_SERVICES.DIRECTORY.STUDY.<REF_URL>`. */
  REF_KEY: string;
  /** The reference peer's default directory key, `*.*.*.<REF_URL>` (upstream `KeyManipulator.getDefaultDirectoryKey`). */
  REF_PEER_KEY: string;
  /** The reference peer's host URL, `http://127.0.0.1:<port>/`. */
  REF_HOST_URL: string;
}

/** What a step is answered. */
export interface ExpectedAnswer {
  status: number;
  /** The media type of `Content-Type`, without parameters. */
  mediaType: string;
  /** The whole body, after placeholders are replaced; or `bodyFile`. */
  body?: string;
  /** A file beside this one holding the whole body (bytes, CRLF kept), after placeholders are replaced. */
  bodyFile?: string;
}

/** One request of the sequence and its expected answer. */
export interface RecordedStep {
  name: string;
  /** The upstream code that sends it. */
  source: string;
  method: 'POST';
  path: string;
  /**
   * Header lines in wire order, names as HttpClient writes them; `{{CONTENT_LENGTH}}` is the body's length in bytes.
   * `Authorization` is not listed: the replaying client adds it as HttpClient does (see the file comment).
   */
  headers: readonly (readonly [string, string])[];
  /** Form fields in upstream's order. */
  form: readonly (readonly [string, string])[];
  /**
   * How HttpClient authenticates this request: `none` (no cached scheme yet, and the answer is no 401), `challenge`
   * (no `Authorization`, a 401, then the Digest answer on the same connection), `preemptive` (the cached scheme).
   */
  auth: 'none' | 'challenge' | 'preemptive';
  expect: ExpectedAnswer;
  /** Where this service deliberately answers otherwise than upstream (the README says so). */
  documentedDivergence?: string;
}

const clientHeaders = [
  ['X-Requested-By', 'emissary'],
  ['Content-Length', '{{CONTENT_LENGTH}}'],
  ['Content-Type', 'application/x-www-form-urlencoded; charset=UTF-8'],
  ['Host', '{{OUR_HOST}}'],
  ['Connection', 'Keep-Alive'],
  ['User-Agent', 'Apache-HttpClient/4.5.14 (Java/17.0.12)'],
  ['Accept-Encoding', 'gzip,deflate'],
] as const;

/** The sequence, in order: the steps share one client (its auth cache) and one peer. */
export const REFERENCE_CLIENT_SEQUENCE: readonly RecordedStep[] = [
  {
    name: 'heartbeat before registering',
    source: 'HeartbeatManager.getHeartbeat (HeartbeatTask, every HEARTBEAT_INTERVAL_SECONDS)',
    method: 'POST',
    path: '/emissary/Heartbeat.action',
    headers: clientHeaders,
    form: [
      ['hbf', '{{REF_KEY}}'],
      ['hbt', '{{OUR_URL}}'],
    ],
    auth: 'none',
    expect: { status: 403, mediaType: 'text/plain', body: 'Heartbeat failed, directory not found for {{REF_KEY}}' },
    documentedDivergence:
      'README "Hardening": a heartbeat only answers a peer already known (configured in PEER_RENDEZVOUS or registered); ' +
      'upstream HeartbeatAdapter.inboundHeartbeat answers 200 to any static peer, and Jetty challenges the heartbeat (Digest on /*)',
  },
  {
    name: 'RegisterPeer',
    source: 'DirectoryAdapter.outboundRegisterPeer → zoneTransfer (DirectoryPlace.loadPeerEntries)',
    method: 'POST',
    path: '/emissary/RegisterPeer.action',
    headers: clientHeaders,
    form: [
      ['targetDir', '{{OUR_URL}}'],
      ['directoryName', '{{REF_KEY}}'],
    ],
    auth: 'challenge',
    // RegisterPeerAction: 200 application/xml, DirectoryXmlContainer.toXmlString of the whole directory, which by then
    // holds the caller's STUDY and INPUT entries at the remote cost (the call-back's zone transfer).
    expect: { status: 200, mediaType: 'application/xml', bodyFile: 'register-peer-answer.xml' },
  },
  {
    name: 'heartbeat after registering',
    source: 'HeartbeatManager.getHeartbeat',
    method: 'POST',
    path: '/emissary/Heartbeat.action',
    headers: clientHeaders,
    form: [
      ['hbf', '{{REF_KEY}}'],
      ['hbt', '{{OUR_URL}}'],
    ],
    auth: 'preemptive',
    // HeartbeatAction: 200 text/plain, DirectoryProviderPlace.toString = `<key>$<expense>[<number of keys>]`.
    expect: { status: 200, mediaType: 'text/plain', body: '{{OUR_KEY}}$5050[1]' },
  },
  {
    name: 'FailDirectory (leaving)',
    source: 'DirectoryAdapter.outboundFailDirectory (DirectoryPlace.shutDown)',
    method: 'POST',
    path: '/emissary/FailDirectory.action',
    headers: clientHeaders,
    form: [
      ['targetDir', '{{OUR_URL}}'],
      ['dirFailName', '{{REF_KEY}}'],
      ['dirAddPropFlag', 'true'],
    ],
    auth: 'preemptive',
    // The two entries learned from the reference peer (its STUDY and INPUT entries) go. Upstream FailDirectoryAction
    // writes `Modified <n> entries from <localDirectory> due to failure of remote <dirFailName>`, where
    // `localDirectory` prints as `<key>$5050[1]` and `dirFailName` is echoed as sent.
    expect: {
      status: 200,
      mediaType: 'text/plain',
      body: 'Modified 2 entries from {{OUR_KEY}}$5050[1] due to failure of remote {{REF_KEY}}',
    },
  },
];

/**
 * Every step of the sequence sent without `X-Requested-By` is answered so, and before authentication (upstream's
 * Jersey `CsrfProtectionFilter` answers 400 too, though only after Jetty's Digest check).
 */
export const MISSING_REQUESTED_BY: ExpectedAnswer = { status: 400, mediaType: 'text/plain', body: 'Missing X-Requested-By header' };

/** Replaces every `{{NAME}}` of `values` in `text`. @throws Error for a placeholder without a value */
export function fillPlaceholders(text: string, values: Readonly<Record<string, string>>): string {
  return text.replace(/\{\{([A-Z_]+)\}\}/g, (_match, name: string) => {
    const value = values[name];
    if (value === undefined) throw new Error(`no value for placeholder ${name}`);
    return value;
  });
}
