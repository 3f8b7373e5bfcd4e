import { createRegistryHttp, type RegistryAdapterOptions, type RegistryAnswer } from '../http/registry-http.ts';
import {
  type PackageRegistry,
  RegistryError,
  type RegistryPackage,
  type RegistryRequestStats,
  type RegistryVersion,
  type RegistryVersionDetails,
} from '../port.ts';
import { badResponse, isRecord } from './answer.ts';

/** GitHub's REST API (https://docs.github.com/rest), where `submodules`, `dep` and `github_actions` versions come from. */
export const DEFAULT_GITHUB_API_URL = 'https://api.github.com/';

/** The package managers whose "registry" is a code host's repositories. */
export type GitHubPackageManager = 'submodules' | 'dep' | 'github_actions';

/** Options of {@link createGitHubRegistry}: the common adapter options and the package manager it serves. */
export interface GitHubRegistryOptions extends RegistryAdapterOptions {
  /**
   * `dep` and `github_actions`: a package's versions are its repository's tags; `submodules`: the heads of its
   * repository's branches (commit ids).
   */
  packageManager: GitHubPackageManager;
}

/** A repository a package name stands for, and the rest of the name. */
export interface GitHubRepoName {
  /** The host the name carried (`github.com`), lower-cased, or undefined for `owner/repo`. */
  host: string | undefined;
  owner: string;
  repo: string;
  /** The path inside the repository after `owner/repo` (an action in a subdirectory), `''` when none. */
  path: string;
}

/** GitHub's login rule: letters, digits and single hyphens, at most 39, not starting with a hyphen. */
const OWNER = /^[A-Za-z0-9](?:[A-Za-z0-9-]{0,38})$/;
/** GitHub's repository name rule: letters, digits, `.`, `_`, `-`, at most 100 (not `.` or `..`). */
const REPO = /^(?!\.\.?$)[A-Za-z0-9._-]{1,100}$/;
const COMMIT = /^[0-9a-f]{40}$/i;
/** The most pages of tags or branches read (100 a page): bounds a pathological repository. */
const MAX_PAGES = 50;
/** How many annotated tags pointing at annotated tags are peeled at most. */
const MAX_PEELS = 5;

/**
 * Reads a package name as a GitHub repository: `owner/repo`, `owner/repo/path/in/repo` (an action in a subdirectory:
 * the repository is the first two segments), `github.com/owner/repo[/…]` (dep import paths, submodule names), and a
 * clone URL (`https://github.com/owner/repo.git`, `git@github.com:owner/repo.git`, `ssh://` and `git://` forms).
 * A trailing `.git` of the repository is dropped. `hosts` are the hosts a name may carry (lower case).
 * @throws TypeError for a name of another host, or whose owner or repository is not a GitHub name
 */
export function parseGitHubRepoName(name: string, hosts: readonly string[] = ['github.com']): GitHubRepoName {
  const fail = (reason: string) => new TypeError(`not a GitHub repository name: '${name}' (${reason})`);
  let rest = name.trim();
  let host: string | undefined;
  const scp = /^[A-Za-z0-9._-]+@([^:/]+):(.*)$/.exec(rest);
  if (scp) {
    host = (scp[1] as string).toLowerCase();
    rest = scp[2] as string;
  } else if (/^[a-z][a-z0-9+.-]*:\/\//i.test(rest)) {
    let url: URL;
    try {
      url = new URL(rest);
    } catch {
      throw fail('not a URL');
    }
    host = url.host.toLowerCase();
    try {
      rest = decodeURIComponent(url.pathname);
    } catch {
      throw fail('a malformed % escape');
    }
  } else {
    const first = rest.split('/')[0] ?? '';
    // A GitHub login has no dot: a first segment with one is a host (`github.com/owner/repo`).
    if (first.includes('.')) {
      host = first.toLowerCase();
      rest = rest.slice(first.length);
    }
  }
  if (host !== undefined && !hosts.includes(host.replace(/^www\./, ''))) throw fail(`host ${host} is not ${hosts.join(' or ')}`);
  const segments = rest.replace(/^\/+|\/+$/g, '').split('/');
  const owner = segments[0] ?? '';
  const repo = (segments[1] ?? '').replace(/\.git$/i, '');
  if (!OWNER.test(owner)) throw fail('bad owner');
  if (!REPO.test(repo)) throw fail('bad repository');
  const path = segments.slice(2).join('/');
  if (segments.slice(2).some((part) => part === '' || part === '.' || part === '..')) throw fail('bad path');
  return { host, owner, repo, path };
}

const bad = badResponse;

function json(answer: RegistryAnswer, what: string): unknown {
  try {
    return JSON.parse(answer.body);
  } catch (error) {
    throw bad(answer, `${what} is not JSON`, error);
  }
}

