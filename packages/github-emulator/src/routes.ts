import { ADVISORY_ECOSYSTEMS } from '@switchyard/contracts';
import type { Express, Request, RequestHandler } from 'express';
import { cursorPage, parseAffects, selectAdvisories } from './advisory-query.ts';
import { installationRepos, installationsReaching } from './apps/access.ts';
import { installation } from './apps/representations.ts';
import { mountAppRoutes } from './apps/routes.ts';
import { mountContentsRoutes } from './contents-routes.ts';
import { fileBytes, fileSize, sendRawFile } from './files.ts';
import { parseGitmodules } from './git/gitmodules.ts';
import { mountGitRoutes } from './git-routes.ts';
import {
  apiBaseOf,
  DOCS,
  GitHubApiError,
  notFound,
  queryValue,
  sendJson,
  validationFailed,
  validationFailedSimple,
} from './github-http.ts';
import { mountIssueRoutes } from './issue-routes.ts';
import { mountIssueTrackerRoutes } from './issues/routes.ts';
import { pageOf, paginate } from './pagination.ts';
import { mountPullRoutes } from './pull-routes.ts';
import { mountReleaseRoutes } from './release-routes.ts';
import {
  contentFile,
  contentSubmodule,
  createdAt,
  type DirectoryItem,
  directoryEntry,
  fullRepository,
  globalAdvisory,
  LARGEST_INLINE_FILE_BYTES,
  minimalRepository,
  organizationSimple,
  orgMembership,
  privateUser,
  repository,
} from './representations.ts';
import { noteLimited } from './request-counter.ts';
import { mountReviewRoutes } from './review-routes.ts';
import {
  authenticate,
  countRequest,
  credentialOf,
  ownerOf,
  type RouteContext,
  repoAccess,
  sendOne,
  sendPage,
  urlsOf,
  userOf,
  visible,
} from './route-helpers.ts';
import { ADVISORY_SEVERITIES, ADVISORY_TYPES } from './seed-advisories.ts';
import type { Affiliation, EmulatedRepo } from './world.ts';

export type { RouteContext } from './route-helpers.ts';

/**
 * {@link authenticate} when the request carries an `Authorization` header; without one the request goes on
 * anonymously, counted against the per-address limit (GitHub: 60 an hour), as public endpoints such as
 * `GET /advisories` allow.
 */
function authenticateIfPresent(context: RouteContext): RequestHandler {
  const auth = authenticate(context);
  return (req, res, next) => {
    if (req.headers.authorization !== undefined) {
      auth(req, res, next);
      return;
    }
    const state = countRequest(res, context.anonymousLimiter, `ip:${req.ip}`);
    if (state.exceeded) {
      noteLimited(res, 'primary');
      throw new GitHubApiError(403, `API rate limit exceeded for ${req.ip}.`, DOCS.rateLimits);
    }
    next();
  };
}

/** A query parameter that must be one of `allowed` (422 otherwise, by default GitHub's `validation-error`), or undefined when absent. */
function oneOf<T extends string>(
  req: Request,
  name: string,
  allowed: readonly T[],
  docs: string,
  fail: (field: string, message: string, docs: string) => GitHubApiError = validationFailed,
): T | undefined {
  const value = queryValue(req, name);
  if (value === undefined) return undefined;
  if (!(allowed as readonly string[]).includes(value)) throw fail(name, `${name} must be one of ${allowed.join(', ')}`, docs);
  return value as T;
}

type Sort = 'created' | 'updated' | 'pushed' | 'full_name';

