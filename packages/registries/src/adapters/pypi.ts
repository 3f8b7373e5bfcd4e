import { createRegistryHttp, type RegistryAdapterOptions } from '../http/registry-http.ts';
import {
  type ArtifactDigest,
  type PackageRegistry,
  type RegistryArtifact,
  type RegistryDependency,
  RegistryError,
  type RegistryPackage,
  type RegistryVersion,
  type RegistryVersionDetails,
} from '../port.ts';
import { codeHostRepository, httpUrl, normaliseRepositoryUrl } from './source-url.ts';

/** The public Python Package Index. */
export const DEFAULT_PYPI_URL = 'https://pypi.org/';

/** A valid project name, https://packaging.python.org/en/latest/specifications/name-normalization/. */
const PROJECT_NAME = /^([A-Z0-9]|[A-Z0-9][A-Z0-9._-]*[A-Z0-9])$/i;

/**
 * A project name in PEP 503's normalised form (https://peps.python.org/pep-0503/#normalized-names): lowercase, each
 * run of `-`, `_` and `.` one `-` (`Zope.Interface` → `zope-interface`). The form PyPI's URLs and answers use.
 * @throws TypeError for what is not a valid project name (empty, white space, characters other than ASCII letters,
 *   digits, `.`, `_` and `-`, or starting or ending with punctuation)
 */
export function normalisePypiName(name: string): string {
  if (!PROJECT_NAME.test(name)) throw new TypeError(`not a Python project name: ${JSON.stringify(name)}`);
  return name.toLowerCase().replace(/[-_.]+/g, '-');
}

/**
 * A `project_urls` label in the form of the well-known-labels specification
 * (https://packaging.python.org/en/latest/specifications/well-known-project-urls/): ASCII punctuation and white space
 * removed, lowercase (`Change Log` → `changelog`, `What's New?` → `whatsnew`).
 */
