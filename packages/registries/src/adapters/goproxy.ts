import { createHash } from 'node:crypto';
import { compareGoModuleVersions, goVersions, readGoMod } from '@switchyard/ecosystems';
import { unzipSync } from 'fflate';
import { createRegistryHttp, type RegistryAdapterOptions, type RegistryAnswer } from '../http/registry-http.ts';
import {
  type PackageRegistry,
  type RegistryDependency,
  RegistryError,
  type RegistryPackage,
  type RegistryVersion,
  type RegistryVersionDetails,
} from '../port.ts';

/** The Go module mirror run by Google (https://proxy.golang.org/), Go's default `GOPROXY`. */
export const DEFAULT_GOPROXY_URL = 'https://proxy.golang.org/';

/** Options of {@link createGoProxyRegistry}: the common adapter options and how many `.info` documents are read. */
export interface GoProxyRegistryOptions extends RegistryAdapterOptions {
  /**
   * Release times are read from `.info` documents, one request per version: only the `releaseTimesFor` highest versions
   * (by semantic precedence) get one, the others have `releasedAt` null. Default 50. Requests run 8 at a time.
   */
  releaseTimesFor?: number;
}

const MODULE_PATH_ELEMENT = /^[A-Za-z0-9._~-]+$/;

/**
 * Whether `path` is a module path by golang.org/x/mod/module `CheckPath`
 * (https://github.com/golang/mod/blob/master/module/module.go): `/`-separated elements of ASCII letters, digits and
 * `-._~`, none empty, none starting or ending with `.` (so no `.` or `..`); the first element lower case, with a dot,
 * not starting with `-`. (CheckPath's further rules, Windows reserved names and the `/vN` suffix, are not checked: they
 * cannot change the URL asked.)
 */
export function isModulePath(path: string): boolean {
  const elements = path.split('/');
  const first = elements[0] ?? '';
  if (!/^[a-z0-9.-]+$/.test(first) || !first.includes('.') || first.startsWith('-')) return false;
  return elements.every((e) => MODULE_PATH_ELEMENT.test(e) && !e.startsWith('.') && !e.endsWith('.'));
}

/**
 * A module path as the GOPROXY protocol writes it in URLs (https://go.dev/ref/mod#goproxy-protocol,
 * golang.org/x/mod/module `EscapePath`): every capital letter becomes `!` and its lower case (`github.com/Azure/go-autorest`
 * → `github.com/!azure/go-autorest`), so that case-insensitive file systems can serve it.
 * @throws TypeError for a path that is not a module path ({@link isModulePath}): nothing is asked for it
 */
export function escapeModulePath(path: string): string {
  if (!isModulePath(path)) throw new TypeError(`not a module path: '${path}'`);
  return path.replace(/[A-Z]/g, (c) => `!${c.toLowerCase()}`);
}

const SEMVER_IDENTIFIER = '(?:0|[1-9]\\d*|\\d*[A-Za-z-][0-9A-Za-z-]*)';
/** A full semantic version with Go's `v` (golang.org/x/mod/semver `IsValid`, without the `v1`/`v1.2` shorthands). */
const GO_SEMVER = new RegExp(
  `^v(?:0|[1-9]\\d*)\\.(?:0|[1-9]\\d*)\\.(?:0|[1-9]\\d*)(?:-${SEMVER_IDENTIFIER}(?:\\.${SEMVER_IDENTIFIER})*)?(?:\\+[0-9A-Za-z-]+(?:\\.[0-9A-Za-z-]+)*)?$`,
);

/**
 * A module version as the GOPROXY protocol writes it in URLs: a full semantic version with `v`
 * (https://go.dev/ref/mod#versions; `v1.2.3`, `v1.2.3-pre.1`, pseudo-versions, `v2.0.0+incompatible`), capitals
 * `!`-escaped as in {@link escapeModulePath}.
 * @throws TypeError for anything else: nothing is asked for it
 */
export function escapeModuleVersion(version: string): string {
  if (!GO_SEMVER.test(version)) throw new TypeError(`not a module version: '${version}'`);
  return version.replace(/[A-Z]/g, (c) => `!${c.toLowerCase()}`);
}

/**
 * golang.org/x/mod/sumdb/dirhash `Hash1`, the `h1:` hash of go.sum (https://go.dev/ref/mod#go-sum-files): the SHA-256 of
 * the lines `<sha256 hex of the file>  <file name>\n` for the files sorted by name, base64, prefixed `h1:`. A module zip's
 * names are as the zip holds them (`<module>@<version>/...`, `HashZip`); a go.mod alone is hashed as the one file `go.mod`.
 * @throws TypeError for a file name holding a line break (Hash1 rejects those)
 */
