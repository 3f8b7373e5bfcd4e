import { createHash } from 'node:crypto';
import { createRegistryHttp, isOverSizeLimit, type RegistryAdapterOptions, type RegistryAnswer } from '../http/registry-http.ts';
import type { PackageRegistry, RegistryArtifact, RegistryPackage, RegistryRequestStats, RegistryVersionDetails } from '../port.ts';
import { badResponse, isRecord } from './answer.ts';
import { goDirHash1, unzipBounded } from './goproxy.ts';

/** The public Terraform registry (its service discovery document is at `/.well-known/terraform.json`). */
export const DEFAULT_TERRAFORM_URL = 'https://registry.terraform.io/';

const PART = /^[A-Za-z0-9][A-Za-z0-9_-]*$/;

/**
 * A Terraform registry name: `namespace/type` (2 parts) is a provider, `namespace/name/provider` (3 parts) a module.
 * @throws TypeError for anything else (an empty part, a host, characters the registry does not allow)
 */
export function terraformAddress(name: string): { kind: 'provider' | 'module'; parts: string[] } {
  const parts = name.split('/');
  if ((parts.length !== 2 && parts.length !== 3) || !parts.every((part) => PART.test(part))) {
    throw new TypeError(`not a Terraform provider (namespace/type) or module (namespace/name/provider): '${name}'`);
  }
  return { kind: parts.length === 2 ? 'provider' : 'module', parts };
}

const bad = badResponse;

const parseJson = (answer: RegistryAnswer, what: string): unknown => {
  try {
    return JSON.parse(answer.body);
  } catch (error) {
    throw bad(answer, `${what} is not JSON`, error);
  }
};

/** A provider version of the `versions` answer: its version and platforms. */
interface ProviderVersion {
  version: string;
  platforms: { os: string; arch: string }[];
}

const SHA256_HEX = /^[0-9a-f]{64}$/i;

/** Options of {@link createTerraformRegistry}: the common adapter options and the largest provider zip downloaded. */
export interface TerraformRegistryOptions extends RegistryAdapterOptions {
  /**
   * Largest provider zip downloaded to compute its `h1:` hash, in bytes; default `maxResponseBytes` (itself 64 MiB by
   * default). A bigger zip (hashicorp/aws is hundreds of MiB) is not downloaded: its version gets the `sha256` (`zh:`)
   * digests only.
   */
  maxZipBytes?: number;
}

/**
 * A Terraform registry (https://developer.hashicorp.com/terraform/internals/provider-registry-protocol and
 * https://developer.hashicorp.com/terraform/internals/module-registry-protocol) as a {@link PackageRegistry}, for
 * providers (`hashicorp/aws`) and modules (`terraform-aws-modules/vpc/aws`), see {@link terraformAddress}.
 *
 * First the service discovery document `{baseUrl}.well-known/terraform.json` (https://developer.hashicorp.com/terraform/internals/remote-service-discovery),
 * whose `providers.v1` and `modules.v1` (relative to the document, or absolute) are the protocols' bases. Then:
 * - a provider: `GET {providers.v1}{namespace}/{type}/versions` → `versions[]` with `version` and `platforms[]`;
 * - a module: `GET {modules.v1}{namespace}/{name}/{provider}/versions` → `modules[0].versions[].version`.
 * Mapping: `releasedAt` null (the protocols give no times; only the public registry's own v2 API does), never yanked
 * or deprecated (a registry removes versions instead), no digests (they are per platform: see `describeVersion`),
 * `latest` null, no source or changelog URL. A 404 (unknown package, or a host without that protocol) → undefined.
 *
 * `describeVersion` of a provider version: `GET {providers.v1}{namespace}/{type}/{version}/download/{os}/{arch}` for
 * its first platform (`shasum`, `shasums_url`, `download_url`, `filename`), then the `SHA256SUMS` document at
 * `shasums_url` (`<sha256 hex>  <file>` lines, which give every platform's zip, as `terraform providers lock` reads
 * them): one artifact per `.zip` line with its `sha256` digest and its URL beside `download_url`. The platform asked is
 * `linux_amd64` when the version has it, else its first; that platform's zip is downloaded (as bytes, `binary`, by a
 * client with the same bounds but `maxZipBytes`; credentials only to the base URL's origin), checked against `shasum`,
 * and its `h1:` hash (dirhash Hash1 over the zip's files, what Terraform writes for the platforms it installs) added to
 * its artifact. A zip over {@link TerraformRegistryOptions.maxZipBytes} is not downloaded, and no `h1:` is given (the lock
 * file then gets the `zh:` hashes only; `terraform init` adds the `h1:` of its platform); one declaring over 500 MiB
 * uncompressed is `bad_response`, uninflated ({@link unzipBounded}). Dependencies `[]` (providers declare none). Of a
 * module version: no artifacts and dependencies null.
 * Undefined for an unknown package or version; a zip whose SHA-256 is not `shasum` is `bad_response`.
 * @throws TypeError for a base URL that is not http(s)
 */
