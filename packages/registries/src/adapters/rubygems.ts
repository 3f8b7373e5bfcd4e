import { createRegistryHttp, type RegistryAdapterOptions, type RegistryAnswer } from '../http/registry-http.ts';
import {
  type PackageRegistry,
  type RegistryDependency,
  RegistryError,
  type RegistryPackage,
  type RegistryVersion,
  type RegistryVersionDetails,
} from '../port.ts';
import { isRecord } from './answer.ts';
import { codeHostRepository, httpUrl, normaliseRepositoryUrl } from './source-url.ts';

/** rubygems.org, the public gem host. */
export const DEFAULT_RUBYGEMS_URL = 'https://rubygems.org/';

/** What rubygems.org accepts as a gem name (its `Rubygem` name validation): these characters, and at least one letter. */
const NAME = /^[A-Za-z0-9._-]+$/;

/** A version number rubygems can hold in a path: no separators, no dot segments, no spaces. */
const UNSAFE_VERSION = /[/\\\s]|^\.{1,2}$/;

const SHA256 = /^[0-9a-f]{64}$/i;

/** The API's timestamps: `2018-04-17T12:27:38.160Z` (an offset is accepted too). */
const RFC3339 = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:\d{2})$/;

/** One entry of `GET /api/v1/versions/{name}.json`, checked. */
interface VersionEntry {
  number: string;
  platform: string;
  createdAt: string;
  prerelease: boolean;
  sha: string | null;
  metadata: Record<string, string>;
}

/** Parses a JSON answer, `bad_response` when it is not JSON. */
function json(answer: RegistryAnswer): unknown {
  try {
    return JSON.parse(answer.body);
  } catch (error) {
    throw new RegistryError('bad_response', answer.url, `${answer.url}: not JSON`, { cause: error });
  }
}

/** Checks the versions list: an array of objects with `number`, `platform`, `created_at`, `prerelease`, `sha`. */
function versionEntries(answer: RegistryAnswer): VersionEntry[] {
  const fail = (why: string): never => {
    throw new RegistryError('bad_response', answer.url, `${answer.url}: ${why}`);
  };
  const body = json(answer);
  if (!Array.isArray(body)) return fail('not a list of versions');
  return body.map((item: unknown, index): VersionEntry => {
    if (!isRecord(item)) return fail(`entry ${index} is not an object`);
    const { number, platform, created_at: createdAt, prerelease, sha, metadata } = item;
    if (typeof number !== 'string' || number === '' || UNSAFE_VERSION.test(number))
      return fail(`entry ${index}: bad number ${JSON.stringify(number)}`);
    if (typeof platform !== 'string' || platform === '') return fail(`entry ${index}: bad platform`);
    if (typeof createdAt !== 'string' || !RFC3339.test(createdAt) || Number.isNaN(new Date(createdAt).getTime())) {
      return fail(`entry ${index}: bad created_at`);
    }
    if (typeof prerelease !== 'boolean') return fail(`entry ${index}: bad prerelease`);
    if (sha !== undefined && sha !== null && (typeof sha !== 'string' || !SHA256.test(sha)))
      return fail(`entry ${index}: sha is not a SHA-256`);
    if (metadata !== undefined && metadata !== null && !isRecord(metadata)) return fail(`entry ${index}: metadata is not an object`);
    const strings: Record<string, string> = {};
    for (const [key, value] of Object.entries(metadata ?? {})) if (typeof value === 'string') strings[key] = value;
    return {
      number,
      platform,
      createdAt: new Date(createdAt).toISOString(),
      prerelease,
      sha: typeof sha === 'string' ? sha.toLowerCase() : null,
      metadata: strings,
    };
  });
}

/** The gem's links and current version from `GET /api/v1/gems/{name}.json`, checked. */
interface GemInfo {
  name: string;
  version: string;
  sourceCodeUri: string | null;
  changelogUri: string | null;
  homepageUri: string | null;
}

function gemInfo(answer: RegistryAnswer): GemInfo {
  const fail = (why: string): never => {
    throw new RegistryError('bad_response', answer.url, `${answer.url}: ${why}`);
  };
  const body = json(answer);
  if (!isRecord(body)) return fail('not a gem object');
  const { name, version } = body;
  if (typeof name !== 'string' || name === '') return fail('no name');
  if (typeof version !== 'string' || version === '') return fail('no version');
  const link = (key: string): string | null => {
    const value = body[key];
    if (value === undefined || value === null || value === '') return null;
    if (typeof value !== 'string') return fail(`${key} is not a string`);
    return value;
  };
  return { name, version, sourceCodeUri: link('source_code_uri'), changelogUri: link('changelog_uri'), homepageUri: link('homepage_uri') };
}

/**
 * Reads one `dependencies.runtime` / `dependencies.development` list of the v2 version answer: `[{ name, requirements }]`
 * (`requirements` is the `Gem::Requirement` as text, `>= 1.0, < 3`).
 */
