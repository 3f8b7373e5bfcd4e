import { createRegistryHttp, type RegistryAdapterOptions, type RegistryAnswer, type RegistryHttp } from '../http/registry-http.ts';
import {
  type PackageRegistry,
  type RegistryDependency,
  RegistryError,
  type RegistryPackage,
  type RegistryRequestStats,
  type RegistryVersion,
  type RegistryVersionDetails,
} from '../port.ts';
import { badResponse, isRecord } from './answer.ts';
import { normaliseRepositoryUrl } from './source-url.ts';

/** crates.io's sparse index (Cargo's `sparse+https://index.crates.io/`). */
export const DEFAULT_CRATES_URL = 'https://index.crates.io/';

/** crates.io's web API (https://crates.io/data-access), asked for release times and the repository URL. */
export const DEFAULT_CRATES_API_URL = 'https://crates.io/api/v1/';

/** Options of {@link createCratesRegistry}: the common adapter options and the web API's base URL. */
export interface CratesRegistryOptions extends RegistryAdapterOptions {
  /**
   * The registry's web API base URL (`{api}/crates/{name}` answers crates.io's crate metadata), or null for none.
   * Default: {@link DEFAULT_CRATES_API_URL} when `baseUrl` is crates.io's index (or not given), none for any other index:
   * alternative registries' web APIs (https://doc.rust-lang.org/cargo/reference/registry-web-api.html) have no crate
   * metadata endpoint. The credentials, when given, are sent to this API's origin too.
   */
  apiUrl?: string | null;
}

/** Crate names an index can hold: ASCII alphanumerics, `-`, `_` (crates.io's rule; Cargo cuts the prefix on bytes). */
const CRATE_NAME = /^[A-Za-z0-9_-]+$/;
const SHA256_HEX = /^[0-9a-f]{64}$/i;

/**
 * The index path of a crate (https://doc.rust-lang.org/cargo/reference/registry-index.html#index-files), from the
 * lower-cased name: `1/{name}`, `2/{name}`, `3/{first char}/{name}` for names of one to three characters, otherwise
 * `{chars 1-2}/{chars 3-4}/{name}` (`Serde_JSON` → `se/rd/serde_json`). Crate names are case-insensitive.
 * @throws TypeError for a name an index cannot hold (empty, or anything but ASCII alphanumerics, `-` and `_`)
 */
export function crateIndexPath(name: string): string {
  if (!CRATE_NAME.test(name)) throw new TypeError(`not a crate name: '${name}'`);
  const lower = name.toLowerCase();
  const file = encodeURIComponent(lower);
  if (lower.length === 1) return `1/${file}`;
  if (lower.length === 2) return `2/${file}`;
  if (lower.length === 3) return `3/${encodeURIComponent(lower.slice(0, 1))}/${file}`;
  return `${encodeURIComponent(lower.slice(0, 2))}/${encodeURIComponent(lower.slice(2, 4))}/${file}`;
}

/** One line of an index file, as far as the adapter reads it. */
interface IndexEntry {
  name: string;
  vers: string;
  cksum: string;
  yanked: boolean;
  pubtime: string | null;
  /** The line's `deps`, read only when the version is described (undefined when the line has none). */
  deps: unknown;
}

/** What the web API says of a crate, as far as the adapter reads it. */
interface CrateMetadata {
  repository: string | null;
  defaultVersion: string | null;
  /** `num` → `created_at` (RFC 3339 UTC); empty when the versions were not asked. */
  createdAt: Map<string, string>;
}

const bad = badResponse;

/** An RFC 3339 timestamp as UTC (`…Z`), or undefined when it is not one. */
const utc = (value: string): string | undefined => {
  if (!/^\d{4}-\d{2}-\d{2}T/.test(value)) return undefined;
  const time = new Date(value);
  return Number.isNaN(time.getTime()) ? undefined : time.toISOString();
};