export function createTerraformRegistry(options: TerraformRegistryOptions = {}): PackageRegistry {
  const { baseUrl = DEFAULT_TERRAFORM_URL, maxZipBytes, ...httpOptions } = options;
  const http = createRegistryHttp({ ...httpOptions, baseUrl });
  // Zips are read as bytes by a client of their own when they have a size bound of their own.
  const zips = maxZipBytes === undefined ? http : createRegistryHttp({ ...httpOptions, baseUrl, maxResponseBytes: maxZipBytes });
  let discovery: Promise<Record<string, string | undefined>> | undefined;

  /** A provider zip's bytes as served; undefined when absent (404, 410) or over `maxZipBytes` (not read past it). */
  const zipOf = async (url: string, signal: AbortSignal | undefined): Promise<Uint8Array | undefined> => {
    try {
      const answer = await zips.get(url, { accept: 'application/zip', binary: true, ...(signal ? { signal } : {}) });
      return answer.status === 200 ? answer.bytes : undefined;
    } catch (error) {
      if (isOverSizeLimit(error)) return undefined;
      throw error;
    }
  };

  /** The discovery document's service URLs (absolute); asked once, a failure is asked again next time. */
  const services = (signal: AbortSignal | undefined) => {
    discovery ??= (async () => {
      const answer = await http.get('.well-known/terraform.json', { accept: 'application/json', ...(signal ? { signal } : {}) });
      if (answer.status !== 200) return {};
      const document = parseJson(answer, 'the service discovery document');
      if (!isRecord(document)) throw bad(answer, 'the service discovery document is not an object');
      const out: Record<string, string | undefined> = {};
      for (const key of ['providers.v1', 'modules.v1']) {
        const value = document[key];
        if (value === undefined) continue;
        if (typeof value !== 'string') throw bad(answer, `${key} is not a string`);
        const url = new URL(value, answer.url);
        if (!url.pathname.endsWith('/')) url.pathname += '/';
        out[key] = url.href;
      }
      return out;
    })();
    discovery.catch(() => {
      discovery = undefined;
    });
    return discovery;
  };

  const getJson = async (url: string, signal: AbortSignal | undefined, what: string) => {
    const answer = await http.get(url, { accept: 'application/json', ...(signal ? { signal } : {}) });
    if (answer.status !== 200) return undefined;
    return { answer, document: parseJson(answer, what) };
  };

  const providerVersions = async (parts: string[], signal: AbortSignal | undefined): Promise<ProviderVersion[] | undefined> => {
    const base = (await services(signal))['providers.v1'];
    if (base === undefined) return undefined;
    const got = await getJson(`${base}${parts.map(encodeURIComponent).join('/')}/versions`, signal, 'the versions answer');
    if (got === undefined) return undefined;
    const { answer, document } = got;
    if (!isRecord(document) || !Array.isArray(document.versions)) throw bad(answer, 'the versions answer has no versions array');
    return document.versions.map((entry: unknown, index): ProviderVersion => {
      if (!isRecord(entry) || typeof entry.version !== 'string' || entry.version === '')
        throw bad(answer, `versions[${index}] has no version`);
      const platforms = Array.isArray(entry.platforms) ? entry.platforms : [];
      return {
        version: entry.version,
        platforms: platforms.flatMap((p: unknown) =>
          isRecord(p) && typeof p.os === 'string' && typeof p.arch === 'string' ? [{ os: p.os, arch: p.arch }] : [],
        ),
      };
    });
  };

  const moduleVersions = async (parts: string[], signal: AbortSignal | undefined): Promise<string[] | undefined> => {
    const base = (await services(signal))['modules.v1'];
    if (base === undefined) return undefined;
    const got = await getJson(`${base}${parts.map(encodeURIComponent).join('/')}/versions`, signal, 'the versions answer');
    if (got === undefined) return undefined;
    const { answer, document } = got;
    if (!isRecord(document) || !Array.isArray(document.modules)) throw bad(answer, 'the versions answer has no modules array');
    const first = document.modules[0];
    if (first === undefined) return [];
    if (!isRecord(first) || !Array.isArray(first.versions)) throw bad(answer, 'modules[0] has no versions array');
    return first.versions.map((entry: unknown, index) => {
      if (!isRecord(entry) || typeof entry.version !== 'string' || entry.version === '') {
        throw bad(answer, `modules[0].versions[${index}] has no version`);
      }
      return entry.version;
    });
  };

  return {
    packageManager: 'terraform',
    baseUrl: http.baseUrl.href,
    fetchPackage: async (name, fetchOptions = {}): Promise<RegistryPackage | undefined> => {
      const { kind, parts } = terraformAddress(name);
      const versions =
        kind === 'provider'
          ? (await providerVersions(parts, fetchOptions.signal))?.map((v) => v.version)
          : await moduleVersions(parts, fetchOptions.signal);
      if (versions === undefined) return undefined;
      return {
        name: parts.join('/'),
        versions: versions.map((version) => ({ version, releasedAt: null, yanked: false, deprecated: null, digests: [] })),
        latest: null,
        sourceUrl: null,
        changelogUrl: null,
      };
    },
    describeVersion: async (name, version, describeOptions = {}): Promise<RegistryVersionDetails | undefined> => {
      const { signal } = describeOptions;
      const { kind, parts } = terraformAddress(name);
      if (kind === 'module') {
        const versions = await moduleVersions(parts, signal);
        return versions?.includes(version) ? { name: parts.join('/'), version, dependencies: null, artifacts: [] } : undefined;
      }
      const entry = (await providerVersions(parts, signal))?.find((v) => v.version === version);
      if (entry === undefined) return undefined;
      const details: RegistryVersionDetails = { name: parts.join('/'), version, dependencies: [], artifacts: [] };
      const platform = entry.platforms.find((p) => p.os === 'linux' && p.arch === 'amd64') ?? entry.platforms[0];
      if (platform === undefined) return details;
      const base = (await services(signal))['providers.v1'] as string;
      const path = [...parts, version, 'download', platform.os, platform.arch].map(encodeURIComponent).join('/');
      const got = await getJson(`${base}${path}`, signal, 'the download answer');
      if (got === undefined) return undefined;
      const { answer, document } = got;
      if (!isRecord(document)) throw bad(answer, 'the download answer is not an object');
      const { filename, download_url: downloadUrl, shasum, shasums_url: shasumsUrl } = document;
      if (typeof filename !== 'string' || typeof downloadUrl !== 'string' || typeof shasum !== 'string' || !SHA256_HEX.test(shasum)) {
        throw bad(answer, 'the download answer has no filename, download_url or SHA-256 shasum');
      }
      const download = new URL(downloadUrl, answer.url);
      download.username = '';
      download.password = '';
      const artifacts = new Map<string, RegistryArtifact>();
      const add = (file: string, sha256: string) =>
        artifacts.set(file, {
          filename: file,
          url: file === filename ? download.href : new URL(encodeURIComponent(file), download).href,
          digests: [{ algorithm: 'sha256', value: sha256.toLowerCase(), encoding: 'hex' }],
        });
      add(filename, shasum);
      if (typeof shasumsUrl === 'string' && shasumsUrl !== '') {
        const sums = await http.get(new URL(shasumsUrl, answer.url).href, { accept: 'text/plain', ...(signal ? { signal } : {}) });
        if (sums.status === 200) {
          for (const line of sums.body.split('\n')) {
            const match = /^([0-9a-fA-F]{64})\s+\*?(\S+)\s*$/.exec(line);
            if (match?.[1] && match[2]?.endsWith('.zip')) add(match[2], match[1]);
          }
          if (artifacts.get(filename)?.digests[0]?.value !== shasum.toLowerCase()) {
            throw bad(sums, `SHA256SUMS disagrees with the download answer's shasum of ${filename}`);
          }
        }
      }
      const zip = await zipOf(download.href, signal);
      if (zip !== undefined) {
        if (createHash('sha256').update(zip).digest('hex') !== shasum.toLowerCase())
          throw bad(answer, `the SHA-256 of ${filename} is not its shasum`);
        const files = unzipBounded(zip, `${download.origin}${download.pathname}`, filename);
        const entries = Object.entries(files).filter(([file]) => !file.endsWith('/'));
        artifacts.get(filename)?.digests.push({ algorithm: 'h1', value: goDirHash1(entries), encoding: 'prefixed' });
      }
      details.artifacts = [...artifacts.values()].sort((a, b) => (a.filename < b.filename ? -1 : a.filename > b.filename ? 1 : 0));
      return details;
    },
    stats: (): RegistryRequestStats => {
      const own = http.stats();
      if (zips === http) return own;
      const other = zips.stats();
      return {
        requests: own.requests + other.requests,
        notModified: own.notModified + other.notModified,
        fullDownloads: own.fullDownloads + other.fullDownloads,
      };
    },
    close: async () => {
      await Promise.all([http.close(), zips === http ? undefined : zips.close()]);
    },
  };
}