/** The `rel="next"` URL of an RFC 8288 `Link` header (GitHub's pagination), or undefined. */
export function nextLink(header: string | string[] | undefined): string | undefined {
  const text = Array.isArray(header) ? header.join(', ') : header;
  if (!text) return undefined;
  for (const part of text.split(/,(?=\s*<)/)) {
    const match = /^\s*<([^>]*)>(.*)$/.exec(part);
    if (match && /;\s*rel="?(?:[^";]*\s)?next(?:\s[^";]*)?"?(?:;|$)/i.test(match[2] as string)) return match[1];
  }
  return undefined;
}

/** An RFC 3339 timestamp as UTC (`…Z`), or null when it is not one. */
const utc = (value: unknown): string | null => {
  if (typeof value !== 'string' || !/^\d{4}-\d{2}-\d{2}T/.test(value)) return null;
  const time = new Date(value);
  return Number.isNaN(time.getTime()) ? null : time.toISOString();
};

/** What the adapter reads of `GET /repos/{owner}/{repo}`. */
interface RepoInfo {
  fullName: string;
  htmlUrl: string | null;
  defaultBranch: string;
}

/** What the adapter reads of one release. */
interface ReleaseInfo {
  tag: string;
  publishedAt: string | null;
  draft: boolean;
  prerelease: boolean;
}

/**
 * GitHub's repositories as the registry of the package managers that take versions from a code host
 * (https://docs.github.com/rest), as a {@link PackageRegistry}; `baseUrl` is the REST API's root (default
 * {@link DEFAULT_GITHUB_API_URL}; GitHub Enterprise Server's is `https://<host>/api/v3/`). Names: see
 * {@link parseGitHubRepoName}; besides `github.com`, a name may carry the base URL's own host (a GitHub Enterprise
 * Server's `ghe.example.com/owner/repo`). Credentials `{ token }` go as `Authorization: Bearer <token>`.
 *
 * `fetchPackage(name)` GETs `/repos/{owner}/{repo}` (https://docs.github.com/rest/repos/repos#get-a-repository: the
 * canonical `full_name`, `html_url` → `sourceUrl`, `default_branch`); a 404 is `undefined`. Then:
 * - `dep`, `github_actions`: every tag (`GET /repos/{o}/{r}/tags?per_page=100`, following the `Link` header's
 *   `rel="next"` through every page, https://docs.github.com/rest/repos/repos#list-repository-tags) is a version named
 *   as the tag, `refs: [tag]`; one page of releases (`GET /repos/{o}/{r}/releases?per_page=100`,
 *   https://docs.github.com/rest/releases/releases#list-releases) gives `releasedAt` (a release's `published_at`; null
 *   for a tag without a published release) and `latest` (the newest release that is neither a draft nor a prerelease,
 *   as GitHub's "latest release" is; null when there is none).
 * - `submodules`: each distinct head commit of the repository's branches (`GET /repos/{o}/{r}/branches?per_page=100`,
 *   every page, https://docs.github.com/rest/branches/branches#list-branches) is a version named by its commit id,
 *   `refs` the names of the branches at it (sorted); `latest` is the default branch's head; `releasedAt` null (the
 *   branches list carries no dates).
 * Versions are never yanked or deprecated and carry no digests. `name` is the name in the form asked, the repository
 * part as GitHub spells it (`github.com/Acme-OSS/errors`), a clone URL as `<host>/<owner>/<repo>`; `changelogUrl` null.
 *
 * `describeVersion(name, version)`: in tag mode, `GET /repos/{o}/{r}/git/ref/tags/{tag}`
 * (https://docs.github.com/rest/git/refs#get-a-reference), an annotated tag peeled to its commit with
 * `GET /repos/{o}/{r}/git/tags/{sha}` (https://docs.github.com/rest/git/tags#get-a-tag); in submodule mode the commit
 * itself (`GET /repos/{o}/{r}/git/commits/{sha}`, a version not a 40-digit commit id is undefined). Either answers one
 * artifact `{ filename: '<owner>/<repo>@<version>', url: <the tarball URL of the tag or commit>, digests: [],
 * attributes: { commit: '<sha>' } }` and `dependencies: null`; a tag or commit GitHub does not have is undefined.
 * @throws TypeError for a base URL that is not http(s)
 */
