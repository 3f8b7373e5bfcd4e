import { XMLParser, XMLValidator } from 'fast-xml-parser';
import { createRegistryHttp, type RegistryAdapterOptions, type RegistryAnswer } from '../http/registry-http.ts';
import { type ArtifactDigest, type PackageRegistry, RegistryError, type RegistryPackage, type RegistryVersion } from '../port.ts';
import { isRecord } from './answer.ts';
import { normaliseRepositoryUrl } from './source-url.ts';

/** Maven Central's canonical repository URL (`https://repo.maven.apache.org/maven2/`). */
export const DEFAULT_MAVEN_URL = 'https://repo.maven.apache.org/maven2/';

/** How many of a package's newest versions get their POM and checksum read, unless {@link MavenRegistryOptions} says otherwise. */
export const DEFAULT_MAVEN_DETAILED_VERSIONS = 3;

/** Options of {@link createMavenRegistry}: those of every adapter, and the bound on per-version requests. */
export interface MavenRegistryOptions extends RegistryAdapterOptions {
  /**
   * How many versions get their details (release time, checksum, relocation, SCM URL) read: the last `detailedVersions`
   * entries of `<versions>` (Maven appends on deploy, so these are the most recently deployed) plus `<release>` and
   * `<latest>`. Each costs two requests (`.pom`, `.<ext>.sha1`) the first time and none afterwards (released artifacts
   * are immutable, their details are remembered). Default {@link DEFAULT_MAVEN_DETAILED_VERSIONS}; 0 reads no POM.
   */
  detailedVersions?: number;
  /**
   * The package manager the adapter answers for (its {@link PackageRegistry.packageManager}): `maven` (default), or
   * `gradle`, whose builds resolve against Maven repositories too.
   */
  packageManager?: 'maven' | 'gradle';
  /**
   * Ask {@link GOOGLE_MAVEN_URL} for the groups only Google's repository publishes ({@link GOOGLE_MAVEN_GROUPS}), without
   * credentials. Only when the base URL is Maven Central's (the default); default true for `gradle`, false for `maven`.
   */
  googleMaven?: boolean;
}

/** Google's Maven repository (https://maven.google.com/web/index.html), where Android artifacts are published. */
export const GOOGLE_MAVEN_URL = 'https://dl.google.com/dl/android/maven2/';

/** The groups Google's Maven repository serves and Maven Central does not mirror: `com.android.*`, `androidx.*`, `com.google.android.*`. */
export const GOOGLE_MAVEN_GROUPS = /^(?:com\.android|androidx|com\.google\.android)(?:\.|$)/;

/**
 * Maven Central and Google's Maven repository as one registry: a `groupId:artifactId` of {@link GOOGLE_MAVEN_GROUPS} is
 * asked at {@link GOOGLE_MAVEN_URL} (without the credentials), every other at Maven Central.
 */
function withGoogleMaven(options: MavenRegistryOptions): PackageRegistry {
  const central = createMavenRegistry({ ...options, googleMaven: false });
  const { credentials: _dropped, ...anonymous } = options;
  const google = createMavenRegistry({ ...anonymous, baseUrl: GOOGLE_MAVEN_URL, googleMaven: false });
  const pick = (name: string) => (GOOGLE_MAVEN_GROUPS.test(name.split(':')[0] ?? '') ? google : central);
  return {
    packageManager: central.packageManager,
    baseUrl: central.baseUrl,
    fetchPackage: (name, fetchOptions) => pick(name).fetchPackage(name, fetchOptions),
    stats: () => {
      const [a, b] = [central.stats(), google.stats()];
      return {
        requests: a.requests + b.requests,
        notModified: a.notModified + b.notModified,
        fullDownloads: a.fullDownloads + b.fullDownloads,
      };
    },
    close: async () => {
      await Promise.all([central.close(), google.close()]);
    },
  };
}

/** What a version's POM and checksum file say. */
interface VersionDetails {
  releasedAt: string | null;
  digests: ArtifactDigest[];
  deprecated: string | null;
  sourceUrl: string | null;
}

const NO_DETAILS: VersionDetails = { releasedAt: null, digests: [], deprecated: null, sourceUrl: null };

/** Remembered details at most (least recently stored go first). */
const MAX_REMEMBERED_DETAILS = 4096;

/** Maven's own rule for `groupId` and `artifactId` (maven-model-builder's `ID_REGEX`). */
const ID = /^[A-Za-z0-9_.-]+$/;

