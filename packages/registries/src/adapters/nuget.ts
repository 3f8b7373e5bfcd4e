import { normaliseNuGetVersion, nugetVersions } from '@switchyard/ecosystems';
import { createRegistryHttp, type RegistryAdapterOptions, type RegistryAnswer } from '../http/registry-http.ts';
import {
  type ArtifactDigest,
  type PackageRegistry,
  type RegistryDependency,
  RegistryError,
  type RegistryPackage,
  type RegistryVersion,
  type RegistryVersionDetails,
} from '../port.ts';
import { isRecord } from './answer.ts';
import { normaliseRepositoryUrl } from './source-url.ts';

/** nuget.org's service index (https://learn.microsoft.com/nuget/api/service-index). */
export const DEFAULT_NUGET_URL = 'https://api.nuget.org/v3/index.json';

/** A NuGet package id: letters, digits, `.`, `_`, `-`, at most 100 characters (NuGet's `PackageIdValidator`). */
const PACKAGE_ID = /^[A-Za-z0-9_](?:[A-Za-z0-9_.-]{0,99})$/;

/** The registration resource types, best first: 3.6.0 includes SemVer 2.0.0 packages, the others only SemVer 1 ones. */
const REGISTRATION_TYPES = [
  'RegistrationsBaseUrl/3.6.0',
  'RegistrationsBaseUrl/3.4.0',
  'RegistrationsBaseUrl/Versioned',
  'RegistrationsBaseUrl/3.0.0-rc',
  'RegistrationsBaseUrl/3.0.0-beta',
  'RegistrationsBaseUrl',
];
const PACKAGE_BASE_ADDRESS = 'PackageBaseAddress/3.0.0';

/** Registration pages read at most (nuget.org pages hold 64 versions each). */
const MAX_PAGES = 64;

const JSON_ACCEPT = 'application/json';

const bad = (answer: RegistryAnswer | { url: string }, message: string, cause?: unknown) =>
  new RegistryError('bad_response', answer.url, `${answer.url}: ${message}`, cause === undefined ? {} : { cause });

function parseJson(answer: RegistryAnswer): Record<string, unknown> {
  let value: unknown;
  try {
    value = JSON.parse(answer.body);
  } catch (error) {
    throw bad(answer, 'not JSON', error);
  }
  if (!isRecord(value)) throw bad(answer, 'not a JSON object');
  return value;
}

/** The lower-cased id, or TypeError for a name that is not a NuGet id. */
function packageId(name: string): string {
  if (!PACKAGE_ID.test(name)) throw new TypeError(`not a NuGet package id: ${JSON.stringify(name)}`);
  return name.toLowerCase();
}

/**
 * NuGet's normalised version (ecosystems' `normaliseNuGetVersion`: `1.0` → `1.0.0`, build metadata dropped), lower-cased
 * as the flat container and registration keys write it; a string that is not a NuGet version is given back trimmed and
 * lower-cased.
 */
export function nugetVersionKey(version: string): string {
  return (normaliseNuGetVersion(version) ?? version.trim()).toLowerCase();
}

/** A registration leaf's catalog entry, as far as the adapter reads it. */
interface CatalogEntry {
  id: string;
  version: string;
  listed: boolean;
  published: string | null;
  deprecated: string | null;
  projectUrl: string | null;
  packageContent: string | null;
  /** The catalog leaf's URL (`@id`), where `packageHash` is. */
  catalogUrl: string | null;
  dependencies: RegistryDependency[];
  digests: ArtifactDigest[];
}

/** An RFC 3339 time as UTC, null for none or NuGet's "unlisted" placeholder year 1900. */
function publishedAt(value: unknown): string | null {
  if (typeof value !== 'string') return null;
  const time = new Date(value);
  if (Number.isNaN(time.getTime()) || time.getUTCFullYear() <= 1900) return null;
  return time.toISOString();
}

/** `deprecated (reasons): message; use alternate` from a `deprecation` object, or null. */
function deprecationOf(value: unknown): string | null {
  if (!isRecord(value)) return null;
  const reasons = Array.isArray(value.reasons) ? value.reasons.filter((r): r is string => typeof r === 'string') : [];
  const message = typeof value.message === 'string' && value.message.trim() !== '' ? value.message.trim() : null;
  const alternate = isRecord(value.alternatePackage) && typeof value.alternatePackage.id === 'string' ? value.alternatePackage : null;
  const range = alternate && typeof alternate.range === 'string' && alternate.range !== '*' ? ` ${alternate.range}` : '';
  const parts = [message ?? `deprecated${reasons.length ? ` (${reasons.join(', ')})` : ''}`];
  if (alternate) parts.push(`use ${alternate.id}${range}`);
  return parts.join('; ');
}

