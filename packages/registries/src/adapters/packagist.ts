import { createRegistryHttp, type RegistryAdapterOptions, type RegistryAnswer } from '../http/registry-http.ts';
import type {
  ArtifactDigest,
  PackageRegistry,
  RegistryArtifact,
  RegistryDependency,
  RegistryPackage,
  RegistryVersion,
  RegistryVersionDetails,
} from '../port.ts';
import { badResponse, isRecord } from './answer.ts';
import { normaliseRepositoryUrl } from './source-url.ts';

/** Packagist's Composer repository (the `repo.packagist.org` host that serves `p2/` metadata). */
export const DEFAULT_PACKAGIST_URL = 'https://repo.packagist.org/';

/** A package name segment as Composer repositories hold them: lower-case alphanumerics, `_`, `.`, `-`. */
const SEGMENT = /^[a-z0-9_.-]+$/;
const SHA1_HEX = /^[0-9a-f]{40}$/i;
/** The value the minifier writes for a key the previous version had and this one has not. */
const UNSET = '__unset';

/**
 * The p2 metadata path of a Composer package (https://packagist.org/apidoc#get-package-metadata-v2):
 * `p2/{vendor}/{package}.json`, lower-cased (Composer package names are case-insensitive and repositories serve them in
 * lower case), each segment URL-encoded.
 * @throws TypeError for a name that is not `vendor/package` (one `/`, segments of `a-z0-9_.-`, neither `.` nor `..`)
 */
export function packagistMetadataPath(name: string): string {
  const lower = name.toLowerCase();
  const segments = lower.split('/');
  if (segments.length !== 2 || segments.some((segment) => !SEGMENT.test(segment) || segment === '.' || segment === '..')) {
    throw new TypeError(`not a Composer package name (vendor/package): '${name}'`);
  }
  return `p2/${segments.map(encodeURIComponent).join('/')}.json`;
}

/**
 * Expands a minified p2 version list (`"minified": "composer/2.0"`) back to full versions, as
 * composer/metadata-minifier's `MetadataMinifier::expand` does: the first version is complete; each later one lists only
 * the keys that changed from the version before it (whole values, not merged), and `"__unset"` for a key it drops.
 * The input is not modified.
 */
export function expandComposerMetadata(versions: readonly Record<string, unknown>[]): Record<string, unknown>[] {
  const expanded: Record<string, unknown>[] = [];
  let current: Record<string, unknown> | undefined;
  for (const version of versions) {
    if (current === undefined) {
      current = { ...version };
    } else {
      current = { ...current };
      for (const [key, value] of Object.entries(version)) {
        if (value === UNSET) delete current[key];
        else current[key] = value;
      }
    }
    expanded.push(current);
  }
  return expanded;
}

const bad = badResponse;

/**
 * A version's `time` as RFC 3339 UTC. Packagist writes ISO 8601 with an offset (`2019-08-06T09:24:58+00:00`); older
 * repositories write `2018-09-03 21:31:30`, which Composer reads as UTC.
 */
const releaseTime = (value: string): string | undefined => {
  const text = /^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/.test(value) ? `${value.replace(' ', 'T')}Z` : value;
  if (!/^\d{4}-\d{2}-\d{2}T/.test(text)) return undefined;
  const time = new Date(text);
  return Number.isNaN(time.getTime()) ? undefined : time.toISOString();
};

const optionalString = (answer: RegistryAnswer, value: unknown, what: string): string | undefined => {
  if (value === undefined || value === null) return undefined;
  if (typeof value !== 'string') throw bad(answer, `${what} is not a string`);
  return value;
};

const optionalObject = (answer: RegistryAnswer, value: unknown, what: string): Record<string, unknown> | undefined => {
  if (value === undefined || value === null) return undefined;
  if (!isRecord(value)) throw bad(answer, `${what} is not an object`);
  return value;
};

/** `abandoned`: `true`, or the replacement package's name (Packagist writes it on every version of the package). */
const abandonment = (answer: RegistryAnswer, value: unknown, version: string): string | null => {
  if (value === undefined || value === null || value === false) return null;
  if (value === true || value === '') return 'abandoned';
  if (typeof value === 'string') return `abandoned, use ${value} instead`;
  throw bad(answer, `${version}: abandoned is neither a boolean nor a package name`);
};