const parseIndexLine = (answer: RegistryAnswer, line: string, lineNumber: number): IndexEntry => {
  let entry: unknown;
  try {
    entry = JSON.parse(line);
  } catch (error) {
    throw bad(answer, `index line ${lineNumber} is not JSON`, error);
  }
  const where = `index line ${lineNumber}`;
  if (!isRecord(entry)) throw bad(answer, `${where} is not an object`);
  const { name, vers, cksum, yanked, pubtime } = entry;
  if (typeof name !== 'string' || name === '') throw bad(answer, `${where} has no name`);
  if (typeof vers !== 'string' || vers === '') throw bad(answer, `${where} has no vers`);
  if (typeof cksum !== 'string' || !SHA256_HEX.test(cksum)) throw bad(answer, `${where} (${vers}) has no SHA-256 cksum`);
  // Cargo reads a missing or null `yanked` as false (crates.io's own index type has it optional).
  if (yanked !== undefined && yanked !== null && typeof yanked !== 'boolean')
    throw bad(answer, `${where} (${vers}) has a non-boolean yanked`);
  let published: string | null = null;
  if (pubtime !== undefined && pubtime !== null) {
    const time = typeof pubtime === 'string' ? utc(pubtime) : undefined;
    if (time === undefined) throw bad(answer, `${where} (${vers}) has a pubtime that is not RFC 3339`);
    published = time;
  }
  return { name, vers, cksum, yanked: yanked === true, pubtime: published, deps: entry.deps };
};

/** Index files are JSON lines, one per published version; blank lines are skipped, like Cargo does. */
const parseIndexFile = (answer: RegistryAnswer, requested: string): IndexEntry[] => {
  const entries: IndexEntry[] = [];
  const lines = answer.body.split('\n');
  for (const [index, raw] of lines.entries()) {
    const line = raw.trim();
    if (line === '') continue;
    const entry = parseIndexLine(answer, line, index + 1);
    if (entry.name.toLowerCase() !== requested.toLowerCase()) {
      throw bad(answer, `index line ${index + 1} is for '${entry.name}', not '${requested}'`);
    }
    entries.push(entry);
  }
  return entries;
};

const parseCrateMetadata = (answer: RegistryAnswer): CrateMetadata => {
  let document: unknown;
  try {
    document = JSON.parse(answer.body);
  } catch (error) {
    throw bad(answer, 'crate metadata is not JSON', error);
  }
  if (!isRecord(document) || !isRecord(document.crate)) throw bad(answer, 'crate metadata has no crate object');
  const { repository, default_version: defaultVersion } = document.crate;
  if (repository !== undefined && repository !== null && typeof repository !== 'string')
    throw bad(answer, 'crate.repository is not a string');
  if (defaultVersion !== undefined && defaultVersion !== null && typeof defaultVersion !== 'string') {
    throw bad(answer, 'crate.default_version is not a string');
  }
  const createdAt = new Map<string, string>();
  const { versions } = document;
  if (versions !== undefined && versions !== null) {
    if (!Array.isArray(versions)) throw bad(answer, 'versions is not an array');
    for (const version of versions) {
      if (!isRecord(version) || typeof version.num !== 'string') throw bad(answer, 'a version has no num');
      const time = typeof version.created_at === 'string' ? utc(version.created_at) : undefined;
      if (time === undefined) throw bad(answer, `version ${version.num} has no RFC 3339 created_at`);
      createdAt.set(version.num, time);
    }
  }
  return {
    repository: typeof repository === 'string' && repository !== '' ? repository : null,
    defaultVersion: typeof defaultVersion === 'string' && defaultVersion !== '' ? defaultVersion : null,
    createdAt,
  };
};

/**
 * The `deps` of an index line as {@link RegistryDependency}s: `name` is the crate's real name (`package` of a renamed
 * dependency, else `name`), `req` the requirement, `kind` `normal` (the default) → `runtime`, `build` → `build`, `dev` →
 * `dev`, and any `optional: true` one → `optional`; `target` (a `cfg(...)` or a target triple) is the `condition`.
 */
function indexDependencies(answer: RegistryAnswer, entry: IndexEntry): RegistryDependency[] {
  const where = `${entry.name} ${entry.vers}`;
  if (entry.deps === undefined || entry.deps === null) return [];
  if (!Array.isArray(entry.deps)) throw bad(answer, `${where}: deps is not an array`);
  return entry.deps.map((dep: unknown, index): RegistryDependency => {
    if (!isRecord(dep)) throw bad(answer, `${where}: deps[${index}] is not an object`);
    const { name, req, kind, optional, target, package: renamed } = dep;
    if (typeof name !== 'string' || name === '') throw bad(answer, `${where}: deps[${index}] has no name`);
    if (typeof req !== 'string' || req === '') throw bad(answer, `${where}: deps[${index}] has no req`);
    if (kind !== undefined && kind !== null && kind !== 'normal' && kind !== 'build' && kind !== 'dev') {
      throw bad(answer, `${where}: deps[${index}] has an unknown kind`);
    }
    if (renamed !== undefined && renamed !== null && (typeof renamed !== 'string' || renamed === '')) {
      throw bad(answer, `${where}: deps[${index}] has a bad package`);
    }
    if (target !== undefined && target !== null && typeof target !== 'string')
      throw bad(answer, `${where}: deps[${index}] has a bad target`);
    const mapped: RegistryDependency['kind'] =
      kind === 'dev' ? 'dev' : optional === true ? 'optional' : kind === 'build' ? 'build' : 'runtime';
    return {
      name: typeof renamed === 'string' ? renamed : name,
      requirement: req,
      kind: mapped,
      ...(typeof target === 'string' && target !== '' ? { condition: target } : {}),
    };
  });
}