/** A version usable as a path segment: no separators, no dot segments, no control characters. */
// biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what it refuses
const UNSAFE_VERSION = /[/\\\u0000-\u001f\u007f]|^\.{1,2}$/;

/** The main artifact's extension by `<packaging>` (packaging types whose artifact is not a `.jar`); anything else is a jar. */
const EXTENSION_OF_PACKAGING: Record<string, string> = { pom: 'pom', war: 'war', ear: 'ear', rar: 'rar', aar: 'aar' };

const XML_ACCEPT = 'application/xml, text/xml;q=0.9, */*;q=0.1';

/** The parser for metadata and POMs: no entity expansion (no DTD entities, no HTML entities), every value a string. */
const xmlParser = new XMLParser({
  processEntities: false,
  htmlEntities: false,
  ignoreAttributes: true,
  ignoreDeclaration: true,
  ignorePiTags: true,
  parseTagValue: false,
  parseAttributeValue: false,
  trimValues: true,
  isArray: (_name, jPath) => jPath === 'metadata.versioning.versions.version',
});

const PREDEFINED_ENTITIES: Record<string, string> = { lt: '<', gt: '>', amp: '&', quot: '"', apos: "'" };

/** Decodes XML's five predefined entities and character references (the parser expands none). */
function decodeXmlText(text: string): string {
  return text.replace(/&(#x[0-9a-fA-F]+|#[0-9]+|lt|gt|amp|quot|apos);/g, (whole, ref: string) => {
    if (ref.startsWith('#')) {
      const code = ref[1] === 'x' ? Number.parseInt(ref.slice(2), 16) : Number.parseInt(ref.slice(1), 10);
      return code <= 0x10ffff ? String.fromCodePoint(code) : whole;
    }
    return PREDEFINED_ENTITIES[ref] ?? whole;
  });
}

/** A child element's text: undefined when absent or empty, bad_response when it is not text. */
function textOf(parent: Record<string, unknown>, key: string, fail: (why: string) => never): string | undefined {
  const value = parent[key];
  if (value === undefined || value === '') return undefined;
  if (typeof value !== 'string') fail(`<${key}> is not text`);
  return decodeXmlText(value);
}

/** Parses an XML answer into its root element; refuses a DOCTYPE and anything that is not well-formed XML. */
function parseXml(answer: RegistryAnswer, root: string): Record<string, unknown> {
  const fail = (why: string): never => {
    throw new RegistryError('bad_response', answer.url, `${answer.url}: ${why}`);
  };
  if (/<!DOCTYPE/i.test(answer.body)) fail('XML with a DOCTYPE is refused');
  const valid = XMLValidator.validate(answer.body);
  if (valid !== true) fail(`not well-formed XML (${valid.err.msg}, line ${valid.err.line})`);
  let parsed: unknown;
  try {
    parsed = xmlParser.parse(answer.body);
  } catch (error) {
    throw new RegistryError('bad_response', answer.url, `${answer.url}: not XML (${(error as Error).message})`, { cause: error });
  }
  const element = isRecord(parsed) ? parsed[root] : undefined;
  if (element === '') return {};
  if (!isRecord(element)) fail(`no <${root}> element`);
  return element as Record<string, unknown>;
}

/** `groupId:artifactId` → its repository path `org/apache/commons/commons-lang3/` (encoded), or TypeError. */
function packagePath(name: string): { groupId: string; artifactId: string; path: string } {
  const parts = name.split(':');
  const [groupId, artifactId] = parts;
  if (parts.length !== 2 || groupId === undefined || artifactId === undefined) {
    throw new TypeError(`a Maven package name is groupId:artifactId: ${JSON.stringify(name)}`);
  }
  const groupSegments = groupId.split('.');
  if (!ID.test(groupId) || groupSegments.some((segment) => segment === '')) {
    throw new TypeError(`not a Maven groupId: ${JSON.stringify(groupId)}`);
  }
  if (!ID.test(artifactId) || artifactId === '.' || artifactId === '..') {
    throw new TypeError(`not a Maven artifactId: ${JSON.stringify(artifactId)}`);
  }
  const path = `${[...groupSegments, artifactId].map(encodeURIComponent).join('/')}/`;
  return { groupId, artifactId, path };
}