/** The `sha1` digest of a non-empty `dist.shasum` (GitHub zipballs have an empty one), none otherwise. */
const distDigests = (answer: RegistryAnswer, version: string, dist: Record<string, unknown> | undefined): ArtifactDigest[] => {
  const shasum = optionalString(answer, dist?.shasum, `${version}: dist.shasum`);
  if (shasum === undefined || shasum === '') return [];
  if (!SHA1_HEX.test(shasum)) throw bad(answer, `${version}: dist.shasum is not a SHA-1`);
  return [{ algorithm: 'sha1', value: shasum, encoding: 'hex' }];
};

const toVersion = (answer: RegistryAnswer, data: Record<string, unknown>): RegistryVersion => {
  const { version } = data;
  if (typeof version !== 'string' || version === '') throw bad(answer, 'a version has no version string');
  const time = optionalString(answer, data.time, `${version}: time`);
  let releasedAt: string | null = null;
  if (time !== undefined && time !== '') {
    const parsed = releaseTime(time);
    if (parsed === undefined) throw bad(answer, `${version}: time '${time}' is not a date`);
    releasedAt = parsed;
  }
  // GitHub zipballs are built on demand: Packagist gives an empty shasum for them, and composer.lock keeps it empty.
  const digests = distDigests(answer, version, optionalObject(answer, data.dist, `${version}: dist`));
  return { version, releasedAt, yanked: false, deprecated: abandonment(answer, data.abandoned, version), digests };
};

/**
 * Platform packages Composer provides itself rather than installs (https://getcomposer.org/doc/01-basic-usage.md#platform-packages):
 * `php` (and its `-64bit`, `-ipv6`, `-zts`, `-debug` variants), `hhvm`, `ext-*`, `lib-*`, `composer`, `composer-plugin-api`,
 * `composer-runtime-api`.
 */
const PLATFORM = /^(php(-64bit|-ipv6|-zts|-debug)?|hhvm|ext-.+|lib-.+|composer(-plugin-api|-runtime-api)?)$/i;

/**
 * One expanded p2 entry as {@link RegistryVersionDetails}: `require` minus platform packages as `runtime` dependencies
 * (`suggest`, `require-dev` are not installed with the package), the `dist` as the one artifact (file name the last
 * segment of its URL; digest {@link distDigests}; attributes `type` and `reference` of the dist, `source-reference` of
 * `source.reference`, `time` as the entry writes it — what composer.lock copies).
 */
const toDetails = (answer: RegistryAnswer, name: string, data: Record<string, unknown>): RegistryVersionDetails => {
  const version = String(data.version);
  const require = optionalObject(answer, data.require, `${version}: require`) ?? {};
  const dependencies: RegistryDependency[] = [];
  for (const [dependency, requirement] of Object.entries(require)) {
    if (typeof requirement !== 'string') throw bad(answer, `${version}: require.${dependency} is not a string`);
    if (!PLATFORM.test(dependency)) dependencies.push({ name: dependency, requirement: requirement.trim() || '*', kind: 'runtime' });
  }
  const artifacts: RegistryArtifact[] = [];
  const dist = optionalObject(answer, data.dist, `${version}: dist`);
  const url = optionalString(answer, dist?.url, `${version}: dist.url`);
  if (dist !== undefined && url !== undefined && url !== '') {
    const attributes: Record<string, string> = {};
    const type = optionalString(answer, dist.type, `${version}: dist.type`);
    const reference = optionalString(answer, dist.reference, `${version}: dist.reference`);
    const source = optionalObject(answer, data.source, `${version}: source`);
    const sourceReference = optionalString(answer, source?.reference, `${version}: source.reference`);
    const time = optionalString(answer, data.time, `${version}: time`);
    if (type !== undefined) attributes.type = type;
    if (reference !== undefined) attributes.reference = reference;
    if (sourceReference !== undefined) attributes['source-reference'] = sourceReference;
    if (time !== undefined && time !== '') attributes.time = time;
    const filename = decodeURIComponent(new URL(url, answer.url).pathname.split('/').pop() ?? '') || `${version}.${type ?? 'zip'}`;
    artifacts.push({ filename, url, digests: distDigests(answer, version, dist), attributes });
  }
  return { name, version, dependencies, artifacts };
};