/**
 * The download URL of a crate from the index's `config.json` `dl`
 * (https://doc.rust-lang.org/cargo/reference/registry-index.html#index-configuration): its markers `{crate}`,
 * `{version}`, `{prefix}`, `{lowerprefix}` and `{sha256-checksum}` replaced, or `/{crate}/{version}/download` appended
 * when it has none. Credentials a template carries are dropped.
 */
export function crateDownloadUrl(dl: string, name: string, version: string, cksum: string): string {
  const markers = /\{(crate|version|prefix|lowerprefix|sha256-checksum)\}/g;
  crateIndexPath(name);
  const directory = (crate: string) =>
    crate.length <= 2 ? String(crate.length) : crate.length === 3 ? `3/${crate.slice(0, 1)}` : `${crate.slice(0, 2)}/${crate.slice(2, 4)}`;
  const values: Record<string, string> = {
    crate: encodeURIComponent(name),
    version: encodeURIComponent(version),
    prefix: directory(name),
    lowerprefix: directory(name.toLowerCase()),
    'sha256-checksum': cksum,
  };
  const filled = markers.test(dl)
    ? dl.replace(markers, (_, marker: string) => values[marker] ?? '')
    : `${dl.replace(/\/+$/, '')}/${values.crate}/${values.version}/download`;
  const url = new URL(filled);
  url.username = '';
  url.password = '';
  return url.href;
}

const sameUrl = (a: string, b: string) => new URL(a.endsWith('/') ? a : `${a}/`).href === new URL(b).href;

/**
 * The crates.io registry, or any Cargo registry with a sparse index
 * (https://doc.rust-lang.org/cargo/reference/registry-index.html#sparse-protocol), as a {@link PackageRegistry}.
 *
 * `fetchPackage(name)` GETs `{baseUrl}/{prefix}/{name}` ({@link crateIndexPath}: lower-cased, case-insensitive names):
 * JSON lines with `name`, `vers`, `cksum` (the `.crate` file's SHA-256, hex: what `Cargo.lock` writes as `checksum`),
 * `yanked` and, in the entries crates.io has added it to, `pubtime` (RFC 3339). When a web API is configured (crates.io's
 * by default, see {@link CratesRegistryOptions.apiUrl}), it then GETs `{apiUrl}/crates/{name}` (https://crates.io/data-access):
 * `?include=versions` when some entry lacks a `pubtime` (for `versions[].created_at`), else `?include=` (the crate
 * alone, which crates.io answers without loading every version), for `crate.repository` and `crate.default_version`.
 *
 * Mapping: every index line is a version, `releasedAt` is its `pubtime`, else the API's `created_at`, else null;
 * `yanked` as the index says; `deprecated` null (Cargo has no deprecation); one `sha256` hex digest; `latest` is the
 * API's `default_version` (the highest non-yanked stable version, as crates.io shows it), null without the API;
 * `sourceUrl` the API's `repository` made a browsable https URL; `changelogUrl` null (crates.io has none).
 * 404, 410 and 451 from the index (the statuses the protocol gives a missing crate) → undefined; a 404 from the API
 * leaves the index's answer unenriched. A blank index file is a crate with no versions.
 * `baseUrl` may carry Cargo's `sparse+` prefix (`sparse+https://index.crates.io/`).
 *
 * `describeVersion(name, version)` reads the version's line of the same index file: its `deps` (see
 * {@link indexDependencies}) and one artifact `{name}-{version}.crate` whose URL comes from `{baseUrl}/config.json`'s
 * `dl` template ({@link crateDownloadUrl}) and whose digest is the line's `cksum`. A crate or version the index does not
 * have is `undefined`; a `config.json` without an http(s) `dl` is `bad_response`.
 * @throws TypeError for a base or API URL that is not http(s)
 */
