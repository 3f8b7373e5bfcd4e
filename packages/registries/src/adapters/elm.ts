import { createRegistryHttp, type RegistryAdapterOptions, type RegistryAnswer } from '../http/registry-http.ts';
import type { PackageRegistry, RegistryArtifact, RegistryDependency, RegistryPackage, RegistryVersionDetails } from '../port.ts';
import { badResponse, isRecord } from './answer.ts';

/** The Elm package site (https://package.elm-lang.org/). */
export const DEFAULT_ELM_URL = 'https://package.elm-lang.org/';

/** `author/project`: GitHub user names and lowercase project names with `-`. */
const NAME = /^[A-Za-z0-9](?:[A-Za-z0-9-]*[A-Za-z0-9])?\/[a-z0-9](?:[a-z0-9-]*[a-z0-9])?$/;
const VERSION = /^\d+\.\d+\.\d+$/;

const bad = badResponse;

const parseObject = (answer: RegistryAnswer, what: string): Record<string, unknown> => {
  let document: unknown;
  try {
    document = JSON.parse(answer.body);
  } catch (error) {
    throw bad(answer, `${what} is not JSON`, error);
  }
  if (!isRecord(document)) throw bad(answer, `${what} is not an object`);
  return document;
};

const byVersion = (a: string, b: string) => {
  const [x, y] = [a.split('.').map(Number), b.split('.').map(Number)];
  return (x[0] ?? 0) - (y[0] ?? 0) || (x[1] ?? 0) - (y[1] ?? 0) || (x[2] ?? 0) - (y[2] ?? 0);
};

/**
 * The Elm package site as a {@link PackageRegistry} (the endpoints the `elm` tool uses:
 * https://github.com/elm/compiler/blob/master/builder/src/Deps/Registry.hs and Deps/Solver.hs).
 *
 * `fetchPackage('author/project')` GETs `{baseUrl}packages/{author}/{project}/releases.json`: `{ "1.0.0": <unix seconds>,
 * ... }`; every key is a version released at that time; nothing is yanked or deprecated (the site never removes a
 * release); no digests; `latest` the highest version; `sourceUrl` `https://github.com/{author}/{project}` (every Elm
 * package is a GitHub repository); no changelog URL. 404 → undefined.
 *
 * `describeVersion` GETs `{baseUrl}packages/{author}/{project}/{version}/elm.json` (the package's elm.json: its
 * `dependencies` ranges become runtime dependencies, `test-dependencies` are left out) and `.../endpoint.json`
 * (`{ "url": <zip>, "hash": <sha1 hex> }`: one artifact with its `sha1`, when the site answers it).
 * @throws TypeError for a name that is not `author/project`, or a base URL that is not http(s)
 */
export function createElmRegistry(options: RegistryAdapterOptions = {}): PackageRegistry {
  const { baseUrl = DEFAULT_ELM_URL, ...httpOptions } = options;
  const http = createRegistryHttp({ ...httpOptions, baseUrl });
  const pathOf = (name: string) => {
    if (!NAME.test(name)) throw new TypeError(`not an Elm package name (author/project): '${name}'`);
    return `packages/${name.split('/').map(encodeURIComponent).join('/')}`;
  };
  const get = (path: string, signal: AbortSignal | undefined) =>
    http.get(path, { accept: 'application/json', ...(signal ? { signal } : {}) });

  return {
    packageManager: 'elm',
    baseUrl: http.baseUrl.href,
    fetchPackage: async (name, fetchOptions = {}): Promise<RegistryPackage | undefined> => {
      const answer = await get(`${pathOf(name)}/releases.json`, fetchOptions.signal);
      if (answer.status !== 200) return undefined;
      const releases = parseObject(answer, 'releases.json');
      const versions = Object.entries(releases).map(([version, time]) => {
        if (!VERSION.test(version)) throw bad(answer, `'${version}' is not an Elm version`);
        if (typeof time !== 'number' || !Number.isFinite(time)) throw bad(answer, `the time of ${version} is not a number`);
        // A Date holds ±8.64e15 ms (ECMA-262 "Time Values and Time Range"); a time beyond is not one.
        if (Math.abs(time * 1000) > 8.64e15) throw bad(answer, `the time of ${version} is out of range: ${time}`);
        return { version, releasedAt: new Date(time * 1000).toISOString(), yanked: false, deprecated: null, digests: [] };
      });
      return {
        name,
        versions,
        latest:
          versions
            .map((v) => v.version)
            .sort(byVersion)
            .at(-1) ?? null,
        sourceUrl: `https://github.com/${name}`,
        changelogUrl: null,
      };
    },
    describeVersion: async (name, version, describeOptions = {}): Promise<RegistryVersionDetails | undefined> => {
      if (!VERSION.test(version)) return undefined;
      const base = `${pathOf(name)}/${version}`;
      const answer = await get(`${base}/elm.json`, describeOptions.signal);
      if (answer.status !== 200) return undefined;
      const elmJson = parseObject(answer, 'elm.json');
      const deps = elmJson.dependencies ?? {};
      if (!isRecord(deps)) throw bad(answer, 'elm.json dependencies is not an object');
      const dependencies: RegistryDependency[] = Object.entries(deps).map(([dependency, range]) => {
        if (typeof range !== 'string') throw bad(answer, `elm.json dependencies.${dependency} is not a string`);
        return { name: dependency, requirement: range, kind: 'runtime' };
      });
      const artifacts: RegistryArtifact[] = [];
      const endpoint = await get(`${base}/endpoint.json`, describeOptions.signal);
      if (endpoint.status === 200) {
        const { url, hash } = parseObject(endpoint, 'endpoint.json');
        if (typeof url !== 'string' || !/^https?:\/\//.test(url) || typeof hash !== 'string' || !/^[0-9a-f]{40}$/i.test(hash)) {
          throw bad(endpoint, 'endpoint.json has no http(s) url and SHA-1 hash');
        }
        const [, project = ''] = name.split('/');
        artifacts.push({
          filename: `${project}-${version}.zip`,
          url,
          digests: [{ algorithm: 'sha1', value: hash.toLowerCase(), encoding: 'hex' }],
        });
      }
      return { name, version, dependencies, artifacts };
    },
    stats: () => http.stats(),
    close: () => http.close(),
  };
}
