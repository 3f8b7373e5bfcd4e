import { createHash } from 'node:crypto';
import {
  authorizationOf,
  createRegistryHttp,
  type RegistryAdapterOptions,
  type RegistryAnswer,
  type RegistryHttp,
} from '../http/registry-http.ts';
import {
  type PackageRegistry,
  RegistryError,
  type RegistryPackage,
  type RegistryRequestStats,
  type RegistryVersion,
  type RegistryVersionDetails,
} from '../port.ts';
import { badResponse } from './answer.ts';

/** Docker Hub's registry (the OCI distribution API of Docker Hub). */
export const DEFAULT_DOCKER_REGISTRY_URL = 'https://registry-1.docker.io/';

/** Options of {@link createOciRegistry}: the common adapter options, and which registry hosts speak plain HTTP. */
export interface OciRegistryOptions extends RegistryAdapterOptions {
  /**
   * Registry hosts (`host` or `host:port`, as an image names them) asked over `http://` rather than `https://`, like
   * the Docker daemon's `insecure-registries`. Default: `localhost` and `127.0.0.1`, with any port (as Docker allows).
   */
  insecureHosts?: readonly string[];
  /**
   * Hosts (`host` or `host:port`) of token services, other than the base URL's own origin, that may receive the
   * configured credentials when the base URL's registry names them as its Bearer challenge's `realm`, and only over
   * `https:`. Default: `auth.docker.io` when the base URL is Docker Hub's `registry-1.docker.io`, else none. A realm
   * elsewhere is asked for a token anonymously.
   */
  tokenRealms?: readonly string[];
}

/**
 * The `Accept` of a manifest request: OCI image index and manifest, Docker manifest list and manifest v2
 * (https://github.com/opencontainers/distribution-spec/blob/main/spec.md#pulling-manifests), so the registry answers
 * the digest a `docker pull` would pin (the index's, for a multi-platform image).
 */
export const MANIFEST_ACCEPT = [
  'application/vnd.oci.image.index.v1+json',
  'application/vnd.oci.image.manifest.v1+json',
  'application/vnd.docker.distribution.manifest.list.v2+json',
  'application/vnd.docker.distribution.manifest.v2+json',
].join(', ');

const DOCKER_HUB_HOSTS = new Set(['docker.io', 'index.docker.io', 'registry-1.docker.io']);
const COMPONENT = '[a-z0-9]+(?:(?:[._]|__|-+)[a-z0-9]+)*';
const REPOSITORY = new RegExp(`^${COMPONENT}(?:/${COMPONENT})*$`);
const HOST = /^[A-Za-z0-9](?:[A-Za-z0-9.-]*[A-Za-z0-9])?(?::\d+)?$/;
const TAG = /^[\w][\w.-]{0,127}$/;
const DIGEST = /^sha256:([0-9a-f]{64})$/;
const MAX_PAGES = 100;

/** Where an image name is asked: a registry host (null: the base URL's registry) and the repository path on it. */
export interface OciLocation {
  host: string | null;
  repository: string;
}

/**
 * Where the image `name` (as a Dockerfile names it, without tag or digest) lives, by Docker's reference rules
 * (https://github.com/distribution/reference/blob/main/normalize.go): a first path component with a `.` or `:`, or
 * `localhost`, is a registry host (`ghcr.io/owner/img` → host `ghcr.io`, repository `owner/img`); Docker Hub's own
 * hosts (`docker.io`, …) and any other name mean the base URL's registry. A one-component repository there gets
 * Docker Hub's `library/` namespace (`python` → `library/python`), as Docker Hub and its mirrors name official images.
 * @throws TypeError for a name that is not an image name (empty, upper case, a tag or digest in it)
 */
export function ociLocation(name: string): OciLocation {
  const slash = name.indexOf('/');
  const first = slash < 0 ? '' : name.slice(0, slash);
  const hosted = first !== '' && (first.includes('.') || first.includes(':') || first === 'localhost');
  const host = hosted && !DOCKER_HUB_HOSTS.has(first) ? first : null;
  const path = hosted ? name.slice(slash + 1) : name;
  if ((host !== null && !HOST.test(host)) || !REPOSITORY.test(path)) throw new TypeError(`not an image name: '${name}'`);
  const repository = host === null && !path.includes('/') ? `library/${path}` : path;
  return { host, repository };
}

/** One parameter list of a `WWW-Authenticate` challenge, e.g. `Bearer realm="…",service="…",scope="…"`. */
export interface AuthChallenge {
  scheme: string;
  params: Record<string, string>;
}

