import { createRegistryHttp, type RegistryAdapterOptions, type RegistryAnswer } from '../http/registry-http.ts';
import type { PackageRegistry, RegistryDependency, RegistryPackage, RegistryVersion, RegistryVersionDetails } from '../port.ts';
import { badResponse, isRecord } from './answer.ts';
import { normaliseRepositoryUrl } from './source-url.ts';

/** hex.pm's HTTP API (https://github.com/hexpm/specifications/blob/main/apiary.apib). */
export const DEFAULT_HEX_URL = 'https://hex.pm/api/';

/** hex.pm's repository, where tarballs are (https://github.com/hexpm/specifications/blob/main/endpoints.md). */
export const DEFAULT_HEX_REPO_URL = 'https://repo.hex.pm/';

/** Options of {@link createHexRegistry}. */
export interface HexRegistryOptions extends RegistryAdapterOptions {
  /**
   * The repository base URL tarball URLs are given under (`{repoUrl}tarballs/{name}-{version}.tar`). Default:
   * {@link DEFAULT_HEX_REPO_URL} for hex.pm's API, else the API's sibling `repo/` (`https://host/hex/api/` →
   * `https://host/hex/repo/`).
   */
  repoUrl?: string;
}

/** Hex package names: a lowercase letter, then lowercase letters, digits and `_`. */
const NAME = /^[a-z][a-z0-9_]*$/;
const SHA256_HEX = /^[0-9a-f]{64}$/i;

const bad = badResponse;

const parseJson = (answer: RegistryAnswer): Record<string, unknown> => {
  let document: unknown;
  try {
    document = JSON.parse(answer.body);
  } catch (error) {
    throw bad(answer, 'the answer is not JSON', error);
  }
  if (!isRecord(document)) throw bad(answer, 'the answer is not an object');
  return document;
};

/** An ISO 8601 time as UTC (`…Z`), null when absent or unreadable. */
const utc = (value: unknown): string | null => {
  if (typeof value !== 'string' || !/^\d{4}-\d{2}-\d{2}T/.test(value)) return null;
  const time = new Date(value);
  return Number.isNaN(time.getTime()) ? null : time.toISOString();
};

/** A retirement's text: `reason: message` (hex.pm's reasons: other, invalid, security, deprecated, renamed). */
const retirementText = (retirement: unknown): string | null => {
  if (!isRecord(retirement)) return null;
  const reason = typeof retirement.reason === 'string' ? retirement.reason : 'retired';
  return typeof retirement.message === 'string' && retirement.message !== '' ? `${reason}: ${retirement.message}` : reason;
};