export function goDirHash1(files: Iterable<readonly [string, Uint8Array]>): string {
  const sorted = [...files].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  const summary = createHash('sha256');
  for (const [name, bytes] of sorted) {
    if (name.includes('\n')) throw new TypeError(`file name with a line break: ${JSON.stringify(name)}`);
    summary.update(`${createHash('sha256').update(bytes).digest('hex')}  ${name}\n`);
  }
  return `h1:${summary.digest('base64')}`;
}

/** Go's limit on a module zip's uncompressed size (golang.org/x/mod/zip `MaxZipFile`), 500 MiB. */
export const MAX_ZIP_UNCOMPRESSED_BYTES = 500 * 1024 * 1024;

/**
 * The files of a zip, after checking that the uncompressed sizes its central directory declares sum to at most
 * `maxBytes` (default {@link MAX_ZIP_UNCOMPRESSED_BYTES}) before anything is inflated (a zip bomb, or forged sizes that
 * would make fflate allocate them).
 * @throws RegistryError `bad_response` (reported at `url`) for a zip over the limit, or bytes that are not a zip
 */
export function unzipBounded(
  zip: Uint8Array,
  url: string,
  what: string,
  maxBytes = MAX_ZIP_UNCOMPRESSED_BYTES,
): Record<string, Uint8Array> {
  let total = 0;
  try {
    unzipSync(zip, {
      filter: (file) => {
        total += file.originalSize;
        return false;
      },
    });
  } catch (error) {
    throw new RegistryError('bad_response', url, `${what} is not a zip file`, { cause: error });
  }
  if (total > maxBytes) throw new RegistryError('bad_response', url, `${what} declares ${total} uncompressed bytes, over ${maxBytes}`);
  try {
    return unzipSync(zip);
  } catch (error) {
    throw new RegistryError('bad_response', url, `${what} is not a zip file`, { cause: error });
  }
}

/** What the adapter reads of a go.mod: its requires, `go` line and retractions (https://go.dev/ref/mod#go-mod-file). */
export interface GoModSummary {
  go: string | null;
  requires: { path: string; version: string; indirect: boolean }[];
  /** `retract` versions and `[low, high]` intervals. */
  retracts: { low: string; high: string }[];
}

/**
 * The directives a registry client needs from a go.mod text (ecosystems' `readGoMod`, lenient): `go`, `require` (lines
 * and blocks, with `// indirect`) and `retract` (lines and blocks). Lines it cannot read are skipped, never thrown on: the
 * go.mod is the module author's, not ours to reject.
 */
export function readGoModSummary(text: string): GoModSummary {
  const mod = readGoMod('go.mod', text, { lenient: true });
  return {
    go: mod.go,
    requires: mod.requires.map((r) => ({ path: r.path, version: r.version.value, indirect: r.indirect })),
    retracts: mod.retracts.map(({ low, high }) => ({ low, high })),
  };
}

/** The code host page of a module path: `https://github.com/<owner>/<repo>` for github.com modules, else null. */
export function goModuleSourceUrl(path: string): string | null {
  const match = /^github\.com\/([A-Za-z0-9_.-]+)\/([A-Za-z0-9_.-]+)/.exec(path);
  return match ? `https://github.com/${match[1]}/${match[2]}` : null;
}

/**
 * A GOPROXY (https://go.dev/ref/mod#goproxy-protocol) as a {@link PackageRegistry}: proxy.golang.org, Athens, Artifactory,
 * the registry emulator's `goproxy`. Module paths and versions are checked and case-encoded in URLs
 * ({@link escapeModulePath}, {@link escapeModuleVersion}) before anything is asked.
 *
 * `fetchPackage(path)` GETs `{base}/{path}/@v/list` (the tagged versions, one per line, lines that are not versions skipped; 404 or 410 → undefined),
 * `{base}/{path}/@latest` (`{"Version","Time"}`; 404/410 → no latest), the `.info` of the
 * {@link GoProxyRegistryOptions.releaseTimesFor} highest listed versions (`Time` → `releasedAt`, at most 8 requests at a time)
 * and the `.mod` of the highest release (not `+incompatible` when there is another; its `retract` directives mark versions
 * `yanked`, as `go list -m -retracted` reads them). When the list is empty, `@latest`'s version (a pseudo-version for a module without tags) is the one version.
 * `deprecated` is null (a `// Deprecated:` module comment deprecates the module, not a version), `digests` empty (the proxy
 * serves none without the zip: see `describeVersion`), `latest` `@latest`'s version unless retracted (then the highest
 * release neither retracted nor `+incompatible`), `sourceUrl` {@link goModuleSourceUrl}, `changelogUrl` null.
 *
 * `describeVersion(path, version)` GETs the `.info` (404/410 → undefined), the `.mod` (its requires are the dependencies,
 * each `{ name: path, requirement: version, kind: 'runtime' }`, indirect ones included: all are in the module graph) and the
 * `.zip`, and gives two artifacts with `h1` digests ({@link goDirHash1}) as `go mod download` computes them: `<v>.zip` (the
 * zip's files) and `<v>.mod` (the go.mod as the one file `go.mod`, `attributes.go` its `go` line when it has one).
 * The zip and the go.mod are read as bytes (the client's `binary` requests, uncached: decoding UTF-8 would change the
 * hash); a zip declaring over 500 MiB uncompressed ({@link unzipBounded}, Go's limit) is `bad_response`, unread. Versions
 * order by ecosystems' `compareGoModuleVersions` (Go's semantic precedence; what is not a canonical module version below).
 * @throws TypeError for a base URL that is not http(s), or a module path or version the protocol cannot express
 */
