import { type Answer, json, type Protocol, type ProtocolContext, segmentsOf, text } from '../protocol.ts';
import { artifactBytes, artifactDigests, newestFirst, type StoredPackage, type StoredVersion } from '../registry.ts';

/** Cargo's index path of a crate (lowercased): `1/a`, `2/ab`, `3/a/abc`, `ab/cd/abcd…`. */
export function cratesIndexPath(name: string): string {
  const lower = name.toLowerCase();
  if (lower.length <= 2) return `${lower.length}/${lower}`;
  if (lower.length === 3) return `3/${lower[0]}/${lower}`;
  return `${lower.slice(0, 2)}/${lower.slice(2, 4)}/${lower}`;
}

/**
 * One line of the index file: `name`, `vers`, `deps` (the stored dependencies as `normal`, non-optional, default-feature
 * dependencies on the same registry, by name), `cksum` (sha256 hex of the `.crate`), `features`, `yanked`.
 */
function indexEntry(pkg: StoredPackage, v: StoredVersion) {
  return {
    name: pkg.name,
    vers: v.version,
    deps: Object.entries(v.dependencies)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
      .map(([name, req]) => ({ name, req, features: [], optional: false, default_features: true, target: null, kind: 'normal' })),
    cksum: artifactDigests('cargo', pkg.name, v.version).sha256,
    features: {},
    yanked: v.yanked !== false,
    links: null,
  };
}

function apiVersion(pkg: StoredPackage, v: StoredVersion) {
  const digests = artifactDigests('cargo', pkg.name, v.version);
  return {
    id: v.id,
    crate: pkg.name,
    num: v.version,
    dl_path: `/api/v1/crates/${pkg.name}/${v.version}/download`,
    readme_path: `/api/v1/crates/${pkg.name}/${v.version}/readme`,
    created_at: v.releasedAt.toISOString(),
    updated_at: v.releasedAt.toISOString(),
    downloads: 0,
    features: {},
    yanked: v.yanked !== false,
    yank_message: v.yanked === false || v.yanked === '' ? null : v.yanked,
    license: pkg.license,
    crate_size: digests.size,
    published_by: null,
    checksum: digests.sha256,
    rust_version: null,
  };
}

/** `GET /api/v1/crates/{name}`: `crate` (with `repository`, `max_version`, …) and `versions`, highest first. */
function crateDocument(pkg: StoredPackage) {
  const versions = newestFirst(pkg);
  const live = versions.filter((v) => v.yanked === false);
  const newest = [...live].sort((a, b) => b.releasedAt.getTime() - a.releasedAt.getTime())[0];
  return {
    crate: {
      id: pkg.name,
      name: pkg.name,
      description: pkg.summary,
      homepage: pkg.homepage ?? null,
      documentation: null,
      repository: pkg.repository ?? null,
      created_at: pkg.createdAt.toISOString(),
      updated_at: pkg.modifiedAt.toISOString(),
      downloads: 0,
      recent_downloads: 0,
      max_version: live[0]?.version ?? '0.0.0',
      max_stable_version: live.find((v) => !v.prerelease)?.version ?? null,
      newest_version: newest?.version ?? '0.0.0',
      // crates.io's default version: the highest stable one not yanked, else the highest not yanked.
      default_version: live.find((v) => !v.prerelease)?.version ?? live[0]?.version ?? null,
      versions: versions.map((v) => v.id),
      keywords: [],
      categories: [],
      exact_match: false,
    },
    versions: versions.map((v) => apiVersion(pkg, v)),
    keywords: [],
    categories: [],
  };
}

const error = (status: number, message: string): Answer => json(status, { errors: [{ detail: message }] });

/**
 * crates.io: the sparse index (https://doc.rust-lang.org/cargo/reference/registry-index.html) under `/index/`:
 * `config.json` (`dl`, `api`; `auth-required` on the private registry) and `/index/{prefix}/{name}` (one JSON object per
 * version, in publish order, yanked ones with `yanked: true`); the web API `GET /api/v1/crates/{name}` and the download
 * `GET /api/v1/crates/{name}/{version}/download` (the synthetic `.crate` bytes, served directly rather than redirected).
 * Names are case-insensitive. Errors: `{"errors":[{"detail":"…"}]}`.
 */
export const cratesProtocol: Protocol = {
  prefix: 'crates',
  clientPath: 'index/',
  packageManager: 'cargo',
  error,
  answer(path, context) {
    const segments = segmentsOf(path);
    if (!segments || segments.length < 2) return error(404, 'Not Found');
    if (segments[0] === 'index') {
      if (segments.length === 2 && segments[1] === 'config.json') {
        return json(
          200,
          { dl: `${context.baseUrl}/api/v1/crates`, api: context.baseUrl, ...(context.privateScope ? { 'auth-required': true } : {}) },
          context.startedAt,
        );
      }
      const name = segments.at(-1) ?? '';
      const pkg = context.registry.find('cargo', name, context.privateScope);
      if (!pkg || segments.slice(1).join('/') !== cratesIndexPath(name)) return text(404, 'not found');
      return text(200, `${pkg.versions.map((v) => JSON.stringify(indexEntry(pkg, v))).join('\n')}\n`, pkg.modifiedAt);
    }
    const [api, v1, crates, name, version, download] = segments;
    if (api !== 'api' || v1 !== 'v1' || crates !== 'crates' || !name) return error(404, 'Not Found');
    const pkg = context.registry.find('cargo', name, context.privateScope);
    if (!pkg) return error(404, `crate \`${name}\` does not exist`);
    if (segments.length === 4) return json(200, crateDocument(pkg), pkg.modifiedAt);
    const v = pkg.versions.find((x) => x.version === version);
    if (!v) return error(404, `crate \`${name}\` does not have a version \`${version}\``);
    if (segments.length === 6 && download === 'download') {
      return {
        status: 200,
        contentType: 'application/gzip',
        body: artifactBytes('cargo', pkg.name, v.version),
        lastModified: v.releasedAt,
      };
    }
    if (segments.length === 5) return json(200, { version: apiVersion(pkg, v) }, pkg.modifiedAt);
    return error(404, 'Not Found');
  },
  versionEntry: (pkg, v) => indexEntry(pkg, v),
  metadataUrl: (pkg, context: ProtocolContext) => `${context.baseUrl}/index/${cratesIndexPath(pkg.name)}`,
};
