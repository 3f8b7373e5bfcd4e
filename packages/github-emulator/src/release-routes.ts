import type { Express, RequestHandler } from 'express';
import { objectNodeId, repoTag } from './git/representations.ts';
import { GitHubApiError, notFound } from './github-http.ts';
import { createdAt, fullRepository, simpleUser, type Urls } from './representations.ts';
import { ownerOf, type RepoAccess, type RouteContext, repoAccess, sendOne, sendPage, urlsOf } from './route-helpers.ts';
import type { EmulatedRepo } from './world.ts';

/** `documentation_url`s of the repository, tags and releases endpoints. */
export const RELEASE_DOCS = {
  repo: 'https://docs.github.com/rest/repos/repos#get-a-repository',
  listTags: 'https://docs.github.com/rest/repos/repos#list-repository-tags',
  listReleases: 'https://docs.github.com/rest/releases/releases#list-releases',
  latestRelease: 'https://docs.github.com/rest/releases/releases#get-the-latest-release',
  releaseByTag: 'https://docs.github.com/rest/releases/releases#get-a-release-by-tag-name',
} as const;

/**
 * Compares two tag names as git's `version:refname` sort does, simplified: runs of digits compare as numbers, every
 * other run by its bytes (`v1.10.0` after `v1.9.1`, `v2` after `v1.2.0`); a name that is a prefix of the other comes first.
 */
export function compareTagNames(a: string, b: string): number {
  const runs = (name: string) => name.match(/\d+|\D+/g) ?? [];
  const left = runs(a);
  const right = runs(b);
  for (let i = 0; i < Math.min(left.length, right.length); i += 1) {
    const x = left[i] as string;
    const y = right[i] as string;
    const numeric = /^\d/.test(x) && /^\d/.test(y);
    const order = numeric ? Math.sign(Number(BigInt(x) - BigInt(y))) : Buffer.compare(Buffer.from(x), Buffer.from(y));
    if (order !== 0) return order;
  }
  return left.length - right.length;
}

/** A release of the seed as the routes serve it, with its id, position and commit. */
interface ServedRelease {
  id: number;
  tag: string;
  name: string | null;
  body: string | null;
  draft: boolean;
  prerelease: boolean;
  createdAt: string;
  /** The seed index, to order releases created at the same time (the later one is newer). */
  index: number;
}

/** The seed's releases of `repo`, newest first by creation time (GitHub's order), ids `repo.id * 1000 + n`. */
function releasesOf(repo: EmulatedRepo): ServedRelease[] {
  return repo.releases
    .map((release, index) => ({
      id: repo.id * 1_000 + index + 1,
      tag: release.tag,
      name: release.name ?? release.tag,
      body: release.body ?? null,
      draft: release.draft,
      prerelease: release.prerelease,
      createdAt: release.publishedAt === undefined ? createdAt(repo) : new Date(release.publishedAt).toISOString().replace('.000Z', 'Z'),
      index,
    }))
    .sort((a, b) => Date.parse(b.createdAt) - Date.parse(a.createdAt) || b.index - a.index);
}

/** GitHub's `release` object (https://docs.github.com/rest/releases/releases#get-a-release), without assets. */
function releaseBody(urls: Urls, access: RepoAccess, owner: ReturnType<typeof ownerOf>, release: ServedRelease) {
  const { repo } = access;
  const api = `${urls.apiBase}/repos/${repo.owner}/${repo.name}`;
  const html = `${urls.htmlBase}/${repo.owner}/${repo.name}`;
  const tag = release.tag.split('/').map(encodeURIComponent).join('/');
  return {
    url: `${api}/releases/${release.id}`,
    html_url: `${html}/releases/tag/${tag}`,
    assets_url: `${api}/releases/${release.id}/assets`,
    upload_url: `${urls.apiBase.replace('//api.', '//uploads.')}/repos/${repo.owner}/${repo.name}/releases/${release.id}/assets{?name,label}`,
    tarball_url: release.draft ? null : `${api}/tarball/${tag}`,
    zipball_url: release.draft ? null : `${api}/zipball/${tag}`,
    id: release.id,
    node_id: objectNodeId('Release', release.id),
    tag_name: release.tag,
    target_commitish: repo.defaultBranch,
    name: release.name,
    body: release.body,
    draft: release.draft,
    prerelease: release.prerelease,
    immutable: false,
    created_at: release.createdAt,
    published_at: release.draft ? null : release.createdAt,
    updated_at: release.createdAt,
    author: simpleUser(urls, owner),
    assets: [] as unknown[],
  };
}