export function createCratesRegistry(options: CratesRegistryOptions = {}): PackageRegistry {
  const { apiUrl: apiOption, baseUrl = DEFAULT_CRATES_URL, ...httpOptions } = options;
  // Cargo configuration spells sparse indexes `sparse+https://…`.
  const index = createRegistryHttp({ ...httpOptions, baseUrl: baseUrl.replace(/^sparse\+/, '') });
  const apiUrl = apiOption === undefined ? (sameUrl(DEFAULT_CRATES_URL, index.baseUrl.href) ? DEFAULT_CRATES_API_URL : null) : apiOption;
  const api: RegistryHttp | undefined = apiUrl === null ? undefined : createRegistryHttp({ ...httpOptions, baseUrl: apiUrl });

  const getIndexFile = async (path: string, signal: AbortSignal | undefined): Promise<RegistryAnswer | undefined> => {
    try {
      const answer = await index.get(path, { accept: 'application/json, text/plain', ...(signal ? { signal } : {}) });
      return answer.status === 200 ? answer : undefined;
    } catch (error) {
      // 451 Unavailable For Legal Reasons: Cargo's third "no such crate" status.
      if (error instanceof RegistryError && error.status === 451) return undefined;
      throw error;
    }
  };

  return {
    packageManager: 'cargo',
    baseUrl: index.baseUrl.href,
    fetchPackage: async (name, fetchOptions = {}): Promise<RegistryPackage | undefined> => {
      const path = crateIndexPath(name);
      const answer = await getIndexFile(path, fetchOptions.signal);
      if (answer === undefined) return undefined;
      const entries = parseIndexFile(answer, name);
      const canonical = entries[0]?.name ?? name.toLowerCase();
      let metadata: CrateMetadata | undefined;
      if (api !== undefined && entries.length > 0) {
        const include = entries.every((entry) => entry.pubtime !== null) ? '' : 'versions';
        const metadataAnswer = await api.get(`crates/${encodeURIComponent(canonical)}?include=${include}`, {
          ...(fetchOptions.signal ? { signal: fetchOptions.signal } : {}),
        });
        if (metadataAnswer.status === 200) metadata = parseCrateMetadata(metadataAnswer);
      }
      const versions: RegistryVersion[] = entries.map((entry) => ({
        version: entry.vers,
        releasedAt: entry.pubtime ?? metadata?.createdAt.get(entry.vers) ?? null,
        yanked: entry.yanked,
        deprecated: null,
        digests: [{ algorithm: 'sha256', value: entry.cksum, encoding: 'hex' }],
      }));
      return {
        name: canonical,
        versions,
        latest: metadata?.defaultVersion ?? null,
        sourceUrl: metadata?.repository ? normaliseRepositoryUrl(metadata.repository, { npmShorthands: false }) : null,
        changelogUrl: null,
      };
    },
    describeVersion: async (name, version, describeOptions = {}): Promise<RegistryVersionDetails | undefined> => {
      const answer = await getIndexFile(crateIndexPath(name), describeOptions.signal);
      if (answer === undefined) return undefined;
      const entry = parseIndexFile(answer, name).find((line) => line.vers === version);
      if (entry === undefined) return undefined;
      const dependencies = indexDependencies(answer, entry);
      const config = await index.get('config.json', {
        accept: 'application/json',
        ...(describeOptions.signal ? { signal: describeOptions.signal } : {}),
      });
      let dl: unknown;
      try {
        dl = config.status === 200 ? (JSON.parse(config.body) as Record<string, unknown>)?.dl : undefined;
      } catch (error) {
        throw bad(config, 'config.json is not JSON', error);
      }
      if (typeof dl !== 'string' || !/^https?:\/\//.test(dl)) throw bad(config, 'config.json has no http(s) dl');
      return {
        name: entry.name,
        version: entry.vers,
        dependencies,
        artifacts: [
          {
            filename: `${entry.name}-${entry.vers}.crate`,
            url: crateDownloadUrl(dl, entry.name, entry.vers, entry.cksum.toLowerCase()),
            digests: [{ algorithm: 'sha256', value: entry.cksum.toLowerCase(), encoding: 'hex' }],
          },
        ],
      };
    },
    stats: (): RegistryRequestStats => {
      const own = index.stats();
      const other = api?.stats() ?? { requests: 0, notModified: 0, fullDownloads: 0 };
      return {
        requests: own.requests + other.requests,
        notModified: own.notModified + other.notModified,
        fullDownloads: own.fullDownloads + other.fullDownloads,
      };
    },
    close: async () => {
      await Promise.all([index.close(), api?.close()]);
    },
  };
}