export function createGoProxyRegistry(options: GoProxyRegistryOptions = {}): PackageRegistry {
  const { baseUrl = DEFAULT_GOPROXY_URL, releaseTimesFor = 50, ...httpOptions } = options;
  const http = createRegistryHttp({ ...httpOptions, baseUrl });
  const base = http.baseUrl;

  /** GETs bytes as served (the module zip, the go.mod to hash: decoding would change them); undefined for 404/410. */
  const getBytes = async (path: string, signal: AbortSignal | undefined, accept = 'application/zip'): Promise<Uint8Array | undefined> => {
    const answer = await http.get(path, { accept, binary: true, ...(signal ? { signal } : {}) });
    return answer.status === 200 ? answer.bytes : undefined;
  };

  const get = async (path: string, accept: string, signal: AbortSignal | undefined): Promise<RegistryAnswer | undefined> => {
    const answer = await http.get(path, { accept, ...(signal ? { signal } : {}) });
    return answer.status === 200 ? answer : undefined;
  };

  const bad = (answer: RegistryAnswer, message: string, cause?: unknown) =>
    new RegistryError('bad_response', answer.url, message, cause === undefined ? {} : { cause });

  /** A `.info` or `@latest` document: `Version` and `Time` (RFC 3339, as UTC). */
  const readInfo = (answer: RegistryAnswer): { version: string; time: string | null } => {
    let document: unknown;
    try {
      document = JSON.parse(answer.body);
    } catch (error) {
      throw bad(answer, 'version info is not JSON', error);
    }
    const record = document as Record<string, unknown> | null;
    if (typeof record !== 'object' || record === null || typeof record.Version !== 'string' || record.Version === '') {
      throw bad(answer, 'version info has no Version');
    }
    if (!GO_SEMVER.test(record.Version)) throw bad(answer, `version info's Version is not a version: '${record.Version}'`);
    let time: string | null = null;
    if (record.Time !== undefined && record.Time !== null) {
      const parsed = typeof record.Time === 'string' && /^\d{4}-\d{2}-\d{2}T/.test(record.Time) ? new Date(record.Time) : undefined;
      if (!parsed || Number.isNaN(parsed.getTime())) throw bad(answer, `version info of ${record.Version} has a Time that is not RFC 3339`);
      time = parsed.toISOString();
    }
    return { version: record.Version, time };
  };

  const modulePrefix = (path: string) => `${escapeModulePath(path)}/`;
  const versionPath = (path: string, version: string, ext: string) => `${modulePrefix(path)}@v/${escapeModuleVersion(version)}.${ext}`;

  /** Runs `task` over `items`, at most `limit` at a time, results in order. */
  const pooled = async <T, R>(items: readonly T[], limit: number, task: (item: T) => Promise<R>): Promise<R[]> => {
    const results: R[] = new Array(items.length);
    let next = 0;
    const worker = async () => {
      while (next < items.length) {
        const index = next++;
        results[index] = await task(items[index] as T);
      }
    };
    await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
    return results;
  };

  return {
    packageManager: 'go_modules',
    baseUrl: base.href,
    fetchPackage: async (name, fetchOptions = {}): Promise<RegistryPackage | undefined> => {
      const signal = fetchOptions.signal;
      const prefix = modulePrefix(name);
      const list = await get(`${prefix}@v/list`, 'text/plain', signal);
      if (list === undefined) return undefined;
      // Lines that are not versions are skipped, as the go command does (cmd/go/internal/modfetch/proxy.go `Versions`).
      const listed = [...new Set(list.body.split('\n').map((line) => line.trim().split(/\s+/)[0] ?? ''))].filter((v) => GO_SEMVER.test(v));
      const latestAnswer = await get(`${prefix}@latest`, 'application/json', signal);
      const latestInfo = latestAnswer ? readInfo(latestAnswer) : undefined;
      const versions = listed.length === 0 && latestInfo ? [latestInfo.version] : listed;
      const highestFirst = [...versions].sort((a, b) => compareGoModuleVersions(b, a));
      const timed = new Set(highestFirst.slice(0, Math.max(0, releaseTimesFor)));
      const times = new Map<string, string | null>();
      if (latestInfo) times.set(latestInfo.version, latestInfo.time);
      await pooled(
        [...timed].filter((v) => !times.has(v)),
        8,
        async (version) => {
          const info = await get(versionPath(name, version, 'info'), 'application/json', signal);
          times.set(version, info ? readInfo(info).time : null);
        },
      );
      // Retractions are read from the go.mod of the latest version as the go command picks it for them
      // (https://go.dev/ref/mod#go-mod-file-retract): the highest release, +incompatible ones only when there is no other.
      const release = (v: string) => !goVersions.isPrerelease(v);
      const highestRelease =
        highestFirst.find((v) => release(v) && !v.endsWith('+incompatible')) ?? highestFirst.find(release) ?? highestFirst[0];
      let retracts: GoModSummary['retracts'] = [];
      if (highestRelease !== undefined) {
        const mod = await get(versionPath(name, highestRelease, 'mod'), 'text/plain', signal);
        if (mod) retracts = readGoModSummary(mod.body).retracts;
      }
      const retracted = (v: string) =>
        retracts.some((r) => compareGoModuleVersions(v, r.low) >= 0 && compareGoModuleVersions(v, r.high) <= 0);
      const out: RegistryVersion[] = versions.map((version) => ({
        version,
        releasedAt: times.get(version) ?? null,
        yanked: retracted(version),
        deprecated: null,
        digests: [],
      }));
      let latest = latestInfo?.version ?? null;
      if (latest !== null && retracted(latest)) {
        latest = highestFirst.find((v) => !retracted(v) && release(v) && !v.endsWith('+incompatible')) ?? null;
      }
      return { name, versions: out, latest, sourceUrl: goModuleSourceUrl(name), changelogUrl: null };
    },
    describeVersion: async (name, version, describeOptions = {}): Promise<RegistryVersionDetails | undefined> => {
      const signal = describeOptions.signal;
      const infoAnswer = await get(versionPath(name, version, 'info'), 'application/json', signal);
      if (infoAnswer === undefined) return undefined;
      const info = readInfo(infoAnswer);
      // The go.mod's bytes as served: its h1 is over them (a BOM or invalid UTF-8 included), as the go command hashes it.
      const modBytes = await getBytes(versionPath(name, info.version, 'mod'), signal, 'text/plain');
      if (modBytes === undefined) throw bad(infoAnswer, `${name}@${info.version} has an .info but no .mod`);
      const zipPath = versionPath(name, info.version, 'zip');
      const zipBytes = await getBytes(zipPath, signal);
      const zipUrl = new URL(zipPath, base);
      const zipShown = `${zipUrl.origin}${zipUrl.pathname}`;
      if (zipBytes === undefined) throw new RegistryError('bad_response', zipShown, `${name}@${info.version} has an .info but no .zip`);
      const entries = unzipBounded(zipBytes, zipShown, `${name}@${info.version}.zip`);
      const summary = readGoModSummary(new TextDecoder().decode(modBytes));
      const dependencies: RegistryDependency[] = summary.requires.map((r) => ({ name: r.path, requirement: r.version, kind: 'runtime' }));
      const modUrl = new URL(versionPath(name, info.version, 'mod'), base);
      return {
        name,
        version: info.version,
        dependencies,
        artifacts: [
          {
            filename: `${info.version}.zip`,
            url: zipUrl.href,
            digests: [{ algorithm: 'h1', value: goDirHash1(Object.entries(entries)), encoding: 'prefixed' }],
          },
          {
            filename: `${info.version}.mod`,
            url: modUrl.href,
            digests: [{ algorithm: 'h1', value: goDirHash1([['go.mod', modBytes]]), encoding: 'prefixed' }],
            ...(summary.go ? { attributes: { go: summary.go } } : {}),
          },
        ],
      };
    },
    stats: () => http.stats(),
    close: () => http.close(),
  };
}