/** Maven's `yyyyMMddHHmmss` (UTC), or undefined. */
const isTimestamp = (text: string) => /^\d{14}$/.test(text);

/** The versions the bound picks: the last `count` of `<versions>`, plus `<release>` and `<latest>`; never snapshots. */
function versionsToDetail(listed: string[], count: number, marked: (string | null)[]): string[] {
  const picked = new Set<string>(count > 0 ? listed.slice(-count) : []);
  for (const version of marked) if (version !== null && listed.includes(version)) picked.add(version);
  return [...picked].filter((version) => !version.endsWith('-SNAPSHOT'));
}

/**
 * A Maven repository (Maven Central by default, or any Maven 2 layout repository: Nexus, Artifactory, GitHub Packages)
 * as a {@link PackageRegistry}, after https://maven.apache.org/repositories/metadata.html and
 * https://maven.apache.org/repositories/layout.html.
 *
 * `fetchPackage('groupId:artifactId')` reads `{base}/{groupId with / for .}/{artifactId}/maven-metadata.xml`:
 * `<versioning><versions>` gives every version, `<release>` (else `<latest>`) the latest. The metadata says nothing per
 * version, so a bounded few versions ({@link MavenRegistryOptions.detailedVersions}: the most recently deployed, and the
 * release) get their details from `{version}/{artifactId}-{version}.pom` and the main artifact's checksum file:
 * - `releasedAt`: the POM answer's `Last-Modified` (the time the repository received it; Maven records nothing better);
 *   null for snapshots, a POM that is missing, and the versions outside the bound that no earlier fetch detailed;
 * - `digests`: the `sha1` (hex) of `{artifactId}-{version}.{ext}.sha1`, `ext` after the POM's `<packaging>` (`pom`,
 *   `war`, `ear`, `rar`, `aar`; anything else, `jar` and `bundle` included, is a `.jar`), as Gradle's verification
 *   metadata and Maven's checksum policy use it; none when the file is missing;
 * - `deprecated`: `relocated to g:a:v` (and the relocation's message) when the POM relocates the artifact
 *   (`<distributionManagement><relocation>`);
 * - `sourceUrl`: `<scm><url>` (else `<scm><connection>`) of the latest version's POM (or the newest detailed one),
 *   `${…}` resolved from `project.*` and `<properties>`; inherited SCM (from a parent POM) is not followed.
 * Maven has no yanking (`yanked` is always false) and no changelog link (`changelogUrl` is null).
 *
 * Cost: 1 request, plus 2 per detailed version the first time it is seen; an unchanged package is one 304 afterwards
 * (released artifacts are immutable, so their details are remembered, at most 4096 per registry).
 *
 * XML: fast-xml-parser with entity expansion off; a DOCTYPE is refused (`bad_response`), as is anything that is not
 * well-formed XML, metadata whose `<groupId>`/`<artifactId>` are not the package asked, a version that cannot be a path
 * segment, or a checksum file without a 40-digit hex SHA-1.
 * With `packageManager: 'gradle'` the adapter answers for Gradle builds; then (or with `googleMaven: true`), at Maven
 * Central's URL, the Android groups are asked at Google's Maven repository instead (see {@link GOOGLE_MAVEN_GROUPS}).
 * @throws TypeError (from `fetchPackage`) for a name that is not `groupId:artifactId` with Maven's id characters
 *   (`A-Z a-z 0-9 _ . -`, no empty groupId segment)
 * @throws TypeError for a base URL that is not http(s)
 */
