import { createRegistryHttp, type RegistryAdapterOptions } from '../http/registry-http.ts';
import {
  type ArtifactDigest,
  type PackageRegistry,
  type RegistryDependency,
  RegistryError,
  type RegistryPackage,
  type RegistryVersion,
  type RegistryVersionDetails,
} from '../port.ts';
import { codeHostRepository, normaliseRepositoryUrl } from './source-url.ts';

/** The public npm registry. */
export const DEFAULT_NPM_URL = 'https://registry.npmjs.org/';

/** npm's bound on a package name's length (scope included), https://docs.npmjs.com/cli/configuring-npm/package-json#name. */
const MAX_NAME_LENGTH = 214;

/**
 * The packument's path for `name`, relative to the registry's base URL: `left-pad`, or `@scope%2fname` for a scoped
 * package (the slash escaped, the `@` kept, as the npm CLI asks it).
 * @throws TypeError for a name npm cannot hold: empty, longer than 214 characters, surrounding white space, a `/`
 *   outside `@scope/name`, a part that is empty or starts with `.`, or characters that are not URL-safe
 */
export function npmPackumentPath(name: string): string {
  if (name === '' || name.length > MAX_NAME_LENGTH || name.trim() !== name)
    throw new TypeError(`not an npm package name: ${JSON.stringify(name)}`);
  const parts = name.startsWith('@') ? /^@([^/]*)\/([^/]*)$/.exec(name)?.slice(1) : name.includes('/') ? undefined : [name];
  if (parts === undefined) throw new TypeError(`not an npm package name (a "/" outside "@scope/name"): ${JSON.stringify(name)}`);
  for (const part of parts) {
    if (part === '' || part.startsWith('.') || encodeURIComponent(part) !== part) {
      throw new TypeError(`not an npm package name: ${JSON.stringify(name)}`);
    }
  }
  return parts.length === 2 ? `@${parts[0]}%2f${parts[1]}` : name;
}

type Json = Record<string, unknown>;
const isRecord = (value: unknown): value is Json => typeof value === 'object' && value !== null && !Array.isArray(value);

/** SRI tokens of the algorithms lockfiles use: `sha512-<base64>` (RFC 4648 base64, padded). */
const SRI_TOKEN = /^(sha512|sha384|sha256|sha1)-([A-Za-z0-9+/]+={0,2})(\?\S*)?$/;
const BASE64_LENGTH: Record<string, number> = { sha512: 88, sha384: 64, sha256: 44, sha1: 28 };

/**
 * The npm registry adapter (`npm_and_yarn`): `GET {baseUrl}/{name}` returns the package's full packument
 * (https://github.com/npm/registry/blob/main/docs/responses/package-metadata.md), mapped onto {@link RegistryPackage}:
 * - every key of `versions`, released at `time[version]` (RFC 3339 UTC, null when `time` lacks it); never yanked
 *   (npm has no yanks: an unpublished version is simply gone);
 * - `deprecated`: the version's deprecation message (`""` means un-deprecated: null);
 * - digests: each SRI token of `dist.integrity` (`sri`, as package-lock.json writes it) and `dist.shasum` (`sha1`, hex,
 *   as yarn v1 writes it);
 * - `latest`: `dist-tags.latest`;
 * - `sourceUrl`: the package's (else its latest version's) `repository`, normalised to `https://host/owner/repo`
 *   (the monorepo `directory` left out), else a GitHub, GitLab, Bitbucket or Codeberg `homepage` or `bugs` URL's repository;
 * - `changelogUrl`: always null: the packument has no changelog field.
 * `name` is the packument's own `name`. A packument without `versions` whose `time.unpublished` is set (a package
 * unpublished whole) counts as unknown. Credentials go as `Authorization` (bearer token or basic), as npm's
 * `_authToken` / `_auth` do.
 *
 * `describeVersion` reads the same packument (see `describeVersionOf` for the mapping): fetchPackage and
 * describeVersion of one package share one request while it is on its way, and otherwise the second costs a
 * revalidation (a 304, the body not downloaded nor parsed again).
 * @throws RegistryError (from `describeVersion`) as `fetchPackage` does, and `bad_response` for a version whose
 *   dependency sections, `peerDependenciesMeta` or `dist.tarball` have the wrong shape
 * @throws TypeError (from `fetchPackage`) for a name npm cannot hold (see {@link npmPackumentPath})
 * @throws RegistryError (from `fetchPackage`) as the HTTP layer does, and `bad_response` for a body that is not
 *   JSON, or whose `name`, `versions`, `versions[v].dist`, `time`, `dist-tags`, `deprecated` or digests have the wrong shape
 */