/** Orders repos as GitHub does: by `sort`; `direction` defaults to asc for full_name and desc otherwise; ties by id. */
function sortRepos<T extends { repo: EmulatedRepo }>(entries: T[], sort: Sort, direction: 'asc' | 'desc' | undefined): T[] {
  const dir = (direction ?? (sort === 'full_name' ? 'asc' : 'desc')) === 'asc' ? 1 : -1;
  const key = (repo: EmulatedRepo) => (sort === 'full_name' ? `${repo.owner}/${repo.name}`.toLowerCase() : Date.parse(createdAt(repo)));
  return entries.sort((a, b) => {
    const ka = key(a.repo);
    const kb = key(b.repo);
    return (ka < kb ? -1 : ka > kb ? 1 : a.repo.id - b.repo.id) * dir;
  });
}

const SORTS = ['created', 'updated', 'pushed', 'full_name'] as const;
const DIRECTIONS = ['asc', 'desc'] as const;

/** Media types that ask the contents endpoint for the raw file (https://docs.github.com/rest/repos/contents#get-repository-content). */
const rawAccept = /application\/vnd\.github(?:\.v3)?\.raw/i;

/**
 * Mounts GitHub's REST endpoints the port uses:
 * `GET /user`, `GET /user/orgs`, `GET /user/repos`, `GET /orgs/{org}/repos`, `GET /repositories/{id}`,
 * `GET /repos/{owner}/{repo}/contents/{path}` (from the git data: what was pushed is what is read), `GET /advisories`,
 * `GET /advisories/{ghsa_id}`, `GET /user/installations` and `GET /user/installations/{installation_id}/repositories`;
 * the GitHub App endpoints (`apps/routes.ts`: `/app…` with an App's JWT, `/installation/…` with an installation token);
 * then the file writes (`contents-routes.ts`), the git data endpoints (`git-routes.ts`), pull requests and review
 * requests (`pull-routes.ts`), labels, comments and statuses (`issue-routes.ts`), issues, assignees, milestones and
 * collaborator permissions (`issues/routes.ts`), the repository, its tags and releases (`release-routes.ts`), and what clients review changes with
 * (`review-routes.ts`: a pull request's files and commits, comparisons, commits with their files, blobs).
 */