/** The link of `meta.links` whose key (any case) is one of `keys`. */
const linkOf = (links: unknown, keys: readonly string[]): string | null => {
  if (!isRecord(links)) return null;
  for (const [key, value] of Object.entries(links)) {
    if (keys.includes(key.toLowerCase()) && typeof value === 'string' && /^https?:\/\//.test(value)) return value;
  }
  return null;
};

/**
 * hex.pm, or a Hex-compatible server's HTTP API, as a {@link PackageRegistry}
 * (https://github.com/hexpm/specifications/blob/main/apiary.apib).
 *
 * `fetchPackage(name)` GETs `{baseUrl}packages/{name}`: every `releases[]` entry is a version with `inserted_at` as its
 * release time; a version in `retirements` (or with a `retirement`) is retired: `yanked` (still resolvable from a lock)
 * and `deprecated` with `reason: message` (never a target); no digests (the package answer has none); `latest` is
 * `latest_stable_version`, else `latest_version`; `sourceUrl` from `meta.links` (`GitHub`, `Source`, `Repository`,
 * `GitLab`), `changelogUrl` its `Changelog`. 404 → undefined.
 *
 * `describeVersion(name, version)` GETs `{baseUrl}packages/{name}/releases/{version}`: `requirements` (`{ app: { app,
 * optional, requirement } }`) become dependencies (`optional` ones of kind `optional`, named by their key, the Hex
 * package); one artifact `{name}-{version}.tar` under the repository URL with `checksum` (the outer checksum, SHA-256
 * hex of the tarball) as its `sha256`, and the attributes `inner_checksum` when the answer has one (hex.pm's API does
 * not; Hex-compatible servers such as the registry emulator add it) and `build_tools` (comma-separated).
 * @throws TypeError for a name Hex does not allow, or a base URL that is not http(s)
 */
export function createHexRegistry(options: HexRegistryOptions = {}): PackageRegistry {
  const { baseUrl = DEFAULT_HEX_URL, repoUrl: repoOption, ...httpOptions } = options;
  const http = createRegistryHttp({ ...httpOptions, baseUrl });
  const repoUrl = new URL(
    repoOption ?? (http.baseUrl.href === DEFAULT_HEX_URL ? DEFAULT_HEX_REPO_URL : new URL('../repo/', http.baseUrl).href),
  );
  const pathOf = (name: string) => {
    if (!NAME.test(name)) throw new TypeError(`not a Hex package name: '${name}'`);
    return `packages/${encodeURIComponent(name)}`;
  };

  return {
    packageManager: 'hex',
    baseUrl: http.baseUrl.href,
    fetchPackage: async (name, fetchOptions = {}): Promise<RegistryPackage | undefined> => {
      const answer = await http.get(pathOf(name), {
        accept: 'application/json',
        ...(fetchOptions.signal ? { signal: fetchOptions.signal } : {}),
      });
      if (answer.status !== 200) return undefined;
      const document = parseJson(answer);
      if (!Array.isArray(document.releases)) throw bad(answer, 'the package has no releases array');
      const retirements = isRecord(document.retirements) ? document.retirements : {};
      const versions = document.releases.map((release: unknown, index): RegistryVersion => {
        if (!isRecord(release) || typeof release.version !== 'string' || release.version === '')
          throw bad(answer, `releases[${index}] has no version`);
        const retired = retirementText(retirements[release.version] ?? release.retirement);
        return {
          version: release.version,
          releasedAt: utc(release.inserted_at),
          yanked: retired !== null,
          deprecated: retired,
          digests: [],
        };
      });
      const meta = isRecord(document.meta) ? document.meta : {};
      const source = linkOf(meta.links, ['github', 'source', 'repository', 'gitlab', 'bitbucket']);
      const latest = [document.latest_stable_version, document.latest_version].find((v) => typeof v === 'string' && v !== '');
      return {
        name: typeof document.name === 'string' ? document.name : name,
        versions,
        latest: typeof latest === 'string' ? latest : null,
        sourceUrl: source ? normaliseRepositoryUrl(source, { npmShorthands: false }) : null,
        changelogUrl: linkOf(meta.links, ['changelog', 'changes']),
      };
    },
    describeVersion: async (name, version, describeOptions = {}): Promise<RegistryVersionDetails | undefined> => {
      const answer = await http.get(`${pathOf(name)}/releases/${encodeURIComponent(version)}`, {
        accept: 'application/json',
        ...(describeOptions.signal ? { signal: describeOptions.signal } : {}),
      });
      if (answer.status !== 200) return undefined;
      const document = parseJson(answer);
      const { checksum, inner_checksum: inner, requirements } = document;
      if (typeof checksum !== 'string' || !SHA256_HEX.test(checksum)) throw bad(answer, 'the release has no SHA-256 checksum');
      if (requirements !== undefined && requirements !== null && !isRecord(requirements))
        throw bad(answer, 'requirements is not an object');
      const dependencies: RegistryDependency[] = Object.entries(requirements ?? {}).map(([dependency, value]) => {
        if (!isRecord(value) || typeof value.requirement !== 'string') throw bad(answer, `requirements.${dependency} has no requirement`);
        return { name: dependency, requirement: value.requirement, kind: value.optional === true ? 'optional' : 'runtime' };
      });
      const meta = isRecord(document.meta) ? document.meta : {};
      const buildTools = Array.isArray(meta.build_tools) ? meta.build_tools.filter((t): t is string => typeof t === 'string') : [];
      const filename = `${name}-${version}.tar`;
      return {
        name,
        version: typeof document.version === 'string' ? document.version : version,
        dependencies,
        artifacts: [
          {
            filename,
            url: new URL(`tarballs/${encodeURIComponent(filename)}`, repoUrl).href,
            digests: [{ algorithm: 'sha256', value: checksum.toLowerCase(), encoding: 'hex' }],
            attributes: {
              ...(typeof inner === 'string' && SHA256_HEX.test(inner) ? { inner_checksum: inner.toLowerCase() } : {}),
              ...(buildTools.length > 0 ? { build_tools: buildTools.join(',') } : {}),
            },
          },
        ],
      };
    },
    stats: () => http.stats(),
    close: () => http.close(),
  };
}