const TOKEN_CHAR = /[A-Za-z0-9!#$%&'*+.^_`|~-]/;

/**
 * Reads a `WWW-Authenticate` header (RFC 9110 section 11.6.1: a scheme, then `name=value` or `name="value"` parameters
 * separated by commas; several challenges in one value or in several headers) into its challenges, schemes lower-cased.
 */
export function parseAuthChallenges(header: string | string[] | undefined): AuthChallenge[] {
  const out: AuthChallenge[] = [];
  for (const value of Array.isArray(header) ? header : header === undefined ? [] : [header]) {
    let current: AuthChallenge | undefined;
    let i = 0;
    const token = () => {
      const from = i;
      while (i < value.length && TOKEN_CHAR.test(value[i] ?? '')) i++;
      return value.slice(from, i);
    };
    const skip = (chars: RegExp) => {
      while (i < value.length && chars.test(value[i] ?? '')) i++;
    };
    while (i < value.length) {
      skip(/[\s,]/);
      const word = token();
      if (word === '') {
        i++;
        continue;
      }
      skip(/\s/);
      if (value[i] !== '=') {
        current = { scheme: word.toLowerCase(), params: {} };
        out.push(current);
        continue;
      }
      i++;
      skip(/\s/);
      let param = '';
      if (value[i] === '"') {
        i++;
        while (i < value.length && value[i] !== '"') {
          if (value[i] === '\\') i++;
          param += value[i] ?? '';
          i++;
        }
        i++;
      } else {
        param = token();
      }
      if (current) current.params[word.toLowerCase()] = param;
    }
  }
  return out;
}

/** The next page's URL of a tags list (`Link: <…?n=…&last=…>; rel="next"`), resolved against `current`, or undefined. */
function nextPage(answer: RegistryAnswer, current: URL): URL | undefined {
  const header = answer.headers.link;
  for (const value of Array.isArray(header) ? header : header === undefined ? [] : [header]) {
    for (const part of value.split(/,(?=\s*<)/)) {
      const match = /^\s*<([^>]*)>\s*;(.*)$/.exec(part);
      if (match?.[1] && /(?:^|;)\s*rel="?next"?\s*(?:;|$)/.test(match[2] ?? '')) return new URL(match[1], current);
    }
  }
  return undefined;
}

const bad = badResponse;

/**
 * A registry of the OCI distribution API (https://github.com/opencontainers/distribution-spec/blob/main/spec.md):
 * Docker Hub by default, any registry at `baseUrl`, and the registry hosts images name themselves (`ghcr.io/owner/img`
 * is asked at `https://ghcr.io/`, see {@link ociLocation}; the configured credentials are never sent there).
 *
 * Authentication, Docker's token flow (https://distribution.github.io/distribution/spec/auth/token/): a request is sent
 * (with the configured credentials to the base URL's registry); on a 401 whose `WWW-Authenticate` is
 * `Bearer realm="…",service="…",scope="…"`, a token is got from the realm (`GET realm?service=…&scope=…`, anonymously,
 * or with the credentials — Basic for a user and password — when the registry is the base URL's and the realm is one
 * it may send them to: its own origin, or a host of {@link OciRegistryOptions.tokenRealms} over https) and the request is
 * sent again with `Authorization: Bearer <token>`. Tokens are kept per registry and scope until their `expires_in`
 * (default 60 s) has passed. A 401 without a Bearer realm, or again with the token, is `auth_failed`.
 *
 * `fetchPackage(name)` lists `GET /v2/<repository>/tags/list?n=1000`, following the `Link: <…>; rel="next"` pages: each
 * tag is a version with `releasedAt` null (the tags API gives no dates), not yanked, no digests; `latest` null (a
 * `latest` tag is a tag like any other), no source or changelog URL. 404 → undefined.
 *
 * `describeVersion(name, tag)` sends `HEAD /v2/<repository>/manifests/<tag>` with the `Accept` of {@link MANIFEST_ACCEPT}
 * and reads `Docker-Content-Digest` (when a registry leaves it out, the manifest's bytes are fetched and hashed): one artifact
 * `{ filename: '<name>:<tag>', url: <manifest URL>, digests: [{ algorithm: 'sha256', value: <hex>, encoding: 'hex' }] }`,
 * no dependencies (null). An unknown repository or tag → undefined.
 * @throws TypeError for a base URL that is not http(s)
 */
export function createOciRegistry(options: OciRegistryOptions = {}): PackageRegistry {
  const { baseUrl = DEFAULT_DOCKER_REGISTRY_URL, credentials, insecureHosts, tokenRealms, ...bounds } = options;
  const base = createRegistryHttp({ ...bounds, baseUrl, ...(credentials ? { credentials } : {}) });
  const realmHosts = tokenRealms ?? (base.baseUrl.hostname === 'registry-1.docker.io' ? ['auth.docker.io'] : []);
  /**
   * Whether the base registry's credentials may go to its challenge's `realm`: the base URL's origin, or a host of
   * `tokenRealms`, over https (plain http only when the base URL is http on the same host).
   */
  const trustedRealm = (realm: URL): boolean => {
    if (realm.origin === base.baseUrl.origin) return true;
    const known = realmHosts.some((host) => host.toLowerCase() === realm.host || host.toLowerCase() === realm.hostname);
    const secure = realm.protocol === 'https:' || (base.baseUrl.protocol === 'http:' && realm.hostname === base.baseUrl.hostname);
    return known && secure;
  };
  const others = new Map<string, RegistryHttp>();
  const insecure = (host: string) => (insecureHosts ? insecureHosts.includes(host) : /^(?:localhost|127\.0\.0\.1)(?::\d+)?$/.test(host));
  /** The HTTP client of an origin: the base URL's (with the credentials) for its own origin, else one without credentials. */
  const httpAt = (origin: string): RegistryHttp => {
    if (origin === base.baseUrl.origin) return base;
    let http = others.get(origin);
    if (!http) {
      http = createRegistryHttp({ ...bounds, baseUrl: `${origin}/` });
      others.set(origin, http);
    }
    return http;
  };
  const httpOf = (host: string | null): RegistryHttp => {
    if (host === null) return base;
    const key = host.toLowerCase();
    return httpAt(new URL(`${insecure(key) ? 'http' : 'https'}://${key}/`).origin);
  };
  const tokens = new Map<string, { token: string; until: number }>();

  /** A bearer token from the challenge's realm for `scope` (the challenge's, else pull of the repository). */
  const fetchToken = async (
    params: Record<string, string>,
    repository: string,
    own: boolean,
    signal: AbortSignal | undefined,
    answer: RegistryAnswer,
  ): Promise<{ token: string; until: number }> => {
    let realm: URL;
    try {
      realm = new URL(params.realm ?? '');
    } catch {
      throw new RegistryError('auth_failed', answer.url, `the Bearer challenge's realm is not a URL: '${params.realm ?? ''}'`, {
        status: 401,
      });
    }
    if (realm.protocol !== 'https:' && realm.protocol !== 'http:') {
      throw new RegistryError('auth_failed', answer.url, `the Bearer challenge's realm is not http(s): ${realm.origin}`, { status: 401 });
    }
    if (params.service) realm.searchParams.set('service', params.service);
    realm.searchParams.set('scope', params.scope ?? `repository:${repository}:pull`);
    const http = httpAt(realm.origin);
    const authorization = own && trustedRealm(realm) ? authorizationOf(credentials) : undefined;
    const headers: Record<string, string> = authorization === undefined ? {} : { authorization };
    const reply = await http.get(realm.href, { headers, ...(signal ? { signal } : {}) });
    if (reply.status !== 200)
      throw new RegistryError('auth_failed', reply.url, `the token service answered ${reply.status}`, { status: 401 });
    let body: unknown;
    try {
      body = JSON.parse(reply.body);
    } catch (error) {
      throw bad(reply, 'the token answer is not JSON', error);
    }
    const record = typeof body === 'object' && body !== null ? (body as Record<string, unknown>) : {};
    const token = typeof record.token === 'string' && record.token !== '' ? record.token : record.access_token;
    if (typeof token !== 'string' || token === '') throw bad(reply, 'the token answer has no token');
    const seconds = typeof record.expires_in === 'number' && record.expires_in > 0 ? record.expires_in : 60;
    return { token, until: Date.now() + seconds * 1000 };
  };

  /** A GET or HEAD of `path` on the image's registry, answering a Bearer challenge once. */
  const request = async (
    location: OciLocation,
    path: string,
    accept: string,
    method: 'GET' | 'HEAD',
    signal: AbortSignal | undefined,
    binary = false,
  ): Promise<RegistryAnswer> => {
    const http = httpOf(location.host);
    const own = http === base;
    const key = `${http.baseUrl.origin} ${location.repository}`;
    const held = tokens.get(key);
    const common = { accept, method, ...(signal ? { signal } : {}), ...(binary ? { binary } : {}) };
    const withToken = held && held.until > Date.now() ? { authorization: `Bearer ${held.token}` } : undefined;
    const first = await http.get(path, { ...common, challenge: true, ...(withToken ? { headers: withToken } : {}) });
    if (first.status !== 401) return first;
    const bearer = parseAuthChallenges(first.headers['www-authenticate']).find((c) => c.scheme === 'bearer' && c.params.realm);
    if (!bearer) throw new RegistryError('auth_failed', first.url, `${http.baseUrl.origin} refused the request (401)`, { status: 401 });
    const fresh = await fetchToken(bearer.params, location.repository, own, signal, first);
    if (tokens.size >= 1_000) tokens.clear(); // bounded: one entry per registry and repository asked
    tokens.set(key, fresh);
    return http.get(path, { ...common, headers: { authorization: `Bearer ${fresh.token}` } });
  };

  const repositoryPath = (location: OciLocation) => location.repository.split('/').map(encodeURIComponent).join('/');

  return {
    packageManager: 'docker',
    baseUrl: base.baseUrl.href,
    async fetchPackage(name, fetchOptions = {}): Promise<RegistryPackage | undefined> {
      const location = ociLocation(name);
      const http = httpOf(location.host);
      let url: URL | undefined = new URL(`v2/${repositoryPath(location)}/tags/list?n=1000`, http.baseUrl);
      const tags = new Set<string>();
      for (let page = 0; url && page < MAX_PAGES; page++) {
        const answer = await request(location, url.href, 'application/json', 'GET', fetchOptions.signal);
        if (answer.status !== 200) return undefined;
        let body: unknown;
        try {
          body = JSON.parse(answer.body);
        } catch (error) {
          throw bad(answer, 'tags list is not JSON', error);
        }
        const list = typeof body === 'object' && body !== null ? (body as Record<string, unknown>).tags : undefined;
        if (list !== null && !Array.isArray(list)) throw bad(answer, 'tags list has no tags array');
        for (const tag of list ?? []) {
          if (typeof tag !== 'string' || !TAG.test(tag)) throw bad(answer, `tags list holds a tag that is not one: ${JSON.stringify(tag)}`);
          tags.add(tag);
        }
        const next = nextPage(answer, url);
        if (next && next.origin !== url.origin) throw bad(answer, `the next page is on another host: ${next.origin}`);
        url = next;
      }
      const versions: RegistryVersion[] = [...tags].map((version) => ({
        version,
        releasedAt: null,
        yanked: false,
        deprecated: null,
        digests: [],
      }));
      return { name, versions, latest: null, sourceUrl: null, changelogUrl: null };
    },
    async describeVersion(name, version, describeOptions = {}): Promise<RegistryVersionDetails | undefined> {
      const location = ociLocation(name);
      if (!TAG.test(version)) return undefined;
      const http = httpOf(location.host);
      const url = new URL(`v2/${repositoryPath(location)}/manifests/${encodeURIComponent(version)}`, http.baseUrl);
      const head = await request(location, url.href, MANIFEST_ACCEPT, 'HEAD', describeOptions.signal);
      if (head.status !== 200) return undefined;
      const header = head.headers['docker-content-digest'];
      let hex = DIGEST.exec((Array.isArray(header) ? header[0] : header)?.trim() ?? '')?.[1];
      if (hex === undefined) {
        const got = await request(location, url.href, MANIFEST_ACCEPT, 'GET', describeOptions.signal, true);
        if (got.status !== 200) return undefined;
        // The digest is of the bytes as served (a BOM or invalid UTF-8 included), as docker computes it.
        hex = createHash('sha256')
          .update(got.bytes ?? Buffer.from(got.body, 'utf8'))
          .digest('hex');
      }
      return {
        name,
        version,
        dependencies: null,
        artifacts: [{ filename: `${name}:${version}`, url: url.href, digests: [{ algorithm: 'sha256', value: hex, encoding: 'hex' }] }],
      };
    },
    stats(): RegistryRequestStats {
      const all = [base, ...others.values()].map((http) => http.stats());
      return {
        requests: all.reduce((sum, s) => sum + s.requests, 0),
        notModified: all.reduce((sum, s) => sum + s.notModified, 0),
        fullDownloads: all.reduce((sum, s) => sum + s.fullDownloads, 0),
      };
    },
    async close() {
      await Promise.all([base, ...others.values()].map((http) => http.close()));
    },
  };
}