export function createGitHubRegistry(options: GitHubRegistryOptions): PackageRegistry {
  const { packageManager, baseUrl = DEFAULT_GITHUB_API_URL, ...httpOptions } = options;
  if (!['submodules', 'dep', 'github_actions'].includes(packageManager)) {
    throw new TypeError(`the GitHub registry serves submodules, dep and github_actions, not ${packageManager}`);
  }
  const http = createRegistryHttp({ ...httpOptions, baseUrl });
  const apiHost = http.baseUrl.host.toLowerCase();
  const hosts = ['github.com', ...(apiHost === 'api.github.com' ? [] : [apiHost.replace(/^api\./, ''), apiHost])];
  const accept = 'application/vnd.github+json';
  const tagMode = packageManager !== 'submodules';

  const get = (path: string, signal: AbortSignal | undefined) => http.get(path, { accept, ...(signal ? { signal } : {}) });
  const repoPath = ({ owner, repo }: GitHubRepoName) => `repos/${encodeURIComponent(owner)}/${encodeURIComponent(repo)}`;

  /** Every item of a paginated list, following `rel="next"` on the API's origin; undefined on a 404. */
  const allPages = async (path: string, what: string, signal: AbortSignal | undefined): Promise<unknown[] | undefined> => {
    const items: unknown[] = [];
    let next: string | undefined = path;
    for (let page = 0; next !== undefined; page += 1) {
      const answer = await get(next, signal);
      if (answer.status !== 200) return undefined;
      const body = json(answer, what);
      if (!Array.isArray(body)) throw bad(answer, `${what} is not an array`);
      items.push(...body);
      next = nextLink(answer.headers.link);
      if (next !== undefined) {
        const url = new URL(next, http.baseUrl);
        if (url.origin !== http.baseUrl.origin) throw bad(answer, `${what}: the next page is on another origin (${url.origin})`);
        if (page + 1 >= MAX_PAGES) throw bad(answer, `${what}: more than ${MAX_PAGES} pages`);
      }
    }
    return items;
  };

  const readRepo = async (parsed: GitHubRepoName, signal: AbortSignal | undefined): Promise<RepoInfo | undefined> => {
    const answer = await get(repoPath(parsed), signal);
    if (answer.status !== 200) return undefined;
    const body = json(answer, 'the repository');
    if (!isRecord(body)) throw bad(answer, 'the repository is not an object');
    const { full_name: fullName, html_url: htmlUrl, default_branch: defaultBranch } = body;
    if (typeof fullName !== 'string' || !/^[^/]+\/[^/]+$/.test(fullName)) throw bad(answer, 'the repository has no full_name');
    if (typeof defaultBranch !== 'string' || defaultBranch === '') throw bad(answer, 'the repository has no default_branch');
    return { fullName, htmlUrl: typeof htmlUrl === 'string' && /^https?:\/\//.test(htmlUrl) ? htmlUrl : null, defaultBranch };
  };

  const readReleases = async (parsed: GitHubRepoName, signal: AbortSignal | undefined): Promise<ReleaseInfo[]> => {
    const answer = await get(`${repoPath(parsed)}/releases?per_page=100`, signal);
    if (answer.status !== 200) return [];
    const body = json(answer, 'the releases');
    if (!Array.isArray(body)) throw bad(answer, 'the releases are not an array');
    return body.map((release, index) => {
      if (!isRecord(release) || typeof release.tag_name !== 'string') throw bad(answer, `release ${index} has no tag_name`);
      return {
        tag: release.tag_name,
        publishedAt: utc(release.published_at),
        draft: release.draft === true,
        prerelease: release.prerelease === true,
      };
    });
  };

  const tagVersions = async (parsed: GitHubRepoName, signal: AbortSignal | undefined) => {
    const tags = await allPages(`${repoPath(parsed)}/tags?per_page=100`, 'the tags', signal);
    if (tags === undefined) return undefined;
    const releases = await readReleases(parsed, signal);
    const published = new Map(releases.filter((r) => !r.draft && r.publishedAt !== null).map((r) => [r.tag, r.publishedAt]));
    const versions = tags.map((tag, index): RegistryVersion => {
      if (!isRecord(tag) || typeof tag.name !== 'string' || tag.name === '')
        throw new RegistryError('bad_response', http.baseUrl.href, `tag ${index} has no name`);
      return {
        version: tag.name,
        releasedAt: published.get(tag.name) ?? null,
        yanked: false,
        deprecated: null,
        digests: [],
        refs: [tag.name],
      };
    });
    const latest = releases.find((release) => !release.draft && !release.prerelease)?.tag ?? null;
    return { versions, latest };
  };

  const branchVersions = async (parsed: GitHubRepoName, defaultBranch: string, signal: AbortSignal | undefined) => {
    const branches = await allPages(`${repoPath(parsed)}/branches?per_page=100`, 'the branches', signal);
    if (branches === undefined) return undefined;
    const byCommit = new Map<string, string[]>();
    let latest: string | null = null;
    branches.forEach((branch, index) => {
      const sha = isRecord(branch) && isRecord(branch.commit) ? branch.commit.sha : undefined;
      if (!isRecord(branch) || typeof branch.name !== 'string' || typeof sha !== 'string' || !COMMIT.test(sha)) {
        throw new RegistryError('bad_response', http.baseUrl.href, `branch ${index} has no name or commit sha`);
      }
      const commit = sha.toLowerCase();
      byCommit.set(commit, [...(byCommit.get(commit) ?? []), branch.name]);
      if (branch.name === defaultBranch) latest = commit;
    });
    const versions = [...byCommit].map(
      ([sha, refs]): RegistryVersion => ({
        version: sha,
        releasedAt: null,
        yanked: false,
        deprecated: null,
        digests: [],
        refs: refs.sort(),
      }),
    );
    return { versions, latest };
  };

  /** The name in the form asked, with the repository as GitHub spells it. */
  const canonicalName = (parsed: GitHubRepoName, fullName: string) =>
    `${parsed.host === undefined ? '' : `${parsed.host.replace(/^www\./, '')}/`}${fullName}${parsed.path === '' ? '' : `/${parsed.path}`}`;

  /** The commit a tag names, peeling annotated tags; undefined when the tag is not there. */
  const tagCommit = async (parsed: GitHubRepoName, tag: string, signal: AbortSignal | undefined): Promise<string | undefined> => {
    const encoded = tag.split('/').map(encodeURIComponent).join('/');
    let answer = await get(`${repoPath(parsed)}/git/ref/tags/${encoded}`, signal);
    if (answer.status !== 200) return undefined;
    let body = json(answer, 'the tag ref');
    // GitHub answers a ref name that only prefixes refs with an array of them (the pre-matching-refs behaviour).
    if (Array.isArray(body)) return undefined;
    for (let peel = 0; ; peel += 1) {
      const object = isRecord(body) ? body.object : undefined;
      if (!isRecord(object) || typeof object.sha !== 'string' || !COMMIT.test(object.sha) || typeof object.type !== 'string') {
        throw bad(answer, 'the tag has no object');
      }
      if (object.type === 'commit') return object.sha.toLowerCase();
      if (object.type !== 'tag') throw bad(answer, `the tag points at a ${object.type}, not a commit`);
      if (peel >= MAX_PEELS) throw bad(answer, `the tag is more than ${MAX_PEELS} annotated tags deep`);
      answer = await get(`${repoPath(parsed)}/git/tags/${object.sha.toLowerCase()}`, signal);
      if (answer.status !== 200) return undefined;
      body = json(answer, 'the annotated tag');
    }
  };

  const commitExists = async (parsed: GitHubRepoName, sha: string, signal: AbortSignal | undefined): Promise<boolean> => {
    const answer = await get(`${repoPath(parsed)}/git/commits/${sha}`, signal);
    if (answer.status !== 200) return false;
    const body = json(answer, 'the commit');
    if (!isRecord(body) || typeof body.sha !== 'string') throw bad(answer, 'the commit has no sha');
    return body.sha.toLowerCase() === sha;
  };

  return {
    packageManager,
    baseUrl: http.baseUrl.href,
    fetchPackage: async (name, fetchOptions = {}): Promise<RegistryPackage | undefined> => {
      const parsed = parseGitHubRepoName(name, hosts);
      const { signal } = fetchOptions;
      const repo = await readRepo(parsed, signal);
      if (repo === undefined) return undefined;
      const found = tagMode ? await tagVersions(parsed, signal) : await branchVersions(parsed, repo.defaultBranch, signal);
      if (found === undefined) return undefined;
      return {
        name: canonicalName(parsed, repo.fullName),
        versions: found.versions,
        latest: found.latest,
        sourceUrl: repo.htmlUrl,
        changelogUrl: null,
      };
    },
    describeVersion: async (name, version, describeOptions = {}): Promise<RegistryVersionDetails | undefined> => {
      const parsed = parseGitHubRepoName(name, hosts);
      const { signal } = describeOptions;
      let commit: string | undefined;
      let tarball: string;
      if (tagMode) {
        if (version === '') return undefined;
        commit = await tagCommit(parsed, version, signal);
        tarball = `${repoPath(parsed)}/tarball/refs/tags/${version.split('/').map(encodeURIComponent).join('/')}`;
      } else {
        const sha = version.toLowerCase();
        if (!COMMIT.test(sha)) return undefined;
        commit = (await commitExists(parsed, sha, signal)) ? sha : undefined;
        tarball = `${repoPath(parsed)}/tarball/${sha}`;
      }
      if (commit === undefined) return undefined;
      return {
        name: canonicalName(parsed, `${parsed.owner}/${parsed.repo}`),
        version,
        dependencies: null,
        artifacts: [
          {
            filename: `${parsed.owner}/${parsed.repo}@${version}`,
            url: new URL(tarball, http.baseUrl).href,
            digests: [],
            attributes: { commit },
          },
        ],
      };
    },
    stats: (): RegistryRequestStats => http.stats(),
    close: () => http.close(),
  };
}
