import { createHash } from 'node:crypto';
import { type Answer, json, type Protocol, type ProtocolContext, segmentsOf } from '../protocol.ts';
import { artifactBytes, artifactDigests, latestVersion, newestFirst, type StoredPackage, type StoredVersion } from '../registry.ts';

/**
 * The inner checksum of a release (Hex's SHA-256 over the tarball's `VERSION`, `metadata.config` and `contents.tar.gz`,
 * https://github.com/hexpm/specifications/blob/main/package_tarball.md): here the SHA-256 (hex) of the UTF-8 text
 * `hex-inner:<name>@<version>`, so tests can compute it. The outer checksum is the SHA-256 of the artifact bytes.
 */
export function hexInnerChecksum(name: string, version: string): string {
  return createHash('sha256').update(`hex-inner:${name}@${version}`).digest('hex');
}

const retirement = (v: StoredVersion) => (v.yanked === false ? null : { reason: 'other', message: v.yanked });

/** A release of `GET /api/packages/{name}/releases/{version}`. */
function releaseDocument(pkg: StoredPackage, v: StoredVersion, context: ProtocolContext) {
  return {
    version: v.version,
    checksum: artifactDigests('hex', pkg.name, v.version).sha256,
    inner_checksum: hexInnerChecksum(pkg.name, v.version),
    has_docs: false,
    inserted_at: v.releasedAt.toISOString(),
    updated_at: v.releasedAt.toISOString(),
    retirement: retirement(v),
    meta: { app: pkg.name, build_tools: ['mix'], elixir: '~> 1.11' },
    requirements: Object.fromEntries(
      Object.entries(v.dependencies)
        .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
        .map(([name, requirement]) => [name, { app: name, optional: false, requirement }]),
    ),
    package_url: `${context.baseUrl}/api/packages/${pkg.name}`,
    url: `${context.baseUrl}/api/packages/${pkg.name}/releases/${v.version}`,
    html_url: null,
    docs_html_url: null,
  };
}

/** `GET /api/packages/{name}`: `releases` (newest first, `version`, `inserted_at`, `url`), `retirements`, `meta.links`. */
function packageDocument(pkg: StoredPackage, context: ProtocolContext) {
  const stable = latestVersion(pkg);
  const links: Record<string, string> = {};
  if (pkg.repository) links.GitHub = pkg.repository;
  if (pkg.changelog) links.Changelog = pkg.changelog;
  if (pkg.homepage) links.Homepage = pkg.homepage;
  return {
    name: pkg.name,
    repository: context.privateScope ? 'acme' : 'hexpm',
    url: `${context.baseUrl}/api/packages/${pkg.name}`,
    html_url: null,
    docs_html_url: null,
    meta: { description: pkg.summary, licenses: [pkg.license], links },
    downloads: {},
    inserted_at: pkg.createdAt.toISOString(),
    updated_at: pkg.modifiedAt.toISOString(),
    latest_version: newestFirst(pkg)[0]?.version ?? null,
    latest_stable_version: stable && !stable.prerelease ? stable.version : null,
    releases: newestFirst(pkg).map((v) => ({
      version: v.version,
      has_docs: false,
      inserted_at: v.releasedAt.toISOString(),
      url: `${context.baseUrl}/api/packages/${pkg.name}/releases/${v.version}`,
    })),
    retirements: Object.fromEntries(newestFirst(pkg).flatMap((v) => (v.yanked === false ? [] : [[v.version, retirement(v)]]))),
  };
}

const error = (status: number, message: string): Answer => json(status, { status, message });

/**
 * hex.pm's HTTP API (https://github.com/hexpm/specifications/blob/main/apiary.apib) under `/api/` (client base URL
 * `<origin>/hex/api/`): `GET /api/packages/{name}` and `GET /api/packages/{name}/releases/{version}` (with `checksum`,
 * the tarball's SHA-256, and `inner_checksum`, see {@link hexInnerChecksum}); and the repository's tarballs
 * `GET /repo/tarballs/{name}-{version}.tar` (the artifact bytes). Yanked versions are retired (`retirements`, reason
 * `other`). Names compare exactly. Errors: `{"status":404,"message":"Page not found"}`.
 */
export const hexProtocol: Protocol = {
  prefix: 'hex',
  clientPath: 'api/',
  packageManager: 'hex',
  error,
  answer(path, context) {
    const segments = segmentsOf(path);
    if (!segments) return error(404, 'Page not found');
    const [area, kind, name = '', releases, version] = segments;
    if (area === 'repo' && kind === 'tarballs' && segments.length === 3) {
      const match = /^([a-z][a-z0-9_]*)-(.+)\.tar$/.exec(name);
      const pkg = match ? context.registry.find('hex', match[1] ?? '', context.privateScope) : undefined;
      const v = pkg?.versions.find((x) => x.version === match?.[2]);
      if (!pkg || !v) return error(404, 'Page not found');
      return {
        status: 200,
        contentType: 'application/octet-stream',
        body: artifactBytes('hex', pkg.name, v.version),
        lastModified: v.releasedAt,
      };
    }
    if (area !== 'api' || kind !== 'packages' || !name) return error(404, 'Page not found');
    const pkg = context.registry.find('hex', name, context.privateScope);
    if (!pkg) return error(404, 'Page not found');
    if (segments.length === 3) return json(200, packageDocument(pkg, context), pkg.modifiedAt);
    if (segments.length === 5 && releases === 'releases') {
      const v = pkg.versions.find((x) => x.version === version);
      if (!v) return error(404, 'Page not found');
      return json(200, releaseDocument(pkg, v, context), pkg.modifiedAt);
    }
    return error(404, 'Page not found');
  },
  versionEntry: (pkg, v, context) => releaseDocument(pkg, v, context),
  metadataUrl: (pkg, context) => `${context.baseUrl}/api/packages/${pkg.name}`,
};