export function createNpmRegistry(options: RegistryAdapterOptions = {}): PackageRegistry {
  const { baseUrl = DEFAULT_NPM_URL, ...rest } = options;
  const http = createRegistryHttp({ ...rest, baseUrl });
  /** The last parsed packument of each package, reused while the HTTP layer answers the same (cached) body. */
  const parsed = new Map<string, { body: string; document: unknown }>();
  const packument = async (name: string, signal: AbortSignal | undefined): Promise<{ document: unknown; url: string } | undefined> => {
    const path = npmPackumentPath(name);
    const answer = await http.get(`./${path}`, { accept: 'application/json', ...(signal ? { signal } : {}) });
    if (answer.status !== 200) {
      parsed.delete(name);
      return undefined;
    }
    const known = parsed.get(name);
    if (known?.body === answer.body) return { document: known.document, url: answer.url };
    let document: unknown;
    try {
      document = JSON.parse(answer.body);
    } catch (error) {
      throw new RegistryError('bad_response', answer.url, 'npm packument: not JSON', { cause: error });
    }
    parsed.delete(name);
    // A few recently asked packages: enough for fetchPackage then describeVersion of one update run's dependency.
    if (parsed.size >= PARSED_PACKUMENTS) parsed.delete(parsed.keys().next().value as string);
    parsed.set(name, { body: answer.body, document });
    return { document, url: answer.url };
  };
  return {
    packageManager: 'npm_and_yarn',
    baseUrl: http.baseUrl.href,
    async fetchPackage(name, fetchOptions = {}) {
      const answer = await packument(name, fetchOptions.signal);
      return answer && parsePackument(answer.document, answer.url);
    },
    async describeVersion(name, version, fetchOptions = {}) {
      const answer = await packument(name, fetchOptions.signal);
      return answer && describeVersionOf(answer.document, version, answer.url, http.baseUrl);
    },
    stats: () => http.stats(),
    close: () => http.close(),
  };
}

/** How many parsed packuments an adapter keeps (their bodies stay in the HTTP cache anyway). */
const PARSED_PACKUMENTS = 8;

/** Maps a full packument (parsed JSON) onto a {@link RegistryPackage} (undefined for a package unpublished whole). */
function parsePackument(document: unknown, url: string): RegistryPackage | undefined {
  const bad = (message: string) => new RegistryError('bad_response', url, `npm packument: ${message}`);
  if (!isRecord(document)) throw bad('not a JSON object');
  const time = document.time;
  if (time !== undefined && !isRecord(time)) throw bad('`time` is not an object');
  if (document.versions === undefined && time?.unpublished !== undefined) return undefined;
  if (typeof document.name !== 'string' || document.name === '') throw bad('no `name`');
  if (!isRecord(document.versions)) throw bad('`versions` is not an object');
  const distTags = document['dist-tags'];
  if (distTags !== undefined && !isRecord(distTags)) throw bad('`dist-tags` is not an object');
  const latest = distTags?.latest;
  if (latest !== undefined && typeof latest !== 'string') throw bad('`dist-tags.latest` is not a string');

  const versions: RegistryVersion[] = [];
  for (const [version, data] of Object.entries(document.versions)) {
    if (!isRecord(data)) throw bad(`versions["${version}"] is not an object`);
    if (!isRecord(data.dist)) throw bad(`versions["${version}"].dist is not an object`);
    versions.push({
      version,
      releasedAt: releaseTime(time?.[version], version, bad),
      yanked: false,
      deprecated: deprecation(data.deprecated, version, bad),
      digests: digestsOf(data.dist, version, bad),
    });
  }

  const latestData = latest === undefined ? undefined : document.versions[latest];
  const details = [document, ...(isRecord(latestData) ? [latestData] : [])];
  return {
    name: document.name,
    versions,
    latest: latest ?? null,
    sourceUrl: sourceUrlOf(details),
    changelogUrl: null,
  };
}

