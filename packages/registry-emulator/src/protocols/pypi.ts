import { createHash } from 'node:crypto';
import { type Answer, json, type Protocol, type ProtocolContext, segmentsOf } from '../protocol.ts';
import { artifactBytes, latestVersion, type StoredPackage, type StoredVersion } from '../registry.ts';
import { pep503 } from '../versions.ts';

/** The sdist's file name after PEP 625: the normalised name with `_`, then the version (`django-3.0.7.tar.gz`). */
const sdistName = (pkg: StoredPackage, v: StoredVersion) => `${pep503(pkg.name).replace(/-/g, '_')}-${v.version}.tar.gz`;

/**
 * The wheel's file name after the binary distribution format
 * (https://packaging.python.org/en/latest/specifications/binary-distribution-format/#file-name-convention): the
 * normalised name with `_`, the version, and the tags of a pure-Python wheel (`django-3.0.7-py3-none-any.whl`).
 */
const wheelName = (pkg: StoredPackage, v: StoredVersion) => `${pep503(pkg.name).replace(/-/g, '_')}-${v.version}-py3-none-any.whl`;

/**
 * The bytes of a release's file: the sdist's are {@link artifactBytes} (`pip:{name}@{version}`); the wheel's the same
 * text followed by `#py3-none-any`, so that the two files have different digests. Undefined for another file name.
 */
export function pypiFileBytes(pkg: StoredPackage, v: StoredVersion, filename: string): Buffer | undefined {
  const bytes = artifactBytes('pip', pkg.name, v.version);
  if (filename === sdistName(pkg, v)) return bytes;
  if (filename === wheelName(pkg, v)) return Buffer.concat([bytes, Buffer.from('#py3-none-any', 'utf8')]);
  return undefined;
}

/** `requires_dist` of a release: each stored dependency as a PEP 508 string (`urllib3<3,>=1.21.1`), null when none. */
const requiresDist = (v: StoredVersion) => {
  const entries = Object.entries(v.dependencies).map(([name, requirement]) =>
    requirement.trim() === '*' ? name : `${name}${/^[\s(;@]/.test(requirement) ? ' ' : ''}${requirement.trim()}`,
  );
  return entries.length > 0 ? entries : null;
};

/** PyPI's `upload_time_iso_8601`: microseconds and `Z` (`2020-06-03T09:37:43.125000Z`). */
const isoMicros = (date: Date) => date.toISOString().replace('Z', '000Z');

/** A release's files: the sdist, then the wheel; digests MD5 and SHA-256 of {@link pypiFileBytes}. */
function files(pkg: StoredPackage, v: StoredVersion, context: ProtocolContext) {
  return [
    { filename: sdistName(pkg, v), packagetype: 'sdist', python_version: 'source' },
    { filename: wheelName(pkg, v), packagetype: 'bdist_wheel', python_version: 'py3' },
  ].map(({ filename, packagetype, python_version }) => {
    const bytes = pypiFileBytes(pkg, v, filename) as Buffer;
    const md5 = createHash('md5').update(bytes).digest('hex');
    return {
      comment_text: '',
      digests: { md5, sha256: createHash('sha256').update(bytes).digest('hex') },
      downloads: -1,
      filename,
      has_sig: false,
      md5_digest: md5,
      packagetype,
      python_version,
      requires_python: null,
      size: bytes.length,
      upload_time: v.releasedAt.toISOString().slice(0, 19),
      upload_time_iso_8601: isoMicros(v.releasedAt),
      url: `${context.baseUrl}/files/${pep503(pkg.name)}/${filename}`,
      yanked: v.yanked !== false,
      yanked_reason: v.yanked === false || v.yanked === '' ? null : v.yanked,
    };
  });
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
    requires_dist: requiresDist(v),
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
 * `last_serial`, `vulnerabilities`), `GET /pypi/{name}/{version}/json` one release (`info` with `requires_dist` from
 * the version's stored dependencies, `urls`), and the files under `/files/{normalised name}/{file}`. Each release has
 * an sdist, `{name}-{version}.tar.gz`, and a wheel, `{name}-{version}-py3-none-any.whl`, whose digests (MD5, SHA-256;
 * no BLAKE2b-256: Node's crypto has no BLAKE2b of 256 bits) are those of {@link pypiFileBytes}. Names are matched after PEP 503 (`/pypi/DJANGO/json` serves `Django`, no redirect).
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
      const v = pkg?.versions.find((x) => pypiFileBytes(pkg, x, segments[2] ?? '') !== undefined);
      const body = pkg && v ? pypiFileBytes(pkg, v, segments[2] ?? '') : undefined;
      if (!pkg || !v || !body) return error(404, 'Not Found');
      return {
        status: 200,
        contentType: 'application/octet-stream',
        body,
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