/** A SHA-512 `packageHash` (base64) as a hex digest; none when absent or of another algorithm. */
function packageHashOf(entry: Record<string, unknown>): ArtifactDigest[] {
  const hash = entry.packageHash;
  const algorithm = typeof entry.packageHashAlgorithm === 'string' ? entry.packageHashAlgorithm.toUpperCase() : 'SHA512';
  if (typeof hash !== 'string' || algorithm !== 'SHA512') return [];
  const bytes = Buffer.from(hash, 'base64');
  return bytes.length === 64 ? [{ algorithm: 'sha512', value: bytes.toString('hex'), encoding: 'hex' }] : [];
}

/** The dependencies of all `dependencyGroups`, each with its group's target framework as the condition. */
function dependenciesOf(answer: RegistryAnswer, entry: Record<string, unknown>): RegistryDependency[] {
  const groups = entry.dependencyGroups ?? [];
  if (!Array.isArray(groups)) throw bad(answer, 'dependencyGroups is not an array');
  return groups.flatMap((group) => {
    if (!isRecord(group)) throw bad(answer, 'a dependency group is not an object');
    const framework = typeof group.targetFramework === 'string' && group.targetFramework !== '' ? group.targetFramework : undefined;
    const dependencies = group.dependencies ?? [];
    if (!Array.isArray(dependencies)) throw bad(answer, 'a group dependencies is not an array');
    return dependencies.map((dependency): RegistryDependency => {
      if (!isRecord(dependency) || typeof dependency.id !== 'string') throw bad(answer, 'a dependency has no id');
      const range = typeof dependency.range === 'string' && dependency.range.trim() !== '' ? dependency.range.trim() : '*';
      return { name: dependency.id, requirement: range, kind: 'runtime', ...(framework ? { condition: framework } : {}) };
    });
  });
}

/** Reads one registration leaf (`{ catalogEntry, packageContent }`). */
function leafOf(answer: RegistryAnswer, leaf: unknown): CatalogEntry {
  if (!isRecord(leaf) || !isRecord(leaf.catalogEntry)) throw bad(answer, 'a registration leaf has no catalogEntry object');
  const entry = leaf.catalogEntry;
  if (typeof entry.id !== 'string' || typeof entry.version !== 'string') throw bad(answer, 'a catalogEntry has no id or version');
  const content = typeof leaf.packageContent === 'string' ? leaf.packageContent : entry.packageContent;
  return {
    id: entry.id,
    version: entry.version,
    listed: entry.listed !== false && !(typeof entry.published === 'string' && entry.published.startsWith('1900-')),
    published: publishedAt(entry.published),
    deprecated: deprecationOf(entry.deprecation),
    projectUrl: typeof entry.projectUrl === 'string' ? entry.projectUrl : null,
    packageContent: typeof content === 'string' ? content : null,
    catalogUrl: typeof entry['@id'] === 'string' ? entry['@id'] : null,
    dependencies: dependenciesOf(answer, entry),
    digests: packageHashOf(entry),
  };
}

/**
 * A NuGet v3 feed (nuget.org by default, or any v3 feed: Azure Artifacts, GitHub Packages, Artifactory, BaGet) as a
 * {@link PackageRegistry}, after https://learn.microsoft.com/nuget/api/overview. The base URL is the feed's service index
 * (`…/v3/index.json`, https://learn.microsoft.com/nuget/api/service-index); its `resources` give:
 * - `PackageBaseAddress/3.0.0` (required; https://learn.microsoft.com/nuget/api/package-base-address-resource):
 *   `{base}/{id-lower}/index.json` lists every version (listed or not); a 404 there is an unknown package;
 * - the registration resource (`RegistrationsBaseUrl/3.6.0`, else the older types;
 *   https://learn.microsoft.com/nuget/api/registration-base-url-resource; one that answers with a `Content-Encoding`, as
 *   nuget.org's gzipped hives do, is skipped for the next): `{base}/{id-lower}/index.json`, whose pages
 *   are read inline or fetched by their `@id` (at most 64). Each leaf's `catalogEntry` gives `published` (`releasedAt`;
 *   1900-01-01 is NuGet's mark of an unlisted version, read as null), `listed: false` (`yanked`: hidden, still
 *   restorable), `deprecation` (`deprecated`: its message or reasons, and the alternate package), `projectUrl` (the
 *   latest version's, as `sourceUrl` when it is a repository URL) and `packageHash` when a feed inlines it. The latest
 *   version's SHA-512 comes from its catalog leaf (the `catalogEntry`'s `@id`, one request, then remembered); other
 *   versions carry the digests already known.
 *
 * `latest` is the highest listed version without a pre-release label, else null. `changelogUrl` is null (NuGet has no
 * such field). Versions come as the flat container writes them (normalised, lower-cased), taking the registration's
 * spelling when it has the version; entries that are not NuGet versions (`1.0a`) are skipped. The service index is read once per adapter (then revalidated by the HTTP cache).
 *
 * `describeVersion(name, version)` reads the version's registration leaf: `dependencyGroups` (each dependency `runtime`,
 * its group's target framework as `condition`), one artifact `{id}.{version}.nupkg` (the leaf's `packageContent`, else
 * the flat container's URL) whose digest is the catalog leaf's `packageHash` (SHA-512, given hex), read from the leaf's
 * catalog `@id`; no digest when the feed has no catalog leaf.
 * @throws TypeError for a name that is not a NuGet id, or a base URL that is not http(s)
 */