function releaseTime(value: unknown, version: string, bad: (message: string) => Error): string | null {
  if (value === undefined) return null;
  const date = typeof value === 'string' ? new Date(value) : undefined;
  if (date === undefined || Number.isNaN(date.getTime())) throw bad(`time["${version}"] is not a time`);
  return date.toISOString();
}

function deprecation(value: unknown, version: string, bad: (message: string) => Error): string | null {
  if (value === undefined || value === null || value === false || value === '') return null;
  // A few old packuments hold `true` instead of a message.
  if (value === true) return 'deprecated';
  if (typeof value !== 'string') throw bad(`versions["${version}"].deprecated is not a string`);
  return value;
}

function digestsOf(dist: Json, version: string, bad: (message: string) => Error): ArtifactDigest[] {
  const digests: ArtifactDigest[] = [];
  const { integrity, shasum } = dist;
  if (integrity !== undefined) {
    if (typeof integrity !== 'string') throw bad(`versions["${version}"].dist.integrity is not a string`);
    for (const token of integrity.split(/\s+/).filter((t) => t !== '')) {
      const match = SRI_TOKEN.exec(token);
      if (match === null) {
        // Unknown algorithms are skipped, as SRI says; a known one must be well formed.
        if (/^(sha512|sha384|sha256|sha1)-/.test(token)) throw bad(`versions["${version}"].dist.integrity is malformed`);
        continue;
      }
      const algorithm = match[1] as 'sha512' | 'sha384' | 'sha256' | 'sha1';
      if (match[2]?.length !== BASE64_LENGTH[algorithm]) throw bad(`versions["${version}"].dist.integrity is malformed`);
      digests.push({ algorithm, value: `${algorithm}-${match[2]}`, encoding: 'sri' });
    }
  }
  if (shasum !== undefined) {
    if (typeof shasum !== 'string' || !/^[0-9a-f]{40}$/i.test(shasum)) throw bad(`versions["${version}"].dist.shasum is not a SHA-1`);
    digests.push({ algorithm: 'sha1', value: shasum.toLowerCase(), encoding: 'hex' });
  }
  return digests;
}

/** `repository` as package.json allows it: a string (URL or shorthand) or `{ type, url, directory }`. */
const repositoryUrl = (value: unknown): string | null => {
  const raw = typeof value === 'string' ? value : isRecord(value) && typeof value.url === 'string' ? value.url : undefined;
  return raw === undefined ? null : normaliseRepositoryUrl(raw);
};

/** `homepage` (a string) or `bugs` (a string or `{ url, email }`) of a code host, as its repository. */
const pageRepository = (value: unknown): string | null => {
  const raw = typeof value === 'string' ? value : isRecord(value) && typeof value.url === 'string' ? value.url : undefined;
  return raw === undefined ? null : codeHostRepository(raw);
};

/** The first usable link: `repository` (top level, then the latest version's), then `homepage`, then `bugs`. */
function sourceUrlOf(details: Json[]): string | null {
  const candidates = [
    ...details.map((detail) => repositoryUrl(detail.repository)),
    ...details.map((detail) => pageRepository(detail.homepage)),
    ...details.map((detail) => pageRepository(detail.bugs)),
  ];
  return candidates.find((url) => url !== null) ?? null;
}