/** The releases the caller may see: drafts only with push access, as on GitHub. */
function visibleReleases(access: RepoAccess): ServedRelease[] {
  const canPush = access.role === 'write' || access.role === 'maintain' || access.role === 'admin';
  return releasesOf(access.repo).filter((release) => canPush || !release.draft);
}

/**
 * Mounts `GET /repos/{owner}/{repo}` (`full-repository`), `GET /repos/{owner}/{repo}/tags` (every tag, sorted by name
 * descending as versions, see {@link compareTagNames}; paginated), `GET /repos/{owner}/{repo}/releases` (the seed's
 * releases, newest first; paginated), `GET /repos/{owner}/{repo}/releases/latest` (the newest release that is neither
 * a draft nor a prerelease; 404 when none) and `GET /repos/{owner}/{repo}/releases/tags/{tag}`. All need read access
 * (404 for a repository the token cannot see).
 */
export function mountReleaseRoutes(app: Express, context: RouteContext, auth: RequestHandler): void {
  const base = '/repos/:owner/:repo';

  // https://docs.github.com/rest/repos/repos#get-a-repository
  app.get(base, auth, (req, res) => {
    const access = repoAccess(req, res, context, 'read', RELEASE_DOCS.repo);
    sendOne(res, fullRepository(urlsOf(req, context), access.repo, ownerOf(context.world, access.repo), access.role));
  });

  // https://docs.github.com/rest/repos/repos#list-repository-tags
  app.get(`${base}/tags`, auth, (req, res) => {
    const access = repoAccess(req, res, context, 'read', RELEASE_DOCS.listTags);
    const urls = urlsOf(req, context);
    const tags = access.state.git.tags().sort((a, b) => compareTagNames(b.name, a.name));
    sendPage(req, res, tags, ({ name, sha }) => repoTag(urls, access.repo, name, sha));
  });

  // https://docs.github.com/rest/releases/releases#list-releases
  app.get(`${base}/releases`, auth, (req, res) => {
    const access = repoAccess(req, res, context, 'read', RELEASE_DOCS.listReleases);
    const urls = urlsOf(req, context);
    const owner = ownerOf(context.world, access.repo);
    sendPage(req, res, visibleReleases(access), (release) => releaseBody(urls, access, owner, release));
  });

  // https://docs.github.com/rest/releases/releases#get-the-latest-release
  app.get(`${base}/releases/latest`, auth, (req, res) => {
    const docs = RELEASE_DOCS.latestRelease;
    const access = repoAccess(req, res, context, 'read', docs);
    const latest = releasesOf(access.repo).find((release) => !release.draft && !release.prerelease);
    if (!latest) throw notFound(docs);
    sendOne(res, releaseBody(urlsOf(req, context), access, ownerOf(context.world, access.repo), latest));
  });

  // https://docs.github.com/rest/releases/releases#get-a-release-by-tag-name
  app.get(`${base}/releases/tags/*tag`, auth, (req, res) => {
    const docs = RELEASE_DOCS.releaseByTag;
    const access = repoAccess(req, res, context, 'read', docs);
    const raw = (req.params as Record<string, string | string[]>).tag ?? '';
    const tag = Array.isArray(raw) ? raw.join('/') : raw;
    const found = visibleReleases(access).find((release) => release.tag === tag && !release.draft);
    if (!found) throw new GitHubApiError(404, 'Not Found', docs);
    sendOne(res, releaseBody(urlsOf(req, context), access, ownerOf(context.world, access.repo), found));
  });
}