function dependencyList(answer: RegistryAnswer, value: unknown, kind: RegistryDependency['kind'], key: string): RegistryDependency[] {
  if (value === undefined || value === null) return [];
  if (!Array.isArray(value)) throw new RegistryError('bad_response', answer.url, `${answer.url}: dependencies.${key} is not a list`);
  return value.map((item: unknown, index): RegistryDependency => {
    if (!isRecord(item) || typeof item.name !== 'string' || item.name === '' || typeof item.requirements !== 'string') {
      throw new RegistryError('bad_response', answer.url, `${answer.url}: dependencies.${key}[${index}] has no name or requirements`);
    }
    return { name: item.name, requirement: item.requirements.trim() === '' ? '>= 0' : item.requirements.trim(), kind };
  });
}

/** The v2 version answer (`GET /api/v2/rubygems/{name}/versions/{version}.json`), checked and mapped. */
function versionDetails(answer: RegistryAnswer, name: string, version: string, base: URL): RegistryVersionDetails {
  const fail = (why: string): never => {
    throw new RegistryError('bad_response', answer.url, `${answer.url}: ${why}`);
  };
  const body = json(answer);
  if (!isRecord(body)) return fail('not a version object');
  const answered = typeof body.name === 'string' && body.name !== '' ? body.name : name;
  if (answered.toLowerCase() !== name.toLowerCase()) return fail(`gem ${answered}, not ${name}`);
  const number = typeof body.number === 'string' ? body.number : body.version;
  if (number !== version) return fail(`version ${JSON.stringify(number)}, not ${version}`);
  const platform = body.platform === undefined || body.platform === null ? 'ruby' : body.platform;
  if (typeof platform !== 'string' || platform === '') return fail('bad platform');
  const { sha, dependencies } = body;
  if (sha !== undefined && sha !== null && (typeof sha !== 'string' || !SHA256.test(sha))) return fail('sha is not a SHA-256');
  if (dependencies !== undefined && dependencies !== null && !isRecord(dependencies)) return fail('dependencies is not an object');
  const filename = `${answered}-${version}${platform === 'ruby' ? '' : `-${platform}`}.gem`;
  return {
    name: answered,
    version,
    dependencies: isRecord(dependencies)
      ? [
          ...dependencyList(answer, dependencies.runtime, 'runtime', 'runtime'),
          ...dependencyList(answer, dependencies.development, 'dev', 'development'),
        ]
      : null,
    artifacts: [
      {
        filename,
        url: new URL(`gems/${encodeURIComponent(filename)}`, base).href,
        digests: typeof sha === 'string' ? [{ algorithm: 'sha256', value: sha.toLowerCase(), encoding: 'hex' }] : [],
      },
    ],
  };
}

/** `source_code_uri` as a repository URL (cut to `https://host/owner/repo` on a known forge); npm's shorthands do not apply. */
const repositoryUrl = (raw: string | null | undefined): string | null => normaliseRepositoryUrl(raw, { npmShorthands: false });

/** The encoded gem name, or TypeError. */
function gemPath(name: string): string {
  if (!NAME.test(name) || !/[A-Za-z]/.test(name)) throw new TypeError(`not a gem name: ${JSON.stringify(name)}`);
  return encodeURIComponent(name);
}

/**
 * RubyGems.org (or a host speaking its API: Gemstash, Artifactory, GitHub Packages' rubygems) as a
 * {@link PackageRegistry}, after https://guides.rubygems.org/rubygems-org-api/.
 *
 * `fetchPackage(name)` asks, in parallel, `GET {base}/api/v1/versions/{name}.json` (every version: `number`,
 * `platform`, `created_at`, `prerelease`, `sha`, `metadata`) and `GET {base}/api/v1/gems/{name}.json` (the gem:
 * `version`, `source_code_uri`, `changelog_uri`, `homepage_uri`); two requests, two 304s when nothing changed.
 * - One {@link RegistryVersion} per version number. A number is often published for several platforms (`ruby`, the
 *   source gem, and `x86_64-linux`, `java`…, prebuilt ones): the `ruby` entry is the version; its `sha` (SHA-256 of the
 *   `.gem`, hex) is the digest, the form Bundler's `CHECKSUMS` writes for `name (version)`. Platform gems' checksums
 *   belong to `name (version-platform)` lockfile entries, which the port's digests cannot tell apart, so they are left
 *   out. A number published only for other platforms is still a version: the earliest `created_at`, no digest.
 * - `releasedAt`: `created_at` (the ruby entry's); yanked versions are absent from the API's list, so nothing is
 *   `yanked`; RubyGems has no deprecation (`deprecated` null).
 * - `latest`: the gems endpoint's `version` (the newest release); without the gems answer, the newest non-prerelease
 *   `created_at`.
 * - `sourceUrl`: `source_code_uri` (gem, else the latest version's `metadata`), else `homepage_uri` when it is on
 *   GitHub/GitLab/Bitbucket/Codeberg, normalised to `https://host/owner/repo`; `changelogUrl`: `changelog_uri` as given.
 * - A 404 (or 410) of the versions list is an unknown gem: `undefined`; a 404 of the gems endpoint only loses links.
 *
 * `describeVersion(name, version)` asks `GET {base}/api/v2/rubygems/{name}/versions/{version}.json` (rubygems.org's
 * `Api::V2::VersionsController#show`: the `ruby` platform build of that number): `dependencies.runtime` (kind `runtime`)
 * and `dependencies.development` (kind `dev`) as `[{ name, requirements }]` with the requirement as RubyGems writes it
 * (`>= 1.0, < 3`; an empty one is `>= 0`), and one artifact `{name}-{version}.gem` (`{name}-{version}-{platform}.gem`
 * when the answer is a platform build) at `{base}/gems/…` with its `sha` (SHA-256 of the `.gem`, hex) as digest.
 * A 404 (rubygems.org answers `This rubygem could not be found.` or `This version could not be found.` as plain text)
 * is `undefined`; an answer for another gem or number is `bad_response`.
 * @throws TypeError (from `fetchPackage` and `describeVersion`) for a name rubygems.org cannot hold (characters other than `A-Z a-z 0-9 . _
 *   -`, or no letter), before any request
 * @throws TypeError for a base URL that is not http(s)
 */