export function createMavenRegistry(options: MavenRegistryOptions = {}): PackageRegistry {
  const { detailedVersions = DEFAULT_MAVEN_DETAILED_VERSIONS, packageManager = 'maven', googleMaven, ...httpOptions } = options;
  const isCentral = options.baseUrl === undefined || new URL(options.baseUrl).href === DEFAULT_MAVEN_URL;
  if ((googleMaven ?? packageManager === 'gradle') && isCentral) return withGoogleMaven(options);
  if (!Number.isInteger(detailedVersions) || detailedVersions < 0)
    throw new TypeError(`detailedVersions must be a whole number ≥ 0: ${detailedVersions}`);
  const http = createRegistryHttp({ ...httpOptions, baseUrl: options.baseUrl ?? DEFAULT_MAVEN_URL });
  const remembered = new Map<string, VersionDetails>();

  const remember = (key: string, details: VersionDetails) => {
    remembered.set(key, details);
    if (remembered.size > MAX_REMEMBERED_DETAILS) {
      const oldest = remembered.keys().next().value;
      if (oldest !== undefined) remembered.delete(oldest);
    }
  };

  async function sha1Of(path: string, signal: AbortSignal | undefined): Promise<ArtifactDigest[]> {
    const answer = await http.get(path, { accept: 'text/plain, */*;q=0.1', ...(signal ? { signal } : {}) });
    if (answer.status !== 200) return [];
    // Checksum files hold the hex digest, sometimes followed by the file name (`<sha1>  name.jar`).
    const match = /^([0-9a-fA-F]{40})(?:\s|$)/.exec(answer.body.trim());
    if (!match?.[1]) throw new RegistryError('bad_response', answer.url, `${answer.url}: not a SHA-1 checksum file`);
    return [{ algorithm: 'sha1', value: match[1].toLowerCase(), encoding: 'hex' }];
  }

  async function detailsOf(
    coordinates: { groupId: string; artifactId: string; path: string },
    version: string,
    signal: AbortSignal | undefined,
  ): Promise<VersionDetails> {
    const key = `${coordinates.groupId}:${coordinates.artifactId}:${version}`;
    const known = remembered.get(key);
    if (known !== undefined) return known;
    const v = encodeURIComponent(version);
    const base = `${coordinates.path}${v}/${encodeURIComponent(coordinates.artifactId)}-${v}`;
    const answer = await http.get(`${base}.pom`, { accept: XML_ACCEPT, ...(signal ? { signal } : {}) });
    if (answer.status !== 200) return NO_DETAILS;
    const fail = (why: string): never => {
      throw new RegistryError('bad_response', answer.url, `${answer.url}: ${why}`);
    };
    const project = parseXml(answer, 'project');
    const packaging = textOf(project, 'packaging', fail) ?? 'jar';
    const digests = await sha1Of(`${base}.${EXTENSION_OF_PACKAGING[packaging] ?? 'jar'}.sha1`, signal);
    const lastModified = answer.headers['last-modified'];
    const time = typeof lastModified === 'string' ? new Date(lastModified) : undefined;
    const details: VersionDetails = {
      releasedAt: time !== undefined && !Number.isNaN(time.getTime()) ? time.toISOString() : null,
      digests,
      deprecated: relocationOf(project, coordinates, version, fail),
      sourceUrl: scmUrlOf(project, coordinates, version, fail),
    };
    remember(key, details);
    return details;
  }

  return {
    packageManager,
    baseUrl: http.baseUrl.href,
    async fetchPackage(name, fetchOptions = {}): Promise<RegistryPackage | undefined> {
      const coordinates = packagePath(name);
      const { signal } = fetchOptions;
      const answer = await http.get(`${coordinates.path}maven-metadata.xml`, { accept: XML_ACCEPT, ...(signal ? { signal } : {}) });
      if (answer.status !== 200) return undefined;
      const fail = (why: string): never => {
        throw new RegistryError('bad_response', answer.url, `${answer.url}: ${why}`);
      };
      const metadata = parseXml(answer, 'metadata');
      const groupId = textOf(metadata, 'groupId', fail);
      const artifactId = textOf(metadata, 'artifactId', fail);
      if (
        (groupId !== undefined && groupId !== coordinates.groupId) ||
        (artifactId !== undefined && artifactId !== coordinates.artifactId)
      ) {
        fail(`metadata of ${groupId}:${artifactId}, not of ${name}`);
      }
      const versioningValue = metadata.versioning;
      const versioning = versioningValue === undefined || versioningValue === '' ? {} : versioningValue;
      if (!isRecord(versioning)) return fail('<versioning> is not an element');
      const versionsValue = versioning.versions;
      const versionsElement = versionsValue === undefined || versionsValue === '' ? {} : versionsValue;
      if (!isRecord(versionsElement)) return fail('<versions> is not an element');
      const entries = versionsElement.version ?? [];
      if (!Array.isArray(entries)) return fail('<versions> is not a list of <version>');
      const listed: string[] = [];
      for (const entry of entries) {
        if (typeof entry !== 'string' || entry === '') fail('a <version> is not text');
        const version = decodeXmlText(entry as string);
        if (UNSAFE_VERSION.test(version)) fail(`version ${JSON.stringify(version)} cannot be a path segment`);
        if (!listed.includes(version)) listed.push(version);
      }
      const release = textOf(versioning, 'release', fail) ?? null;
      const latestDeployed = textOf(versioning, 'latest', fail) ?? null;
      const lastUpdated = textOf(versioning, 'lastUpdated', fail);
      if (lastUpdated !== undefined && !isTimestamp(lastUpdated)) fail(`<lastUpdated> is not yyyyMMddHHmmss: ${lastUpdated}`);
      const latest = [release, latestDeployed].find((v) => v !== null && listed.includes(v)) ?? null;

      const detailed = versionsToDetail(listed, detailedVersions, [latest]);
      // All settle before an error is thrown: no request outlives the call.
      const settled = await Promise.allSettled(
        detailed.map(async (version) => [version, await detailsOf(coordinates, version, signal)] as const),
      );
      const details = new Map<string, VersionDetails>();
      for (const result of settled) {
        if (result.status === 'rejected') throw result.reason;
        details.set(...result.value);
      }
      const versions: RegistryVersion[] = listed.map((version) => {
        // Outside the bound, what an earlier fetch learnt still holds (released artifacts do not change).
        const known = details.get(version) ?? remembered.get(`${coordinates.groupId}:${coordinates.artifactId}:${version}`) ?? NO_DETAILS;
        return { version, releasedAt: known.releasedAt, yanked: false, deprecated: known.deprecated, digests: known.digests };
      });
      // The latest version's SCM URL, else the newest detailed version's that has one.
      const sourceUrl =
        (latest !== null ? details.get(latest)?.sourceUrl : undefined) ??
        [...detailed]
          .reverse()
          .map((version) => details.get(version)?.sourceUrl ?? null)
          .find((url) => url !== null) ??
        null;
      return { name: `${coordinates.groupId}:${coordinates.artifactId}`, versions, latest, sourceUrl, changelogUrl: null };
    },
    stats: () => http.stats(),
    close: () => http.close(),
  };
}

