import { createHash } from 'node:crypto';
import { isDeepStrictEqual } from 'node:util';
import { type Answer, json, type Protocol, type ProtocolContext, segmentsOf } from '../protocol.ts';
import { artifactBytes, artifactDigests, newestFirst, type StoredPackage, type StoredVersion } from '../registry.ts';
import { composerNormalize } from '../versions.ts';

const MINIFIED = 'composer/2.0';

/** Packagist's `time`: `2020-05-22T08:12:19+00:00`. */
const composerTime = (date: Date) => `${date.toISOString().slice(0, 19)}+00:00`;

/** One version as Composer sees it, expanded (not minified). */
function versionDocument(pkg: StoredPackage, v: StoredVersion, context: ProtocolContext): Record<string, unknown> {
  const digests = artifactDigests('composer', pkg.name, v.version);
  const reference = createHash('sha1').update(`${pkg.name}@${v.version}`).digest('hex');
  return {
    name: pkg.name,
    description: pkg.summary,
    keywords: [],
    homepage: pkg.homepage ?? pkg.repository ?? '',
    version: v.version,
    version_normalized: composerNormalize(v.version),
    license: [pkg.license],
    authors: [],
    ...(pkg.repository ? { source: { url: `${pkg.repository}.git`, type: 'git', reference } } : {}),
    dist: { url: `${context.baseUrl}/dists/${pkg.name}/${v.version}.zip`, type: 'zip', shasum: digests.sha1, reference },
    type: 'library',
    support: pkg.repository ? { source: `${pkg.repository}/tree/${v.version}`, issues: `${pkg.repository}/issues` } : {},
    time: composerTime(v.releasedAt),
    require: { ...v.dependencies },
    ...(pkg.abandoned === false ? {} : { abandoned: pkg.abandoned }),
  };
}

/**
 * Composer's `MetadataMinifier::minify`: the first version whole, then for each next one only the keys whose value
 * changed, and `"__unset"` for keys the previous version had and this one lacks.
 */
export function minifyVersions(versions: readonly Record<string, unknown>[]): Record<string, unknown>[] {
  const last: Record<string, unknown> = {};
  return versions.map((version) => {
    const minified: Record<string, unknown> = {};
    for (const [key, value] of Object.entries(version)) {
      if (!(key in last) || !isDeepStrictEqual(last[key], value)) {
        minified[key] = value;
        last[key] = value;
      }
    }
    for (const key of Object.keys(last)) {
      if (!(key in version)) {
        minified[key] = '__unset';
        delete last[key];
      }
    }
    return minified;
  });
}

const error = (status: number, message: string): Answer => json(status, { status: 'error', message });

/**
 * Packagist's metadata API v2 (https://packagist.org/apidoc#get-package-metadata-v2): `GET /p2/{vendor}/{package}.json`
 * the tagged versions, newest first, minified (`{"minified":"composer/2.0","packages":{"vendor/pkg":[…]}}`);
 * `GET /p2/{vendor}/{package}~dev.json` the dev branches (none here: an empty list); `GET /packages.json` the repository
 * root with `metadata-url`, so Composer can use the emulator as a repository; dists (the synthetic zip bytes) under
 * `/dists/{vendor}/{package}/{version}.zip`. Each entry's `require` is the version's stored dependencies, its `dist`
 * (and `source`, with a repository) `reference` the SHA-1 of `{name}@{version}`, its `dist.shasum` the zip's SHA-1. Names are case-insensitive. `abandoned` is per package (the seed's
 * `abandoned`), so a yank removes the version as deleting its tag does on Packagist. Errors:
 * `{"status":"error","message":"…"}`.
 */
export const packagistProtocol: Protocol = {
  prefix: 'packagist',
  packageManager: 'composer',
  error,
  answer(path, context) {
    const segments = segmentsOf(path);
    if (!segments) return error(404, 'Not Found');
    if (segments.length === 1 && segments[0] === 'packages.json') {
      return json(200, { packages: [], 'metadata-url': `${context.baseUrl}/p2/%package%.json` }, context.startedAt);
    }
    if (segments.length === 4 && segments[0] === 'dists' && segments[3]?.endsWith('.zip')) {
      const pkg = context.registry.find('composer', `${segments[1]}/${segments[2]}`, context.privateScope);
      const v = pkg?.versions.find((x) => `${x.version}.zip` === segments[3] && x.yanked === false);
      if (!pkg || !v) return error(404, 'Not Found');
      return {
        status: 200,
        contentType: 'application/zip',
        body: artifactBytes('composer', pkg.name, v.version),
        lastModified: v.releasedAt,
      };
    }
    const match = segments.length === 3 && segments[0] === 'p2' ? /^(.+?)(~dev)?\.json$/.exec(segments[2] ?? '') : null;
    const pkg = match && context.registry.find('composer', `${segments[1]}/${match[1]}`, context.privateScope);
    if (!match || !pkg) return error(404, 'Package not found');
    const versions = match[2] ? [] : newestFirst(pkg).filter((v) => v.yanked === false);
    return json(
      200,
      { packages: { [pkg.name]: minifyVersions(versions.map((v) => versionDocument(pkg, v, context))) }, minified: MINIFIED },
      pkg.modifiedAt,
    );
  },
  versionEntry: versionDocument,
  metadataUrl: (pkg, context) => `${context.baseUrl}/p2/${pkg.name}.json`,
};