export function createRubyGemsRegistry(options: RegistryAdapterOptions = {}): PackageRegistry {
  const http = createRegistryHttp({ ...options, baseUrl: options.baseUrl ?? DEFAULT_RUBYGEMS_URL });
  return {
    packageManager: 'bundler',
    baseUrl: http.baseUrl.href,
    async fetchPackage(name, fetchOptions = {}): Promise<RegistryPackage | undefined> {
      const path = gemPath(name);
      const request = fetchOptions.signal ? { signal: fetchOptions.signal } : {};
      // Both settle before an error is thrown: no request outlives the call.
      const [versionsResult, gemResult] = await Promise.allSettled([
        http.get(`api/v1/versions/${path}.json`, request),
        http.get(`api/v1/gems/${path}.json`, request),
      ]);
      if (versionsResult.status === 'rejected') throw versionsResult.reason;
      if (gemResult.status === 'rejected') throw gemResult.reason;
      const versionsAnswer = versionsResult.value;
      const gemAnswer = gemResult.value;
      if (versionsAnswer.status !== 200) return undefined;
      const entries = versionEntries(versionsAnswer);
      const gem = gemAnswer.status === 200 ? gemInfo(gemAnswer) : undefined;
      if (gem !== undefined && gem.name.toLowerCase() !== name.toLowerCase()) {
        throw new RegistryError('bad_response', gemAnswer.url, `${gemAnswer.url}: gem ${gem.name}, not ${name}`);
      }

      const byNumber = new Map<string, VersionEntry[]>();
      for (const entry of entries) byNumber.set(entry.number, [...(byNumber.get(entry.number) ?? []), entry]);
      const versions: RegistryVersion[] = [...byNumber].map(([number, builds]) => {
        const source = builds.find((build) => build.platform === 'ruby');
        const earliest = builds.map((build) => build.createdAt).sort()[0] ?? null;
        return {
          version: number,
          releasedAt: source?.createdAt ?? earliest,
          yanked: false,
          deprecated: null,
          digests: source?.sha ? [{ algorithm: 'sha256', value: source.sha, encoding: 'hex' }] : [],
        };
      });

      const newestRelease = entries.filter((entry) => !entry.prerelease).sort((a, b) => b.createdAt.localeCompare(a.createdAt))[0]?.number;
      const latest = gem !== undefined && byNumber.has(gem.version) ? gem.version : (newestRelease ?? null);
      const latestBuilds = latest !== null ? (byNumber.get(latest) ?? []) : [];
      const latestMetadata = (latestBuilds.find((build) => build.platform === 'ruby') ?? latestBuilds[0])?.metadata ?? {};
      const sourceUrl =
        repositoryUrl(gem?.sourceCodeUri) ??
        repositoryUrl(latestMetadata.source_code_uri) ??
        codeHostRepository(gem?.homepageUri ?? latestMetadata.homepage_uri ?? null);
      const changelogUrl = httpUrl(gem?.changelogUri) ?? httpUrl(latestMetadata.changelog_uri);
      return { name: gem?.name ?? name, versions, latest, sourceUrl, changelogUrl };
    },
    async describeVersion(name, version, describeOptions = {}): Promise<RegistryVersionDetails | undefined> {
      const path = gemPath(name);
      if (version === '' || UNSAFE_VERSION.test(version)) throw new TypeError(`not a gem version: ${JSON.stringify(version)}`);
      const answer = await http.get(
        `api/v2/rubygems/${path}/versions/${encodeURIComponent(version)}.json`,
        describeOptions.signal ? { signal: describeOptions.signal } : {},
      );
      if (answer.status !== 200) return undefined;
      return versionDetails(answer, name, version, http.baseUrl);
    },
    stats: () => http.stats(),
    close: () => http.close(),
  };
}