/** npm's dependency sections of a version document and the kind each maps to (peers refined by `peerDependenciesMeta`). */
const DEPENDENCY_SECTIONS = [
  ['dependencies', 'runtime'],
  ['optionalDependencies', 'optional'],
  ['peerDependencies', 'peer'],
] as const;

/**
 * One version of a packument as {@link RegistryVersionDetails}
 * (https://github.com/npm/registry/blob/main/docs/responses/package-metadata.md#version):
 * - dependencies: `dependencies` (`runtime`), `optionalDependencies` (`optional`; npm also lists them under
 *   `dependencies`, where they are then left out), `peerDependencies` (`peer`, or `optional` when
 *   `peerDependenciesMeta[name].optional` is true), each in document order; an empty requirement is `*`;
 * - one artifact: `dist.tarball` (its file name the URL's last segment), with the digests of `dist.integrity` and
 *   `dist.shasum` as {@link createNpmRegistry} reads them. A tarball URL with user info is refused (`bad_response`);
 *   a relative one is resolved against the registry's base URL.
 * @returns undefined for a package unpublished whole or a version the packument does not list
 * @throws RegistryError `bad_response` when the document, the version's sections or its `dist` have the wrong shape
 */
function describeVersionOf(document: unknown, version: string, url: string, baseUrl: URL): RegistryVersionDetails | undefined {
  const bad = (message: string) => new RegistryError('bad_response', url, `npm packument: ${message}`);
  const pkg = parsePackument(document, url);
  if (pkg === undefined || !isRecord(document) || !isRecord(document.versions)) return undefined;
  const data = Object.hasOwn(document.versions, version) ? document.versions[version] : undefined;
  if (!isRecord(data) || !isRecord(data.dist)) return undefined;
  const where = `versions["${version}"]`;
  const peerMeta = data.peerDependenciesMeta;
  if (peerMeta !== undefined && !isRecord(peerMeta)) throw bad(`${where}.peerDependenciesMeta is not an object`);
  const optional = isRecord(data.optionalDependencies) ? data.optionalDependencies : {};
  const dependencies: RegistryDependency[] = [];
  for (const [section, kind] of DEPENDENCY_SECTIONS) {
    const table = data[section];
    if (table === undefined || table === null) continue;
    if (!isRecord(table)) throw bad(`${where}.${section} is not an object`);
    for (const [name, requirement] of Object.entries(table)) {
      if (typeof requirement !== 'string') throw bad(`${where}.${section}["${name}"] is not a string`);
      if (section === 'dependencies' && Object.hasOwn(optional, name)) continue;
      const meta = peerMeta?.[name];
      const optionalPeer = section === 'peerDependencies' && isRecord(meta) && meta.optional === true;
      dependencies.push({ name, requirement: requirement.trim() === '' ? '*' : requirement, kind: optionalPeer ? 'optional' : kind });
    }
  }
  const tarball = data.dist.tarball;
  if (typeof tarball !== 'string') throw bad(`${where}.dist.tarball is not a string`);
  let tarballUrl: URL;
  try {
    tarballUrl = new URL(tarball, baseUrl);
  } catch (error) {
    throw new RegistryError('bad_response', url, `npm packument: ${where}.dist.tarball is not a URL`, { cause: error });
  }
  if (tarballUrl.username !== '' || tarballUrl.password !== '') throw bad(`${where}.dist.tarball carries credentials`);
  const filename = decodeURIComponent(tarballUrl.pathname.split('/').pop() ?? '');
  return {
    name: pkg.name,
    version,
    dependencies,
    artifacts: [{ filename, url: tarballUrl.href, digests: digestsOf(data.dist, version, bad) }],
  };
}