/** `relocated to g:a:v[: message]` when the POM relocates the artifact, else null. */
function relocationOf(
  project: Record<string, unknown>,
  coordinates: { groupId: string; artifactId: string },
  version: string,
  fail: (why: string) => never,
): string | null {
  const management = project.distributionManagement;
  if (!isRecord(management)) return null;
  const relocation = management.relocation;
  if (relocation === undefined) return null;
  if (relocation === '') return `relocated to ${coordinates.groupId}:${coordinates.artifactId}:${version}`;
  if (!isRecord(relocation)) return fail('<relocation> is not an element');
  const target = [
    textOf(relocation, 'groupId', fail) ?? coordinates.groupId,
    textOf(relocation, 'artifactId', fail) ?? coordinates.artifactId,
    textOf(relocation, 'version', fail) ?? version,
  ].join(':');
  const message = textOf(relocation, 'message', fail);
  return message === undefined ? `relocated to ${target}` : `relocated to ${target}: ${message}`;
}

/** `<scm><url>` (else `<scm><connection>`), `${…}` resolved from `project.*` and `<properties>`, normalised; or null. */
function scmUrlOf(
  project: Record<string, unknown>,
  coordinates: { groupId: string; artifactId: string },
  version: string,
  fail: (why: string) => never,
): string | null {
  const scm = project.scm;
  if (!isRecord(scm)) return null;
  const properties = new Map<string, string>();
  if (isRecord(project.properties)) {
    for (const [key, value] of Object.entries(project.properties)) if (typeof value === 'string') properties.set(key, decodeXmlText(value));
  }
  const artifactId = textOf(project, 'artifactId', fail) ?? coordinates.artifactId;
  const groupId = textOf(project, 'groupId', fail) ?? coordinates.groupId;
  for (const [key, value] of [
    ['project.artifactId', artifactId],
    ['artifactId', artifactId],
    ['project.groupId', groupId],
    ['groupId', groupId],
    ['project.version', version],
    ['version', version],
  ] as const) {
    if (!properties.has(key)) properties.set(key, value);
  }
  const resolve = (text: string | undefined) => text?.replace(/\$\{([^}]+)\}/g, (whole, key: string) => properties.get(key) ?? whole);
  const normalise = (text: string | undefined) => normaliseRepositoryUrl(resolve(text), { npmShorthands: false });
  return normalise(textOf(scm, 'url', fail)) ?? normalise(textOf(scm, 'connection', fail));
}
