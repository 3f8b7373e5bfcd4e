import { type Answer, json, type Protocol, type ProtocolContext, segmentsOf } from '../protocol.ts';
import { artifactBytes, artifactDigests, latestVersion, newestFirst, type StoredPackage, type StoredVersion } from '../registry.ts';

const DEFAULT_DEPRECATION = 'This version has been deprecated';

const tarballName = (name: string, version: string) => `${name.split('/').pop()}-${version}.tgz`;

function versionDocument(pkg: StoredPackage, v: StoredVersion, context: ProtocolContext) {
  const digests = artifactDigests(pkg.packageManager, pkg.name, v.version);
  return {
    name: pkg.name,
    version: v.version,
    description: pkg.summary,
    license: pkg.license,
    ...(pkg.homepage || pkg.repository ? { homepage: pkg.homepage ?? pkg.repository } : {}),
    ...(pkg.repository ? { repository: { type: 'git', url: `git+${pkg.repository}.git` } } : {}),
    dependencies: { ...v.dependencies },
    _id: `${pkg.name}@${v.version}`,
    dist: {
      tarball: `${context.baseUrl}/${pkg.name}/-/${tarballName(pkg.name, v.version)}`,
      shasum: digests.sha1,
      integrity: `sha512-${digests.sha512}`,
      fileCount: 1,
      unpackedSize: digests.size,
    },
    ...(v.yanked === false ? {} : { deprecated: v.yanked || DEFAULT_DEPRECATION }),
  };
}

function distTags(pkg: StoredPackage): Record<string, string> {
  const latest = latestVersion(pkg, { skipYanked: false });
  const tags: Record<string, string> = latest ? { latest: latest.version } : {};
  const newest = newestFirst(pkg)[0];
  if (newest?.prerelease && latest && newest !== latest && !latest.prerelease) tags.next = newest.version;
  return tags;
}

/**
 * The full packument (https://github.com/npm/registry/blob/main/docs/responses/package-metadata.md): `_id`, `name`,
 * `description`, `dist-tags` (`latest`: the highest stable version, deprecated or not, as npm keeps it; `next`: a newer
 * pre-release), `versions` in publish order, `time` (`created`, `modified`, one entry per version), `repository`,
 * `homepage`, `license`. Served whatever the `Accept` (the abbreviated form is a subset of it but for `modified`).
 */
function packument(pkg: StoredPackage, context: ProtocolContext) {
  const versions = Object.fromEntries(pkg.versions.map((v) => [v.version, versionDocument(pkg, v, context)]));
  const time: Record<string, string> = { created: pkg.createdAt.toISOString(), modified: pkg.modifiedAt.toISOString() };
  for (const v of pkg.versions) time[v.version] = v.releasedAt.toISOString();
  return {
    _id: pkg.name,
    name: pkg.name,
    description: pkg.summary,
    'dist-tags': distTags(pkg),
    versions,
    time,
    modified: pkg.modifiedAt.toISOString(),
    license: pkg.license,
    ...(pkg.homepage || pkg.repository ? { homepage: pkg.homepage ?? pkg.repository } : {}),
    ...(pkg.repository ? { repository: { type: 'git', url: `git+${pkg.repository}.git` } } : {}),
    readme: '',
  };
}

const error = (status: number, message: string): Answer => json(status, { error: message });

/**
 * The npm registry (https://github.com/npm/registry/blob/main/docs/REGISTRY-API.md): `GET /{name}` (scoped names as
 * `@scope%2fname` or `@scope/name`) the packument, `GET /{name}/{version|tag}` one version's document,
 * `GET /{name}/-/{basename}-{version}.tgz` the tarball (the synthetic artifact bytes). Errors: `{"error":"Not found"}`.
 * A yanked version is deprecated: `deprecated` carries the reason. Each version document's `dependencies` are the
 * version's seeded (or published) runtime dependencies, name → range.
 */
export const npmProtocol: Protocol = {
  prefix: 'npm',
  packageManager: 'npm_and_yarn',
  error,
  answer(path, context) {
    const segments = segmentsOf(path);
    if (!segments || segments.length === 0) return error(404, 'Not found');
    let name: string;
    let rest: string[];
    const first = segments[0] ?? '';
    if (first.startsWith('@') && !first.includes('/')) {
      name = `${first}/${segments[1] ?? ''}`;
      rest = segments.slice(2);
    } else {
      name = first;
      rest = segments.slice(1);
    }
    const pkg = context.registry.find('npm_and_yarn', name, context.privateScope);
    if (!pkg) return error(404, 'Not found');
    if (rest.length === 0) return json(200, packument(pkg, context), pkg.modifiedAt);
    if (rest.length === 1) {
      const wanted = distTags(pkg)[rest[0] ?? ''] ?? rest[0];
      const v = pkg.versions.find((x) => x.version === wanted);
      if (!v) return error(404, `version not found: ${rest[0]}`);
      return json(200, versionDocument(pkg, v, context), pkg.modifiedAt);
    }
    if (rest.length === 2 && rest[0] === '-') {
      const v = pkg.versions.find((x) => tarballName(pkg.name, x.version) === rest[1]);
      if (!v) return error(404, 'Not found');
      return {
        status: 200,
        contentType: 'application/octet-stream',
        body: artifactBytes(pkg.packageManager, pkg.name, v.version),
        lastModified: v.releasedAt,
      };
    }
    return error(404, 'Not found');
  },
  versionEntry: versionDocument,
  metadataUrl: (pkg, context) => `${context.baseUrl}/${pkg.name.replace('/', '%2f')}`,
};