export function mountGitHubRoutes(app: Express, context: RouteContext): void {
  const { world } = context;
  const auth = authenticate(context);

  // GitHub App endpoints first: `/repos/{owner}/{repo}/installation`, `/orgs/{org}/installation` and
  // `/users/{username}/installation` take an App's JWT, not the repository's or user's authentication.
  mountAppRoutes(app, context, auth);

  // https://docs.github.com/rest/users/users#get-the-authenticated-user
  app.get('/user', auth, (req, res) => {
    const user = userOf(res);
    const owned = world.reposOf(user.login);
    sendOne(
      res,
      privateUser(urlsOf(req, context), user, {
        publicRepos: owned.filter((r) => !r.private).length,
        privateRepos: owned.filter((r) => r.private).length,
      }),
    );
  });

  // https://docs.github.com/rest/orgs/orgs#list-organizations-for-the-authenticated-user
  app.get('/user/orgs', auth, (req, res) => {
    const urls = urlsOf(req, context);
    sendPage(req, res, world.orgsOf(userOf(res)), (org) => organizationSimple(urls, org));
  });

  // https://docs.github.com/rest/orgs/members#get-an-organization-membership-for-the-authenticated-user
  app.get('/user/memberships/orgs/:org', auth, (req, res) => {
    const user = userOf(res);
    const login = String(req.params.org);
    const role = world.orgRole(user, login);
    const org = world.orgsOf(user).find((candidate) => candidate.login.toLowerCase() === login.toLowerCase());
    if (role === undefined || org === undefined) throw notFound(DOCS.orgMembership);
    sendOne(res, orgMembership(urlsOf(req, context), org, user, role));
  });

  // https://docs.github.com/rest/repos/repos#list-repositories-for-the-authenticated-user
  app.get('/user/repos', auth, (req, res) => {
    const user = userOf(res);
    const docs = DOCS.userRepos;
    const type = oneOf(req, 'type', ['all', 'owner', 'public', 'private', 'member'] as const, docs);
    let visibility = oneOf(req, 'visibility', ['all', 'public', 'private'] as const, docs);
    const affiliationParam = queryValue(req, 'affiliation');
    if (type !== undefined && (visibility !== undefined || affiliationParam !== undefined)) {
      throw validationFailed('type', 'If you specify visibility or affiliation, you cannot specify type.', docs);
    }
    const allAffiliations: Affiliation[] = ['owner', 'collaborator', 'organization_member'];
    let affiliations = new Set<Affiliation>(allAffiliations);
    if (affiliationParam !== undefined) {
      const listed = affiliationParam.split(',').map((a) => a.trim());
      const bad = listed.find((a) => !(allAffiliations as string[]).includes(a));
      if (bad !== undefined) throw validationFailed('affiliation', `affiliation must be a list of ${allAffiliations.join(', ')}`, docs);
      affiliations = new Set(listed as Affiliation[]);
    }
    if (type === 'owner') affiliations = new Set(['owner']);
    if (type === 'member') affiliations = new Set(['collaborator', 'organization_member']);
    if (type === 'public' || type === 'private') visibility = type;
    const sort = oneOf(req, 'sort', SORTS, docs) ?? 'full_name';
    const direction = oneOf(req, 'direction', DIRECTIONS, docs);
    const entries = world
      .repos()
      .filter((repo) => [...world.affiliations(user, repo)].some((a) => affiliations.has(a)))
      .filter((repo) => visibility === undefined || visibility === 'all' || repo.private === (visibility === 'private'))
      .flatMap((repo) => visible(world, credentialOf(res), repo) ?? []);
    const urls = urlsOf(req, context);
    sendPage(req, res, sortRepos(entries, sort, direction), ({ repo, role }) => repository(urls, repo, ownerOf(world, repo), role));
  });

  // https://docs.github.com/rest/repos/repos#list-organization-repositories
  app.get('/orgs/:org/repos', auth, (req, res) => {
    const user = userOf(res);
    const docs = DOCS.orgRepos;
    const account = world.account(String(req.params.org));
    if (account?.kind !== 'org') throw notFound(docs);
    const type = oneOf(req, 'type', ['all', 'public', 'private', 'forks', 'sources', 'member'] as const, docs) ?? 'all';
    const sort = oneOf(req, 'sort', SORTS, docs) ?? 'created';
    const direction = oneOf(req, 'direction', DIRECTIONS, docs);
    const entries = world
      .reposOf(account.org.login)
      .flatMap((repo) => visible(world, credentialOf(res), repo) ?? [])
      .filter(({ repo }) => {
        switch (type) {
          case 'public':
            return !repo.private;
          case 'private':
            return repo.private;
          case 'forks':
            return repo.fork;
          case 'sources':
            return !repo.fork;
          case 'member':
            return world.affiliations(user, repo).size > 0;
          default:
            return true;
        }
      });
    const urls = urlsOf(req, context);
    sendPage(req, res, sortRepos(entries, sort, direction), ({ repo, role }) => minimalRepository(urls, repo, account, role));
  });

  // Undocumented but stable: the repository by id, as `GET /repos/{owner}/{repo}` returns it (full-repository).
  app.get('/repositories/:id', auth, (req, res) => {
    const id = /^\d{1,15}$/.test(String(req.params.id)) ? Number(req.params.id) : Number.NaN;
    const found = visible(world, credentialOf(res), world.repoById(id));
    if (!found) throw notFound(DOCS.repo);
    sendOne(res, fullRepository(urlsOf(req, context), found.repo, ownerOf(world, found.repo), found.role));
  });

  // https://docs.github.com/rest/security-advisories/global-advisories#list-global-security-advisories
  app.get('/advisories', authenticateIfPresent(context), (req, res) => {
    const docs = DOCS.advisories;
    const simple = (_field: string, message: string) => validationFailedSimple(message, docs);
    const affectsText = queryValue(req, 'affects');
    const affects = affectsText === undefined ? undefined : parseAffects(affectsText);
    if (affects !== undefined && affects.length > 1_000) throw validationFailedSimple('affects may list at most 1000 packages', docs);
    const withdrawn = oneOf(req, 'is_withdrawn', ['true', 'false'] as const, docs, simple);
    const after = queryValue(req, 'after');
    const before = queryValue(req, 'before');
    if (after !== undefined && before !== undefined) throw validationFailedSimple('after and before cannot be given together', docs);
    const all = selectAdvisories(world.seed.advisories, {
      type: oneOf(req, 'type', ADVISORY_TYPES, docs, simple) ?? 'reviewed',
      ecosystem: oneOf(req, 'ecosystem', ADVISORY_ECOSYSTEMS, docs, simple),
      severity: oneOf(req, 'severity', ADVISORY_SEVERITIES, docs, simple),
      affects,
      ghsaId: queryValue(req, 'ghsa_id'),
      cveId: queryValue(req, 'cve_id'),
      isWithdrawn: withdrawn === undefined ? undefined : withdrawn === 'true',
    });
    const { perPage } = pageOf(req);
    const page = cursorPage(all, { after, before }, perPage);
    if (!page) throw validationFailedSimple(`${after === undefined ? 'before' : 'after'}: the cursor is not valid for this list`, docs);
    const url = new URL(`${apiBaseOf(req)}${req.url}`);
    const link = (rel: 'next' | 'prev', name: 'after' | 'before', cursor: string) => {
      const params = new URLSearchParams(url.search);
      params.delete('after');
      params.delete('before');
      params.delete('page');
      params.set('per_page', String(perPage));
      params.set(name, cursor);
      return `<${url.origin}${url.pathname}?${params}>; rel="${rel}"`;
    };
    const links = [
      ...(page.after === undefined ? [] : [link('next', 'after', page.after)]),
      ...(page.before === undefined ? [] : [link('prev', 'before', page.before)]),
    ];
    if (links.length > 0) res.setHeader('link', links.join(', '));
    res.setHeader('cache-control', 'public, max-age=60, s-maxage=60');
    const urls = urlsOf(req, context);
    sendJson(
      res,
      200,
      page.items.map((advisory) => globalAdvisory(urls, advisory)),
    );
  });

  // https://docs.github.com/rest/security-advisories/global-advisories#get-a-global-security-advisory
  app.get('/advisories/:ghsa_id', authenticateIfPresent(context), (req, res) => {
    const ghsaId = String(req.params.ghsa_id);
    const found = world.seed.advisories.find((advisory) => advisory.ghsaId.toLowerCase() === ghsaId.toLowerCase());
    if (!found) throw notFound(DOCS.advisory);
    res.setHeader('cache-control', 'public, max-age=60, s-maxage=60');
    sendJson(res, 200, globalAdvisory(urlsOf(req, context), found));
  });

  // https://docs.github.com/rest/apps/installations#list-app-installations-accessible-to-the-user-access-token
  app.get('/user/installations', auth, (req, res) => {
    const all = installationsReaching(world, context.state.apps, userOf(res));
    const { items, link } = paginate(req, all);
    if (link) res.setHeader('link', link);
    const urls = urlsOf(req, context);
    sendOne(res, {
      total_count: all.length,
      installations: items.map((record) => installation(urls, world, record)),
    });
  });

  // https://docs.github.com/rest/apps/installations#list-repositories-accessible-to-the-user-access-token
  app.get('/user/installations/:installation_id/repositories', auth, (req, res) => {
    const id = /^\d{1,15}$/.test(String(req.params.installation_id)) ? Number(req.params.installation_id) : Number.NaN;
    const found = installationsReaching(world, context.state.apps, userOf(res)).find((record) => record.id === id);
    if (!found) throw notFound(DOCS.installationRepos);
    const entries = installationRepos(world, found).flatMap((repo) => visible(world, credentialOf(res), repo) ?? []);
    const { items, link } = paginate(req, entries);
    if (link) res.setHeader('link', link);
    const urls = urlsOf(req, context);
    sendOne(res, {
      total_count: entries.length,
      repository_selection: found.repositorySelection,
      repositories: items.map(({ repo, role }) => repository(urls, repo, ownerOf(world, repo), role)),
    });
  });

  // https://docs.github.com/rest/repos/contents#get-repository-content
  app.get('/repos/:owner/:repo/contents{/*path}', auth, (req, res) => {
    const docs = DOCS.contents;
    const { repo } = repoAccess(req, res, context, 'read', docs);
    const segments = (req.params as { path?: string[] | string }).path ?? [];
    const path = (Array.isArray(segments) ? segments.join('/') : segments).replace(/^\/+|\/+$/g, '');
    const ref = queryValue(req, 'ref') || repo.defaultBranch;
    const git = context.state.of(repo).git;
    const commitSha = git.resolve(ref);
    const commit = commitSha === undefined ? undefined : git.commit(commitSha);
    if (!commit) {
      if (git.isEmpty()) throw new GitHubApiError(404, 'This repository is empty.', docs);
      throw new GitHubApiError(404, `No commit found for the ref ${ref}`, docs);
    }
    const urls = urlsOf(req, context);
    const entry = git.entryAt(commit.tree, path);
    if (!entry) throw notFound(docs);
    const submoduleUrls = () => {
      const file = git.entryAt(commit.tree, '.gitmodules');
      const blob = file?.type === 'blob' ? git.blob(file.sha) : undefined;
      if (!blob || fileSize(blob.content) > LARGEST_INLINE_FILE_BYTES) return new Map<string, string>();
      return new Map(parseGitmodules(fileBytes(blob.content).toString('utf8')).map((module) => [module.path, module.url]));
    };
    if (entry.type === 'commit') {
      // A submodule has no bytes to send; without a .gitmodules entry nothing says where it lives.
      const url = submoduleUrls().get(path);
      if (url === undefined || rawAccept.test(req.headers.accept ?? '')) throw notFound(docs);
      sendOne(res, contentSubmodule(urls, repo, ref, path, entry.sha, url));
      return;
    }
    const blob = entry.type === 'blob' ? git.blob(entry.sha) : undefined;
    if (blob) {
      if (rawAccept.test(req.headers.accept ?? '')) {
        res.setHeader('cache-control', 'private, max-age=60, s-maxage=60');
        sendRawFile(res, blob.content);
        return;
      }
      sendOne(res, contentFile(urls, repo, ref, path, blob));
      return;
    }
    if (entry.type !== 'tree') throw notFound(docs);
    const prefix = path === '' ? '' : `${path}/`;
    const children = [...(git.tree(entry.sha)?.entries ?? [])].sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
    const modules = children.some((child) => child.type === 'commit') ? submoduleUrls() : new Map<string, string>();
    const entries = children.map((child) => {
      const childPath = `${prefix}${child.name}`;
      const childBlob = child.type === 'blob' ? git.blob(child.sha) : undefined;
      const item: DirectoryItem = childBlob
        ? { kind: 'file', blob: childBlob }
        : child.type === 'tree'
          ? { kind: 'dir', sha: child.sha }
          : { kind: 'submodule', sha: child.sha, url: modules.get(childPath) };
      return directoryEntry(urls, repo, ref, childPath, item);
    });
    sendOne(res, entries);
  });

  mountContentsRoutes(app, context, auth);
  mountGitRoutes(app, context, auth);
  mountPullRoutes(app, context, auth);
  mountIssueRoutes(app, context, auth);
  mountIssueTrackerRoutes(app, context, auth);
  mountReleaseRoutes(app, context, auth);
  // After the issue routes, whose `/commits/{ref}/status` and `/check-runs` the review routes' `/commits/{ref}` would match.
  mountReviewRoutes(app, context, auth);
}
