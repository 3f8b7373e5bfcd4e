import { type Answer, json, type Protocol, type ProtocolContext, segmentsOf, text } from '../protocol.ts';
import { artifactBytes, artifactDigests, latestVersion, newestFirst, type StoredPackage, type StoredVersion } from '../registry.ts';

const NOT_FOUND = 'This rubygem could not be found.';
const VERSION_NOT_FOUND = 'This version could not be found.';

function uris(pkg: StoredPackage) {
  return {
    homepage_uri: pkg.homepage ?? pkg.repository ?? null,
    source_code_uri: pkg.repository ?? null,
    changelog_uri: pkg.changelog ?? null,
  };
}

function metadataOf(pkg: StoredPackage): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [key, value] of Object.entries(uris(pkg))) if (value) out[key] = value;
  return out;
}

/** One entry of `versions/{name}.json`. */
function versionEntry(pkg: StoredPackage, v: StoredVersion) {
  return {
    authors: '',
    built_at: v.releasedAt.toISOString(),
    created_at: v.releasedAt.toISOString(),
    description: pkg.summary,
    downloads_count: 0,
    metadata: metadataOf(pkg),
    number: v.version,
    summary: pkg.summary,
    platform: 'ruby',
    rubygems_version: '>= 0',
    ruby_version: '>= 0',
    prerelease: v.prerelease,
    licenses: [pkg.license],
    requirements: [],
    sha: artifactDigests('bundler', pkg.name, v.version).sha256,
  };
}

/** `gems/{name}.json`: the gem and its latest version (highest stable not yanked). */
function gem(pkg: StoredPackage, v: StoredVersion, context: ProtocolContext) {
  return {
    name: pkg.name,
    downloads: 0,
    version: v.version,
    version_created_at: v.releasedAt.toISOString(),
    version_downloads: 0,
    platform: 'ruby',
    authors: '',
    info: pkg.summary,
    licenses: [pkg.license],
    metadata: metadataOf(pkg),
    yanked: false,
    sha: artifactDigests('bundler', pkg.name, v.version).sha256,
    project_uri: `${context.baseUrl}/gems/${pkg.name}`,
    gem_uri: `${context.baseUrl}/gems/${pkg.name}-${v.version}.gem`,
    ...uris(pkg),
    wiki_uri: null,
    documentation_uri: null,
    mailing_list_uri: null,
    bug_tracker_uri: null,
    funding_uri: null,
    dependencies: { development: [], runtime: runtimeDependencies(v) },
  };
}

/** The version's runtime dependencies as rubygems.org lists them: `[{ name, requirements }]`, by name. */
function runtimeDependencies(v: StoredVersion) {
  return Object.entries(v.dependencies)
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
    .map(([name, requirements]) => ({ name, requirements }));
}

/**
 * `api/v2/rubygems/{name}/versions/{number}.json`: rubygems.org's `public_version_payload`, the gem's fields for that
 * version (`name`, `version`, `sha`, `gem_uri`, `dependencies`) merged with the version entry (`number`, `platform`, …).
 */
function versionPayload(pkg: StoredPackage, v: StoredVersion, context: ProtocolContext) {
  return { ...gem(pkg, v, context), ...versionEntry(pkg, v) };
}

const error = (status: number, message: string): Answer => text(status, message);

/**
 * RubyGems.org's API (https://guides.rubygems.org/rubygems-org-api/): `GET /api/v1/versions/{name}.json` (every
 * version not yanked, highest first: `number`, `platform` `ruby`, `created_at`, `prerelease`, `sha` (sha256 hex of the
 * synthetic `.gem` bytes), `summary`, …), `GET /api/v1/gems/{name}.json` (the latest version, `source_code_uri`,
 * `changelog_uri`, `homepage_uri`, `sha`), `GET /api/v2/rubygems/{name}/versions/{number}.json` (one version: the gem's
 * fields merged with its version entry, `dependencies.runtime` `[{ name, requirements }]` from the stored dependencies)
 * and the gems themselves under `/gems/{name}-{version}.gem`. A yanked version disappears, as on RubyGems.org; a gem
 * whose versions are all yanked is not found. Errors are plain text as rubygems.org writes them (`This rubygem could not
 * be found.`, `This version could not be found.` for an unknown number of a known gem).
 */
export const rubygemsProtocol: Protocol = {
  prefix: 'rubygems',
  packageManager: 'bundler',
  error,
  answer(path, context) {
    const segments = segmentsOf(path);
    if (!segments) return error(404, NOT_FOUND);
    if (segments.length === 2 && segments[0] === 'gems' && segments[1]?.endsWith('.gem')) {
      const file = segments[1];
      const match = /^(.+)-([0-9][^-]*)\.gem$/.exec(file);
      const pkg = match && context.registry.find('bundler', match[1] ?? '', context.privateScope);
      const v = pkg?.versions.find((x) => x.version === match?.[2] && x.yanked === false);
      if (!pkg || !v) return error(404, NOT_FOUND);
      return {
        status: 200,
        contentType: 'application/octet-stream',
        body: artifactBytes('bundler', pkg.name, v.version),
        lastModified: v.releasedAt,
      };
    }
    if (
      segments.length === 6 &&
      segments[0] === 'api' &&
      segments[1] === 'v2' &&
      segments[2] === 'rubygems' &&
      segments[4] === 'versions'
    ) {
      const pkg = context.registry.find('bundler', segments[3] ?? '', context.privateScope);
      if (!pkg?.versions.some((x) => x.yanked === false)) return error(404, NOT_FOUND);
      const number = segments[5]?.endsWith('.json') ? segments[5].slice(0, -'.json'.length) : undefined;
      const v = pkg.versions.find((x) => x.version === number && x.yanked === false);
      if (!v) return error(404, VERSION_NOT_FOUND);
      return json(200, versionPayload(pkg, v, context), pkg.modifiedAt);
    }
    const [api, v1, kind, file] = segments;
    if (segments.length !== 4 || api !== 'api' || v1 !== 'v1' || !file?.endsWith('.json')) return error(404, NOT_FOUND);
    const pkg = context.registry.find('bundler', file.slice(0, -'.json'.length), context.privateScope);
    const indexed = pkg ? newestFirst(pkg).filter((v) => v.yanked === false) : [];
    if (!pkg || indexed.length === 0) return error(404, NOT_FOUND);
    if (kind === 'versions')
      return json(
        200,
        indexed.map((v) => versionEntry(pkg, v)),
        pkg.modifiedAt,
      );
    if (kind === 'gems') return json(200, gem(pkg, latestVersion(pkg) as StoredVersion, context), pkg.modifiedAt);
    return error(404, NOT_FOUND);
  },
  versionEntry,
  metadataUrl: (pkg, context) => `${context.baseUrl}/api/v1/versions/${pkg.name}.json`,
};