const normaliseLabel = (label: string) => label.replace(/[\s!-/:-@[-`{-~]/g, '').toLowerCase();
/** The specification's labels (and aliases) of a source repository. */
const SOURCE_LABELS = new Set(['source', 'repository', 'sourcecode', 'github']);
/** The specification's `changelog` labels, then its `releasenotes`. */
const CHANGELOG_LABELS = ['changelog', 'changes', 'whatsnew', 'history', 'releasenotes'];

type Json = Record<string, unknown>;
const isRecord = (value: unknown): value is Json => typeof value === 'object' && value !== null && !Array.isArray(value);

/**
 * The PyPI JSON API adapter (`pip`): `GET {baseUrl}/pypi/{normalised name}/json` (https://docs.pypi.org/api/json/),
 * mapped onto {@link RegistryPackage}:
 * - `name`: `info.name` normalised (PEP 503);
 * - every key of `releases`; a release's time is its earliest file's `upload_time_iso_8601` (RFC 3339 UTC; null for a
 *   release without files); it is yanked when it has files and every one is yanked (PEP 592: a release is yanked as a
 *   whole, PyPI marks each file); `deprecated` is always null (PyPI has no deprecation);
 * - digests: each file's `digests.sha256` (hex, as `--hash=sha256:` and poetry.lock write it), a file's `md5` only when
 *   it has no SHA-256;
 * - `latest`: `info.version` (the version PyPI's project page shows);
 * - `sourceUrl`: the `project_urls` entry labelled Source, Repository, Source Code or GitHub (normalised like npm's
 *   `repository`, without npm's shorthands), else the repository of a GitHub, GitLab, Bitbucket or Codeberg homepage (`Homepage` or `info.home_page`), else
 *   of any other project URL on those hosts;
 * - `changelogUrl`: the `project_urls` entry labelled Changelog, Changes, What's New, History, else Release Notes.
 * The `releases` key is deprecated by PyPI in favour of the Index API but still served; mirrors and private indexes
 * (devpi, Artifactory, Nexus) serve the same document under their base URL.
 *
 * `describeVersion(name, version)` GETs `{baseUrl}/pypi/{normalised name}/{version}/json` (the same documentation,
 * "Get a release") and maps it with {@link parseRelease}; undefined on 404/410.
 * @throws TypeError (from `fetchPackage`, `describeVersion`) for what is not a valid project name (see {@link normalisePypiName})
 * @throws RegistryError (from `fetchPackage`) as the HTTP layer does, and `bad_response` for a body that is not JSON,
 *   or whose `info.name`, `info.version`, `releases`, a file's `upload_time_iso_8601`, `yanked` or digests have the
 *   wrong shape
 */
export function createPypiRegistry(options: RegistryAdapterOptions = {}): PackageRegistry {
  const { baseUrl = DEFAULT_PYPI_URL, ...rest } = options;
  const http = createRegistryHttp({ ...rest, baseUrl });
  return {
    packageManager: 'pip',
    baseUrl: http.baseUrl.href,
    async fetchPackage(name, fetchOptions = {}) {
      const path = `pypi/${normalisePypiName(name)}/json`;
      const answer = await http.get(path, { accept: 'application/json', ...(fetchOptions.signal ? { signal: fetchOptions.signal } : {}) });
      if (answer.status !== 200) return undefined;
      return parseProject(answer.body, answer.url);
    },
    async describeVersion(name, version, fetchOptions = {}) {
      if (version.trim() === '' || /[/?#%\s]/.test(version)) return undefined;
      const path = `pypi/${normalisePypiName(name)}/${encodeURIComponent(version)}/json`;
      const answer = await http.get(path, { accept: 'application/json', ...(fetchOptions.signal ? { signal: fetchOptions.signal } : {}) });
      if (answer.status !== 200) return undefined;
      return parseRelease(answer.body, answer.url);
    },
    stats: () => http.stats(),
    close: () => http.close(),
  };
}

/** Maps a JSON API project document onto a {@link RegistryPackage}. */
function parseProject(body: string, url: string): RegistryPackage {
  const bad = (message: string) => new RegistryError('bad_response', url, `PyPI project JSON: ${message}`);
  let document: unknown;
  try {
    document = JSON.parse(body);
  } catch (error) {
    throw new RegistryError('bad_response', url, 'PyPI project JSON: not JSON', { cause: error });
  }
  if (!isRecord(document)) throw bad('not a JSON object');
  const { info, releases } = document;
  if (!isRecord(info)) throw bad('`info` is not an object');
  if (typeof info.name !== 'string' || info.name.trim() === '') throw bad('`info.name` is not a project name');
  if (info.version !== undefined && info.version !== null && typeof info.version !== 'string') throw bad('`info.version` is not a string');
  if (!isRecord(releases)) throw bad('`releases` is not an object');

  const versions: RegistryVersion[] = [];
  for (const [version, files] of Object.entries(releases)) {
    if (!Array.isArray(files)) throw bad(`releases["${version}"] is not a list`);
    versions.push(releaseOf(version, files, bad));
  }
  return {
    name: info.name
      .trim()
      .toLowerCase()
      .replace(/[-_.]+/g, '-'),
    versions,
    latest: typeof info.version === 'string' && info.version !== '' ? info.version : null,
    ...linksOf(info),
  };
}

function releaseOf(version: string, files: unknown[], bad: (message: string) => Error): RegistryVersion {
  let earliest: number | undefined;
  let allYanked = files.length > 0;
  const digests: ArtifactDigest[] = [];
  const seen = new Set<string>();
  const add = (digest: ArtifactDigest) => {
    if (seen.has(digest.value)) return;
    seen.add(digest.value);
    digests.push(digest);
  };
  for (const [index, file] of files.entries()) {
    const where = `releases["${version}"][${index}]`;
    if (!isRecord(file)) throw bad(`${where} is not an object`);
    const uploaded = typeof file.upload_time_iso_8601 === 'string' ? Date.parse(file.upload_time_iso_8601) : Number.NaN;
    if (Number.isNaN(uploaded)) throw bad(`${where}.upload_time_iso_8601 is not a time`);
    earliest = earliest === undefined ? uploaded : Math.min(earliest, uploaded);
    if (file.yanked !== undefined && typeof file.yanked !== 'boolean') throw bad(`${where}.yanked is not a boolean`);
    if (file.yanked !== true) allYanked = false;
    if (!isRecord(file.digests)) throw bad(`${where}.digests is not an object`);
    const { sha256, md5 } = file.digests;
    if (sha256 !== undefined && (typeof sha256 !== 'string' || !/^[0-9a-f]{64}$/i.test(sha256)))
      throw bad(`${where}.digests.sha256 is not a SHA-256`);
    if (md5 !== undefined && (typeof md5 !== 'string' || !/^[0-9a-f]{32}$/i.test(md5))) throw bad(`${where}.digests.md5 is not an MD5`);
    if (typeof sha256 === 'string') add({ algorithm: 'sha256', value: sha256.toLowerCase(), encoding: 'hex' });
    else if (typeof md5 === 'string') add({ algorithm: 'md5', value: md5.toLowerCase(), encoding: 'hex' });
  }
  return {
    version,
    releasedAt: earliest === undefined ? null : new Date(earliest).toISOString(),
    yanked: allYanked,
    deprecated: null,
    digests,
  };
}

/** `sourceUrl` and `changelogUrl` from `info.project_urls` and `info.home_page` (publisher data: wrong shapes are ignored). */
function linksOf(info: Json): Pick<RegistryPackage, 'sourceUrl' | 'changelogUrl'> {
  const entries = isRecord(info.project_urls)
    ? Object.entries(info.project_urls).flatMap(([label, value]) =>
        typeof value === 'string' ? [{ label: normaliseLabel(label), value }] : [],
      )
    : [];
  const homepages = [
    ...entries.filter((entry) => entry.label === 'homepage').map((entry) => entry.value),
    ...(typeof info.home_page === 'string' ? [info.home_page] : []),
  ];
  const sourceCandidates = [
    ...entries
      .filter((entry) => SOURCE_LABELS.has(entry.label))
      .map((entry) => normaliseRepositoryUrl(entry.value, { npmShorthands: false })),
    ...homepages.map(codeHostRepository),
    ...entries.map((entry) => codeHostRepository(entry.value)),
  ];
  const changelogCandidates = CHANGELOG_LABELS.flatMap((label) =>
    entries.filter((entry) => entry.label === label).map((entry) => httpUrl(entry.value)),
  );
  return {
    sourceUrl: sourceCandidates.find((url) => url !== null) ?? null,
    changelogUrl: changelogCandidates.find((url) => url !== null) ?? null,
  };
}

/** `name[extras] (specifier) ; marker` or `name[extras] @ url ; marker` (https://peps.python.org/pep-0508/), loosely. */
const REQUIREMENT = /^\s*([A-Za-z0-9](?:[A-Za-z0-9._-]*[A-Za-z0-9])?)\s*(?:\[[^\]]*\])?\s*(.*)$/s;

/**
 * One `requires_dist` entry (a PEP 508 dependency specifier, https://peps.python.org/pep-0508/) as a
 * {@link RegistryDependency}: the name as written; the version specifier without parentheses (`*` when none, or for a
 * direct `@ url` reference); the marker after `;` as `condition`; `optional` when the marker names an `extra`
 * (the requirement of an extra, installed only when it is asked for), else `runtime`. Undefined when it is not one.
 */
export function parseRequiresDist(text: string): RegistryDependency | undefined {
  const match = REQUIREMENT.exec(text);
  if (!match?.[1]) return undefined;
  const rest = match[2] ?? '';
  const isUrl = rest.trimStart().startsWith('@');
  const at = isUrl ? rest.search(/\s;/) : rest.indexOf(';');
  const spec = (at < 0 ? rest : rest.slice(0, at)).trim();
  const marker = at < 0 ? '' : rest.slice(at).replace(/^\s*;/, '').trim();
  let requirement = isUrl ? '' : spec.replace(/^\((.*)\)$/s, '$1').trim();
  if (requirement !== '' && !/^(===|~=|==|!=|<=|>=|<|>)/.test(requirement)) return undefined;
  if (requirement === '') requirement = '*';
  const dependency: RegistryDependency = {
    name: match[1],
    requirement,
    kind: /\bextra\s*==/.test(marker) ? 'optional' : 'runtime',
  };
  if (marker !== '') dependency.condition = marker;
  return dependency;
}

/**
 * Maps a release document (`GET /pypi/{name}/{version}/json`, https://docs.pypi.org/api/json/#get-a-release) onto
 * {@link RegistryVersionDetails}: `name` PEP 503 normalised, `version` `info.version`; `dependencies` each
 * `info.requires_dist` entry read by {@link parseRequiresDist}; PyPI's `null` is none for a release with a wheel (its
 * metadata lists none) and null (unknown) for one of sdists only (metadata PyPI may never have extracted); `artifacts` each of `urls` (the sdist and wheels) with its `filename`, `url`, digests `sha256`
 * (hex, as `--hash=sha256:`, poetry.lock and uv.lock write it) then `md5` (the BLAKE2b-256 PyPI also gives has no
 * {@link ArtifactDigest} algorithm), and attributes `packagetype` (`sdist`, `bdist_wheel`), `size` (bytes, decimal) and
 * `upload-time` (`upload_time_iso_8601`) where given.
 * @throws RegistryError `bad_response` for a body that is not JSON or whose `info`, `urls`, a file's `filename`, `url`
 *   or digests have the wrong shape
 */
function parseRelease(body: string, url: string): RegistryVersionDetails {
  const bad = (message: string) => new RegistryError('bad_response', url, `PyPI release JSON: ${message}`);
  let document: unknown;
  try {
    document = JSON.parse(body);
  } catch (error) {
    throw new RegistryError('bad_response', url, 'PyPI release JSON: not JSON', { cause: error });
  }
  if (!isRecord(document) || !isRecord(document.info)) throw bad('`info` is not an object');
  const { info, urls } = document;
  if (typeof info.name !== 'string' || info.name.trim() === '') throw bad('`info.name` is not a project name');
  if (typeof info.version !== 'string' || info.version === '') throw bad('`info.version` is not a version');
  if (!Array.isArray(urls)) throw bad('`urls` is not a list');
  let dependencies: RegistryDependency[] | null = null;
  if (info.requires_dist !== null && info.requires_dist !== undefined) {
    if (!Array.isArray(info.requires_dist)) throw bad('`info.requires_dist` is not a list');
    dependencies = info.requires_dist.flatMap((entry) => {
      if (typeof entry !== 'string') throw bad('`info.requires_dist` holds a non-string');
      return parseRequiresDist(entry) ?? [];
    });
  }
  const artifacts: RegistryArtifact[] = urls.map((file, index) => {
    const where = `urls[${index}]`;
    if (!isRecord(file)) throw bad(`${where} is not an object`);
    if (typeof file.filename !== 'string' || file.filename === '') throw bad(`${where}.filename is not a file name`);
    if (typeof file.url !== 'string' || file.url === '') throw bad(`${where}.url is not a URL`);
    if (!isRecord(file.digests)) throw bad(`${where}.digests is not an object`);
    const { sha256, md5 } = file.digests;
    const digests: ArtifactDigest[] = [];
    if (sha256 !== undefined && sha256 !== null) {
      if (typeof sha256 !== 'string' || !/^[0-9a-f]{64}$/i.test(sha256)) throw bad(`${where}.digests.sha256 is not a SHA-256`);
      digests.push({ algorithm: 'sha256', value: sha256.toLowerCase(), encoding: 'hex' });
    }
    if (md5 !== undefined && md5 !== null) {
      if (typeof md5 !== 'string' || !/^[0-9a-f]{32}$/i.test(md5)) throw bad(`${where}.digests.md5 is not an MD5`);
      digests.push({ algorithm: 'md5', value: md5.toLowerCase(), encoding: 'hex' });
    }
    const attributes: Record<string, string> = {};
    if (typeof file.packagetype === 'string') attributes.packagetype = file.packagetype;
    if (typeof file.size === 'number' && Number.isInteger(file.size) && file.size >= 0) attributes.size = String(file.size);
    if (typeof file.upload_time_iso_8601 === 'string') attributes['upload-time'] = file.upload_time_iso_8601;
    return { filename: file.filename, url: file.url, digests, attributes };
  });
  // A wheel's metadata is written by its build backend: without `Requires-Dist` the version declares no dependency.
  // Only a release of sdists alone may have had metadata PyPI never extracted.
  if (dependencies === null && artifacts.some((artifact) => artifact.attributes?.packagetype === 'bdist_wheel')) dependencies = [];
  return {
    name: info.name
      .trim()
      .toLowerCase()
      .replace(/[-_.]+/g, '-'),
    version: info.version,
    dependencies,
    artifacts,
  };
}