export function createNuGetRegistry(options: RegistryAdapterOptions = {}): PackageRegistry {
  const http = createRegistryHttp({ ...options, baseUrl: options.baseUrl ?? DEFAULT_NUGET_URL });
  // The service index is the base URL itself, not a directory: ask for it without the trailing slash.
  const indexUrl = (options.baseUrl ?? DEFAULT_NUGET_URL).replace(/\/+$/, '');
  let resources: Promise<{ flat: string; registrations: string[] }> | undefined;
  /** Registration bases found to answer with a content encoding (nuget.org's `-gz-` hives), skipped from then on. */
  const encoded = new Set<string>();
  /** `packageHash` digests by catalog leaf URL (a published package never changes), at most 4096. */
  const hashes = new Map<string, ArtifactDigest[]>();

  const signalOf = (signal: AbortSignal | undefined) => (signal ? { signal } : {});
  const getJson = async (url: string, signal: AbortSignal | undefined) => {
    const answer = await http.get(url, { accept: JSON_ACCEPT, ...signalOf(signal) });
    return answer.status === 200 ? { answer, json: parseJson(answer) } : undefined;
  };

  const serviceIndex = (signal: AbortSignal | undefined) => {
    if (resources) return resources;
    resources = (async () => {
      const found = await getJson(indexUrl, signal);
      if (!found) throw new RegistryError('bad_response', indexUrl, `${indexUrl}: no NuGet service index there`);
      const { answer, json } = found;
      if (!Array.isArray(json.resources)) throw bad(answer, 'the service index has no resources array');
      const byType = new Map<string, string>();
      for (const resource of json.resources) {
        if (!isRecord(resource) || typeof resource['@id'] !== 'string') continue;
        const types = Array.isArray(resource['@type']) ? resource['@type'] : [resource['@type']];
        for (const type of types) if (typeof type === 'string' && !byType.has(type)) byType.set(type, resource['@id']);
      }
      const flat = byType.get(PACKAGE_BASE_ADDRESS);
      if (!flat) throw bad(answer, `the service index has no ${PACKAGE_BASE_ADDRESS} resource`);
      const directory = (url: string) => (url.endsWith('/') ? url : `${url}/`);
      const registrations = REGISTRATION_TYPES.flatMap((type) => {
        const url = byType.get(type);
        return url === undefined ? [] : [directory(url)];
      });
      return { flat: directory(flat), registrations: [...new Set(registrations)] };
    })();
    // A failed read is forgotten, so that a later call asks again.
    resources.catch(() => {
      resources = undefined;
    });
    return resources;
  };

  /** Every leaf of the registration index of `id` (lower-cased), or undefined when the feed has none for it. */
  const registrationLeaves = async (id: string, signal: AbortSignal | undefined) => {
    const { registrations } = await serviceIndex(signal);
    let found: { answer: RegistryAnswer; json: Record<string, unknown> } | undefined;
    for (const base of registrations.filter((url) => !encoded.has(url))) {
      const answer = await http.get(`${base}${encodeURIComponent(id)}/index.json`, { accept: JSON_ACCEPT, ...signalOf(signal) });
      // A compressed hive (nuget.org serves `registration5-gz-semver2` gzipped whatever the request asks) cannot be read
      // as text: the next registration resource is asked instead.
      const encoding = answer.headers['content-encoding'];
      if (encoding !== undefined && encoding !== 'identity') {
        encoded.add(base);
        continue;
      }
      if (answer.status === 200) found = { answer, json: parseJson(answer) };
      break;
    }
    if (!found) return undefined;
    const { answer, json } = found;
    if (!Array.isArray(json.items)) throw bad(answer, 'the registration index has no items array');
    const leaves: CatalogEntry[] = [];
    for (const [index, page] of json.items.entries()) {
      if (index >= MAX_PAGES) break;
      if (!isRecord(page)) throw bad(answer, 'a registration page is not an object');
      let pageAnswer = answer;
      let items = page.items;
      if (items === undefined) {
        if (typeof page['@id'] !== 'string') throw bad(answer, 'a registration page has neither items nor @id');
        const fetched = await getJson(page['@id'], signal);
        if (!fetched) throw bad(answer, `registration page ${page['@id']} is missing`);
        pageAnswer = fetched.answer;
        items = fetched.json.items;
      }
      if (!Array.isArray(items)) throw bad(pageAnswer, 'a registration page has no items array');
      for (const leaf of items) leaves.push(leafOf(pageAnswer, leaf));
    }
    return leaves;
  };

  /** The leaf's digests: inline, else its catalog leaf's `packageHash` (remembered), else none. */
  const digestsOf = async (leaf: CatalogEntry, signal: AbortSignal | undefined): Promise<ArtifactDigest[]> => {
    if (leaf.digests.length > 0 || leaf.catalogUrl === null || !/^https?:\/\//.test(leaf.catalogUrl)) return leaf.digests;
    const known = hashes.get(leaf.catalogUrl);
    if (known) return known;
    const catalog = await getJson(leaf.catalogUrl, signal);
    const digests = catalog ? packageHashOf(catalog.json) : [];
    if (catalog) {
      if (hashes.size >= 4096) hashes.delete(hashes.keys().next().value as string);
      hashes.set(leaf.catalogUrl, digests);
    }
    return digests;
  };

  return {
    packageManager: 'nuget',
    baseUrl: indexUrl,
    async fetchPackage(name, fetchOptions = {}): Promise<RegistryPackage | undefined> {
      const id = packageId(name);
      const { signal } = fetchOptions;
      const { flat } = await serviceIndex(signal);
      const listing = await getJson(`${flat}${encodeURIComponent(id)}/index.json`, signal);
      if (!listing) return undefined;
      const { answer, json } = listing;
      if (!Array.isArray(json.versions) || !json.versions.every((v) => typeof v === 'string')) {
        throw bad(answer, 'the flat container index has no versions array of strings');
      }
      const leaves = (await registrationLeaves(id, signal)) ?? [];
      const byKey = new Map(leaves.map((leaf) => [nugetVersionKey(leaf.version), leaf]));
      // Versions that are not NuGet versions are skipped (NuGet's client cannot restore them either).
      const keys = [...new Set([...(json.versions as string[]).map(nugetVersionKey), ...byKey.keys()])].filter(nugetVersions.isValid);
      const versions: RegistryVersion[] = keys.map((key) => {
        const leaf = byKey.get(key);
        return {
          version: leaf?.version ?? key,
          releasedAt: leaf?.published ?? null,
          yanked: leaf ? !leaf.listed : false,
          deprecated: leaf?.deprecated ?? null,
          digests: leaf?.digests ?? [],
        };
      });
      const stable = versions.filter((v) => !v.yanked && !nugetVersions.isPrerelease(v.version));
      const latest = stable.sort((a, b) => nugetVersions.compare(b.version, a.version))[0]?.version ?? null;
      const latestLeaf = latest === null ? leaves.at(-1) : (byKey.get(nugetVersionKey(latest)) ?? leaves.at(-1));
      // The latest version's digest from its catalog leaf (one request, then remembered); other versions' when known.
      const latestVersion = latestLeaf && versions.find((v) => nugetVersionKey(v.version) === nugetVersionKey(latestLeaf.version));
      if (latestLeaf && latestVersion) latestVersion.digests = await digestsOf(latestLeaf, signal);
      for (const v of versions) {
        const url = byKey.get(nugetVersionKey(v.version))?.catalogUrl;
        if (v.digests.length === 0 && url) v.digests = hashes.get(url) ?? [];
      }
      return {
        name: leaves[0]?.id ?? name,
        versions,
        latest,
        sourceUrl: normaliseRepositoryUrl(latestLeaf?.projectUrl ?? null, { npmShorthands: false }),
        changelogUrl: null,
      };
    },
    async describeVersion(name, version, describeOptions = {}): Promise<RegistryVersionDetails | undefined> {
      const id = packageId(name);
      const { signal } = describeOptions;
      const key = nugetVersionKey(version);
      const leaf = (await registrationLeaves(id, signal))?.find((l) => nugetVersionKey(l.version) === key);
      if (!leaf) return undefined;
      const { flat } = await serviceIndex(signal);
      const digests = await digestsOf(leaf, signal);
      const file = `${id}.${key}.nupkg`;
      return {
        name: leaf.id,
        version: leaf.version,
        dependencies: leaf.dependencies,
        artifacts: [
          {
            filename: file,
            url: leaf.packageContent ?? `${flat}${encodeURIComponent(id)}/${encodeURIComponent(key)}/${encodeURIComponent(file)}`,
            digests,
          },
        ],
      };
    },
    stats: () => http.stats(),
    close: () => http.close(),
  };
}
