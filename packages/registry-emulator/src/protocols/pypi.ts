import { type Answer, json, type Protocol, type ProtocolContext, segmentsOf } from '../protocol.ts';
import { artifactBytes, artifactDigests, latestVersion, type StoredPackage, type StoredVersion } from '../registry.ts';
import { pep503 } from '../versions.ts';

/** The sdist's file name after PEP 625: the normalised name with `_`, then the version (`django-3.0.7.tar.gz`). */
const sdistName = (pkg: StoredPackage, v: StoredVersion) => `${pep503(pkg.name).replace(/-/g, '_')}-${v.version}.tar.gz`;

/** PyPI's `upload_time_iso_8601`: microseconds and `Z` (`2020-06-03T09:37:43.125000Z`). */
const isoMicros = (date: Date) => date.toISOString().replace('Z', '000Z');

function files(pkg: StoredPackage, v: StoredVersion, context: ProtocolContext) {
  const digests = artifactDigests(pkg.packageManager, pkg.name, v.version);
  const filename = sdistName(pkg, v);
  return [
    {
      comment_text: '',
      digests: { md5: digests.md5, sha256: digests.sha256 },
      downloads: -1,
      filename,
      has_sig: false,
      md5_digest: digests.md5,
      packagetype: 'sdist',
      python_version: 'source',
      requires_python: null,
      size: digests.size,
      upload_time: v.releasedAt.toISOString().slice(0, 19),
      upload_time_iso_8601: isoMicros(v.releasedAt),
      url: `${context.baseUrl}/files/${pep503(pkg.name)}/${filename}`,
      yanked: v.yanked !== false,
      yanked_reason: v.yanked === false || v.yanked === '' ? null : v.yanked,
    },
  ];
}

function info(pkg: StoredPackage, v: StoredVersion, context: ProtocolContext) {
  const projectUrls: Record<string, string> = {};
  if (pkg.homepage) projectUrls.Homepage = pkg.homepage;
  if (pkg.repository) projectUrls.Source = pkg.repository;
  if (pkg.changelog) projectUrls.Changelog = pkg.changelog;
  const project = `${context.baseUrl}/project/${pkg.name}/`;
  return {
    author: '',
    author_email: '',
    classifiers: [],
    description: '',
    description_content_type: null,
    docs_url: null,
    download_url: '',
    home_page: pkg.homepage ?? '',
    keywords: '',
    license: pkg.license,
    maintainer: '',
    maintainer_email: '',
    name: pkg.name,
    package_url: project,
    platform: null,
    project_url: project,
    project_urls: Object.keys(projectUrls).length > 0 ? projectUrls : null,
    release_url: `${project}${v.version}/`,
    requires_dist: null,
    requires_python: null,
    summary: pkg.summary,
    version: v.version,
    yanked: v.yanked !== false,
    yanked_reason: v.yanked === false || v.yanked === '' ? null : v.yanked,
  };
}

const error = (status: number, message: string): Answer => json(status, { message });

const lastSerial = (pkg: StoredPackage) => Math.max(...pkg.versions.map((v) => v.id));

/**
 * PyPI's JSON API (https://docs.pypi.org/api/json/): `GET /pypi/{name}/json` the project (`info` of the latest version:
 * the highest stable version not yanked; `releases`: every version's files; `urls`: the latest's files;
 * `last_serial`, `vulnerabilities`), `GET /pypi/{name}/{version}/json` one release (`info`, `urls`), and the files
 * under `/files/{normalised name}/{file}`. Each release has one sdist, `{name}-{version}.tar.gz`, whose digests are those
 * of the synthetic artifact bytes. Names are matched after PEP 503 (`/pypi/DJANGO/json` serves `Django`, no redirect).
 * A yanked release keeps its files with `yanked: true` and `yanked_reason` (PEP 592). Errors: `{"message":"Not Found"}`.
 */
export const pypiProtocol: Protocol = {
  prefix: 'pypi',
  packageManager: 'pip',
  error,
  answer(path, context) {
    const segments = segmentsOf(path);
    if (!segments) return error(404, 'Not Found');
    if (segments[0] === 'files' && segments.length === 3) {
      const pkg = context.registry.find('pip', segments[1] ?? '', context.privateScope);
      const v = pkg?.versions.find((x) => sdistName(pkg, x) === segments[2]);
      if (!pkg || !v) return error(404, 'Not Found');
      return {
        status: 200,
        contentType: 'application/octet-stream',
        body: artifactBytes('pip', pkg.name, v.version),
        lastModified: v.releasedAt,
      };
    }
    if (segments[0] !== 'pypi' || segments.at(-1) !== 'json' || (segments.length !== 3 && segments.length !== 4))
      return error(404, 'Not Found');
    const pkg = context.registry.find('pip', segments[1] ?? '', context.privateScope);
    if (!pkg) return error(404, 'Not Found');
    if (segments.length === 4) {
      const v = pkg.versions.find((x) => x.version === segments[2]);
      if (!v) return error(404, 'Not Found');
      return json(
        200,
        { info: info(pkg, v, context), last_serial: lastSerial(pkg), urls: files(pkg, v, context), vulnerabilities: [] },
        pkg.modifiedAt,
      );
    }
    const latest = latestVersion(pkg) as StoredVersion;
    return json(
      200,
      {
        info: info(pkg, latest, context),
        last_serial: lastSerial(pkg),
        releases: Object.fromEntries(pkg.versions.map((v) => [v.version, files(pkg, v, context)])),
        urls: files(pkg, latest, context),
        vulnerabilities: [],
      },
      pkg.modifiedAt,
    );
  },
  versionEntry: files,
  metadataUrl: (pkg, context) => `${context.baseUrl}/pypi/${pkg.name}/json`,
};