/** The package's repository: the newest version's `source.url`, else its `support.source` (a tree URL: its repository). */
const sourceOf = (answer: RegistryAnswer, newest: Record<string, unknown> | undefined): string | null => {
  if (newest === undefined) return null;
  const source = optionalObject(answer, newest.source, 'source');
  const url = optionalString(answer, source?.url, 'source.url');
  const fromSource = url ? normaliseRepositoryUrl(url, { npmShorthands: false }) : null;
  if (fromSource !== null) return fromSource;
  const support = optionalObject(answer, newest.support, 'support');
  const supportSource = optionalString(answer, support?.source, 'support.source');
  return supportSource ? normaliseRepositoryUrl(supportSource, { npmShorthands: false }) : null;
};

/**
 * Packagist (or any Composer repository serving Composer 2's p2 metadata: Private Packagist, Satis, Repman…) as a
 * {@link PackageRegistry}. https://packagist.org/apidoc#get-package-metadata-v2
 *
 * `fetchPackage('vendor/package')` GETs `{baseUrl}/p2/{vendor}/{package}.json` ({@link packagistMetadataPath}):
 * `{ "packages": { "vendor/package": [ version, … ] }, "minified": "composer/2.0" }`, newest version first, expanded with
 * {@link expandComposerMetadata} when minified. Only tagged releases: the branches of `{package}~dev.json` (`dev-main`,
 * `2.x-dev`) are not versions in Composer's version scheme, never an update target, and would double the requests.
 *
 * Mapping: each entry's `version` as spelled (`v2.5.4`); `releasedAt` its `time` (null when absent); `yanked` false
 * (Composer repositories cannot yank; a deleted tag disappears); `deprecated` from `abandoned` (`abandoned`, or
 * `abandoned, use {replacement} instead`); a `sha1` hex digest from a non-empty `dist.shasum`, as given (composer.lock
 * copies it verbatim); `latest` null (p2 marks none); `sourceUrl` the newest version's `source.url` (else `support.source`) made a
 * browsable https URL; `changelogUrl` null (p2 has none). 404 and 410 → undefined.
 *
 * `describeVersion(name, version)` reads the same document and maps the entry whose `version` is `version` as spelled
 * (`v2.5.4`) with {@link toDetails}: `require` minus platform packages, the `dist` with its `sha1` and references;
 * undefined when the package or the version is unknown (branches are not served).
 * @throws TypeError for a base URL that is not http(s)
 */
export function createPackagistRegistry(options: RegistryAdapterOptions = {}): PackageRegistry {
  const { baseUrl = DEFAULT_PACKAGIST_URL, ...httpOptions } = options;
  const http = createRegistryHttp({ ...httpOptions, baseUrl });

  /** The expanded p2 entries of `name`, newest first, and the package name as the repository spells it; undefined on 404/410. */
  const metadata = async (name: string, signal: AbortSignal | undefined) => {
    const path = packagistMetadataPath(name);
    const answer = await http.get(path, signal ? { signal } : {});
    if (answer.status !== 200) return undefined;
    let document: unknown;
    try {
      document = JSON.parse(answer.body);
    } catch (error) {
      throw bad(answer, 'p2 metadata is not JSON', error);
    }
    if (!isRecord(document) || !isRecord(document.packages)) throw bad(answer, 'p2 metadata has no packages object');
    const wanted = name.toLowerCase();
    const key = Object.keys(document.packages).find((candidate) => candidate.toLowerCase() === wanted);
    const list = key === undefined ? undefined : document.packages[key];
    if (key === undefined || !Array.isArray(list)) throw bad(answer, `p2 metadata has no version list for ${wanted}`);
    if (!list.every(isRecord)) throw bad(answer, `p2 metadata for ${wanted} has a version that is not an object`);
    const versions = document.minified === 'composer/2.0' ? expandComposerMetadata(list) : list;
    return { answer, key, versions };
  };

  return {
    packageManager: 'composer',
    baseUrl: http.baseUrl.href,
    fetchPackage: async (name, fetchOptions = {}): Promise<RegistryPackage | undefined> => {
      const found = await metadata(name, fetchOptions.signal);
      if (found === undefined) return undefined;
      const { answer, key, versions } = found;
      return {
        name: key,
        versions: versions.map((version) => toVersion(answer, version)),
        latest: null,
        sourceUrl: sourceOf(answer, versions[0]),
        changelogUrl: null,
      };
    },
    describeVersion: async (name, version, fetchOptions = {}): Promise<RegistryVersionDetails | undefined> => {
      const found = await metadata(name, fetchOptions.signal);
      const entry = found?.versions.find((candidate) => candidate.version === version);
      return found && entry ? toDetails(found.answer, found.key, entry) : undefined;
    },
    stats: () => http.stats(),
    close: () => http.close(),
  };
}
