import type { EmulatedAdvisory } from './advisory-query.ts';
import { type FileContent, fileBytes, fileSize, isGitlink } from './files.ts';
import type { RepoRole } from './seed.ts';
import type { EmulatedOrg, EmulatedRepo, EmulatedUser } from './world.ts';

/**
 * Builders of GitHub's REST JSON objects from seed entries, with every field GitHub's OpenAPI description
 * (`@octokit/openapi`, api.github.com) requires. URLs point at the emulator (`apiBase`) and the web (`htmlBase`).
 */
export interface Urls {
  /** The emulator's REST root as the client reached it, e.g. `http://127.0.0.1:8090`. */
  apiBase: string;
  /** The web root, e.g. `https://github.com`. */
  htmlBase: string;
}

/** When a seed entry without `createdAt` was created: 2015-01-01 plus its id in seconds (so ids order creation). */
export function createdAt(entry: { id: number; createdAt?: string | undefined }): string {
  return entry.createdAt ?? new Date(Date.UTC(2015, 0, 1) + (entry.id % 100_000_000) * 1_000).toISOString().replace('.000Z', 'Z');
}

/** One day after {@link createdAt}: the emulator's `updated_at` and `pushed_at`. */
function updatedAt(entry: { id: number; createdAt?: string | undefined }): string {
  return new Date(Date.parse(createdAt(entry)) + 86_400_000).toISOString().replace('.000Z', 'Z');
}

/**
 * GitHub's legacy global node id: base64 of `0<type length>:<Type><id>` (e.g. `MDQ6VXNlcjE=` for user 1,
 * `MDIzOkludGVncmF0aW9uSW5zdGFsbGF0aW9uNQ==` for installation 5).
 */
export function nodeId(
  type: 'User' | 'Organization' | 'Repository' | 'Bot' | 'Integration' | 'Installation' | 'IntegrationInstallation',
  id: number,
): string {
  return Buffer.from(`0${type.length}:${type}${id}`).toString('base64');
}

type Account = { kind: 'user'; user: EmulatedUser } | { kind: 'org'; org: EmulatedOrg };

/** The id, login and GitHub `type` of an account: `User`, `Organization`, or `Bot` for an App's bot user. */
export function identity(account: Account): { id: number; login: string; type: 'User' | 'Organization' | 'Bot' } {
  if (account.kind === 'org') return { id: account.org.id, login: account.org.login, type: 'Organization' };
  return { id: account.user.id, login: account.user.login, type: account.user.bot ? 'Bot' : 'User' };
}

/**
 * GitHub's `simple-user` object for a user, an organisation (`type: "Organization"`) or an App's bot user (`type:
 * "Bot"`, `html_url` the App's page `/apps/<slug>`, its login URL-encoded in API URLs: `switchyard%5Bbot%5D`).
 */
export function simpleUser(urls: Urls, account: Account) {
  const { id, login, type } = identity(account);
  const api = `${urls.apiBase}/users/${encodeURIComponent(login)}`;
  const bot = account.kind === 'user' ? account.user.bot : undefined;
  return {
    login,
    id,
    node_id: nodeId(type, id),
    avatar_url: `https://avatars.githubusercontent.com/u/${id}?v=4`,
    gravatar_id: '',
    url: api,
    html_url: bot ? `${urls.htmlBase}/apps/${bot.slug}` : `${urls.htmlBase}/${login}`,
    followers_url: `${api}/followers`,
    following_url: `${api}/following{/other_user}`,
    gists_url: `${api}/gists{/gist_id}`,
    starred_url: `${api}/starred{/owner}{/repo}`,
    subscriptions_url: `${api}/subscriptions`,
    organizations_url: `${api}/orgs`,
    repos_url: `${api}/repos`,
    events_url: `${api}/events{/privacy}`,
    received_events_url: `${api}/received_events`,
    type,
    user_view_type: 'public',
    site_admin: false,
  };
}

/** Counts of a user's own repositories, for {@link privateUser}. */
export interface OwnedRepoCounts {
  publicRepos: number;
  privateRepos: number;
}

/** GitHub's `private-user` object: what `GET /user` returns to the user themselves. */
export function privateUser(urls: Urls, user: EmulatedUser, counts: OwnedRepoCounts) {
  return {
    ...simpleUser(urls, { kind: 'user', user }),
    user_view_type: 'private',
    name: user.name ?? null,
    company: null,
    blog: '',
    location: null,
    email: user.email ?? null,
    notification_email: user.email ?? null,
    hireable: null,
    bio: null,
    twitter_username: null,
    public_repos: counts.publicRepos,
    public_gists: 0,
    followers: 0,
    following: 0,
    created_at: createdAt(user),
    updated_at: updatedAt(user),
    private_gists: 0,
    total_private_repos: counts.privateRepos,
    owned_private_repos: counts.privateRepos,
    disk_usage: 0,
    collaborators: 0,
    two_factor_authentication: true,
    plan: { name: 'free', space: 976_562_499, collaborators: 0, private_repos: 10_000 },
  };
}

/** GitHub's `organization-simple` object, as `GET /user/orgs` lists it. */
export function organizationSimple(urls: Urls, org: EmulatedOrg) {
  const api = `${urls.apiBase}/orgs/${org.login}`;
  return {
    login: org.login,
    id: org.id,
    node_id: nodeId('Organization', org.id),
    url: api,
    repos_url: `${api}/repos`,
    events_url: `${api}/events`,
    hooks_url: `${api}/hooks`,
    issues_url: `${api}/issues`,
    members_url: `${api}/members{/member}`,
    public_members_url: `${api}/public_members{/member}`,
    avatar_url: `https://avatars.githubusercontent.com/u/${org.id}?v=4`,
    description: org.description ?? null,
  };
}

/** GitHub's `org-membership` of the authenticated user: always `active` here (the seed has no pending invitations). */
export function orgMembership(urls: Urls, org: EmulatedOrg, user: EmulatedUser, role: 'admin' | 'member') {
  return {
    url: `${urls.apiBase}/orgs/${org.login}/memberships/${user.login}`,
    state: 'active',
    role,
    organization_url: `${urls.apiBase}/orgs/${org.login}`,
    organization: organizationSimple(urls, org),
    user: simpleUser(urls, { kind: 'user', user }),
  };
}

/** GitHub's `permissions` object for a role (each role includes the ones below it). */
export function permissionsOf(role: RepoRole) {
  const rank = { read: 1, triage: 2, write: 3, maintain: 4, admin: 5 }[role];
  return { admin: rank >= 5, maintain: rank >= 4, push: rank >= 3, triage: rank >= 2, pull: rank >= 1 };
}

/** Size of a repository in KiB as GitHub reports it: here, of the files on its default branch. */
function sizeKib(repo: EmulatedRepo): number {
  const files = repo.files[repo.defaultBranch] ?? {};
  const bytes = Object.values(files).reduce((sum, file) => sum + (isGitlink(file) ? 0 : fileSize(file)), 0);
  return Math.ceil(bytes / 1024);
}

/** Fields shared by `minimal-repository`, `repository` and `full-repository`. */
function repositoryCore(urls: Urls, repo: EmulatedRepo, owner: Account, role: RepoRole) {
  const fullName = `${repo.owner}/${repo.name}`;
  const api = `${urls.apiBase}/repos/${fullName}`;
  const html = `${urls.htmlBase}/${fullName}`;
  const host = new URL(urls.htmlBase).host;
  return {
    id: repo.id,
    node_id: nodeId('Repository', repo.id),
    name: repo.name,
    full_name: fullName,
    private: repo.private,
    owner: simpleUser(urls, owner),
    html_url: html,
    description: repo.description ?? null,
    fork: repo.fork,
    url: api,
    forks_url: `${api}/forks`,
    keys_url: `${api}/keys{/key_id}`,
    collaborators_url: `${api}/collaborators{/collaborator}`,
    teams_url: `${api}/teams`,
    hooks_url: `${api}/hooks`,
    issue_events_url: `${api}/issues/events{/number}`,
    events_url: `${api}/events`,
    assignees_url: `${api}/assignees{/user}`,
    branches_url: `${api}/branches{/branch}`,
    tags_url: `${api}/tags`,
    blobs_url: `${api}/git/blobs{/sha}`,
    git_tags_url: `${api}/git/tags{/sha}`,
    git_refs_url: `${api}/git/refs{/sha}`,
    trees_url: `${api}/git/trees{/sha}`,
    statuses_url: `${api}/statuses/{sha}`,
    languages_url: `${api}/languages`,
    stargazers_url: `${api}/stargazers`,
    contributors_url: `${api}/contributors`,
    subscribers_url: `${api}/subscribers`,
    subscription_url: `${api}/subscription`,
    commits_url: `${api}/commits{/sha}`,
    git_commits_url: `${api}/git/commits{/sha}`,
    comments_url: `${api}/comments{/number}`,
    issue_comment_url: `${api}/issues/comments{/number}`,
    contents_url: `${api}/contents/{+path}`,
    compare_url: `${api}/compare/{base}...{head}`,
    merges_url: `${api}/merges`,
    archive_url: `${api}/{archive_format}{/ref}`,
    downloads_url: `${api}/downloads`,
    issues_url: `${api}/issues{/number}`,
    pulls_url: `${api}/pulls{/number}`,
    milestones_url: `${api}/milestones{/number}`,
    notifications_url: `${api}/notifications{?since,all,participating}`,
    labels_url: `${api}/labels{/name}`,
    releases_url: `${api}/releases{/id}`,
    deployments_url: `${api}/deployments`,
    created_at: createdAt(repo),
    updated_at: updatedAt(repo),
    pushed_at: updatedAt(repo),
    git_url: `git://${host}/${fullName}.git`,
    ssh_url: `git@${host}:${fullName}.git`,
    clone_url: `${html}.git`,
    svn_url: html,
    homepage: null,
    size: sizeKib(repo),
    stargazers_count: 0,
    watchers_count: 0,
    language: repo.language,
    has_issues: true,
    has_projects: true,
    has_downloads: true,
    has_wiki: true,
    has_pages: false,
    has_discussions: false,
    forks_count: 0,
    mirror_url: null,
    archived: repo.archived,
    disabled: false,
    open_issues_count: 0,
    license: null,
    allow_forking: !repo.private,
    is_template: false,
    web_commit_signoff_required: false,
    topics: [] as string[],
    visibility: repo.private ? 'private' : 'public',
    forks: 0,
    open_issues: 0,
    watchers: 0,
    default_branch: repo.defaultBranch,
    permissions: permissionsOf(role),
  };
}

/** GitHub's `repository` object, as `GET /user/repos` lists it, with the caller's `permissions`. */
export function repository(urls: Urls, repo: EmulatedRepo, owner: Account, role: RepoRole) {
  return repositoryCore(urls, repo, owner, role);
}

/** GitHub's `minimal-repository` object, as `GET /orgs/{org}/repos` lists it, with the caller's `permissions`. */
export function minimalRepository(urls: Urls, repo: EmulatedRepo, owner: Account, role: RepoRole) {
  return { ...repositoryCore(urls, repo, owner, role), custom_properties: {} };
}

/**
 * GitHub's `full-repository` object, as `GET /repos/{owner}/{repo}` and `GET /repositories/{id}` return it: the
 * `repository` fields plus `network_count`, `subscribers_count` and, for an organisation's repo, `organization`.
 */
export function fullRepository(urls: Urls, repo: EmulatedRepo, owner: Account, role: RepoRole) {
  return {
    ...repositoryCore(urls, repo, owner, role),
    ...(owner.kind === 'org' ? { organization: simpleUser(urls, owner) } : {}),
    network_count: 0,
    subscribers_count: 0,
  };
}

/** Files bigger than this come without `content` (`encoding: "none"`), as on GitHub (1 MB). */
export const LARGEST_INLINE_FILE_BYTES = 1_048_576;

const encodePath = (path: string) => path.split('/').map(encodeURIComponent).join('/');

function contentLinks(urls: Urls, repo: EmulatedRepo, ref: string, path: string, kind: 'file' | 'dir', sha: string) {
  const fullName = `${repo.owner}/${repo.name}`;
  const self = `${urls.apiBase}/repos/${fullName}/contents/${encodePath(path)}?ref=${encodeURIComponent(ref)}`;
  const git = `${urls.apiBase}/repos/${fullName}/git/${kind === 'file' ? 'blobs' : 'trees'}/${sha}`;
  const html = `${urls.htmlBase}/${fullName}/${kind === 'file' ? 'blob' : 'tree'}/${encodePath(ref)}/${encodePath(path)}`;
  const rawBase = urls.htmlBase === 'https://github.com' ? 'https://raw.githubusercontent.com' : `${urls.htmlBase}/raw`;
  const download = kind === 'file' ? `${rawBase}/${fullName}/${encodePath(ref)}/${encodePath(path)}` : null;
  return { url: self, html_url: html, git_url: git, download_url: download, _links: { self, git, html } };
}

const baseName = (path: string) => path.slice(path.lastIndexOf('/') + 1);

/**
 * GitHub's `content-file` object: `content` is the base64 of the text in lines of 60 characters each ending with `\n`,
 * as GitHub sends it; over {@link LARGEST_INLINE_FILE_BYTES} the content is empty with `encoding: "none"` and `size`
 * the real size (https://docs.github.com/rest/repos/contents#get-repository-content: files of 1-100 MB only through
 * the raw media type), so a generated file that large is never built.
 */
export function contentFile(urls: Urls, repo: EmulatedRepo, ref: string, path: string, blob: { sha: string; content: FileContent }) {
  const size = fileSize(blob.content);
  const { sha } = blob;
  const inline = size <= LARGEST_INLINE_FILE_BYTES;
  const base64 = inline ? fileBytes(blob.content).toString('base64') : '';
  const content = (base64.match(/.{1,60}/g) ?? []).map((line) => `${line}\n`).join('');
  return {
    type: 'file' as const,
    encoding: inline ? 'base64' : 'none',
    size,
    name: baseName(path),
    path,
    content,
    sha,
    ...contentLinks(urls, repo, ref, path, 'file', sha),
  };
}

/**
 * The repository a submodule URL names on the web root's host (`https://github.com/o/r(.git)`, `git@github.com:o/r.git`,
 * `ssh://git@github.com/o/r`, `git://github.com/o/r`), or undefined when it lives elsewhere.
 */
export function hostedRepoOf(url: string, htmlBase: string): { owner: string; name: string } | undefined {
  const host = new URL(htmlBase).host.toLowerCase();
  const scp = /^[^@/]+@([^:/]+):\/?([^/]+)\/([^/]+?)(?:\.git)?\/?$/.exec(url);
  if (scp) return (scp[1] as string).toLowerCase() === host ? { owner: scp[2] as string, name: scp[3] as string } : undefined;
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return undefined;
  }
  const parts = parsed.pathname.replace(/^\/+|\/+$/g, '').split('/');
  if (parsed.host.toLowerCase() !== host || parts.length !== 2) return undefined;
  return { owner: parts[0] as string, name: (parts[1] as string).replace(/\.git$/, '') };
}

/** The links of a submodule at commit `sha`: into its repository when the web root hosts it, else null (GitHub's rule). */
function submoduleLinks(urls: Urls, repo: EmulatedRepo, ref: string, path: string, sha: string, submoduleUrl: string | undefined) {
  const self = `${urls.apiBase}/repos/${repo.owner}/${repo.name}/contents/${encodePath(path)}?ref=${encodeURIComponent(ref)}`;
  const hosted = submoduleUrl === undefined ? undefined : hostedRepoOf(submoduleUrl, urls.htmlBase);
  const git = hosted ? `${urls.apiBase}/repos/${hosted.owner}/${hosted.name}/git/trees/${sha}` : null;
  const html = hosted ? `${urls.htmlBase}/${hosted.owner}/${hosted.name}/tree/${sha}` : null;
  return { url: self, html_url: html, git_url: git, download_url: null, _links: { self, git, html } };
}

/**
 * GitHub's `content-submodule` object: what `GET /contents/{path}` answers for a submodule
 * (https://docs.github.com/rest/repos/contents#get-repository-content): `sha` is the submodule's commit,
 * `submodule_git_url` its URL from `.gitmodules`, and the git and html links point into the submodule's repository
 * when the web root hosts it, else null.
 */
export function contentSubmodule(urls: Urls, repo: EmulatedRepo, ref: string, path: string, sha: string, submoduleUrl: string) {
  return {
    type: 'submodule' as const,
    submodule_git_url: submoduleUrl,
    size: 0,
    name: baseName(path),
    path,
    sha,
    ...submoduleLinks(urls, repo, ref, path, sha, submoduleUrl),
  };
}

/**
 * What a directory listing entry stands for: a file (its blob), a sub-directory (its tree id) or a submodule (its
 * commit id and its URL from `.gitmodules` when there is one).
 */
export type DirectoryItem =
  | { kind: 'file'; blob: { sha: string; content: FileContent } }
  | { kind: 'dir'; sha: string }
  | { kind: 'submodule'; sha: string; url: string | undefined };

/**
 * One entry of a directory listing (GitHub's `content-directory` items): a file, a sub-directory or a submodule. A
 * submodule is listed with `type: "file"` (size 0, no download URL), as GitHub's documentation says it does "for
 * backwards compatibility" (https://docs.github.com/rest/repos/contents#get-repository-content); only reading its path
 * answers `type: "submodule"`.
 */
export function directoryEntry(urls: Urls, repo: EmulatedRepo, ref: string, path: string, item: DirectoryItem) {
  if (item.kind === 'submodule') {
    return {
      type: 'file',
      size: 0,
      name: baseName(path),
      path,
      sha: item.sha,
      ...submoduleLinks(urls, repo, ref, path, item.sha, item.url),
    };
  }
  if (item.kind === 'file') {
    const { sha } = item.blob;
    return {
      type: 'file',
      size: fileSize(item.blob.content),
      name: baseName(path),
      path,
      sha,
      ...contentLinks(urls, repo, ref, path, 'file', sha),
    };
  }
  return { type: item.kind, size: 0, name: baseName(path), path, sha: item.sha, ...contentLinks(urls, repo, ref, path, 'dir', item.sha) };
}

/**
 * GitHub's `global-advisory` object (https://docs.github.com/rest/security-advisories/global-advisories): identifiers
 * (the GHSA id, then the CVE id when there is one), the affected packages, and null for what the seed does not model
 * (CVSS, EPSS, source code location, NVD date); `github_reviewed_at` is the publication date of a reviewed advisory.
 */
export function globalAdvisory(urls: Urls, advisory: EmulatedAdvisory) {
  return {
    ghsa_id: advisory.ghsaId,
    cve_id: advisory.cveId,
    url: `${urls.apiBase}/advisories/${advisory.ghsaId}`,
    html_url: `${urls.htmlBase}/advisories/${advisory.ghsaId}`,
    repository_advisory_url: null,
    summary: advisory.summary,
    description: advisory.description,
    type: advisory.type,
    severity: advisory.severity,
    source_code_location: null,
    identifiers: [
      { type: 'GHSA' as const, value: advisory.ghsaId },
      ...(advisory.cveId === null ? [] : [{ type: 'CVE' as const, value: advisory.cveId }]),
    ],
    references: advisory.references,
    published_at: advisory.publishedAt,
    updated_at: advisory.updatedAt,
    github_reviewed_at: advisory.type === 'reviewed' ? advisory.publishedAt : null,
    nvd_published_at: null,
    withdrawn_at: advisory.withdrawnAt,
    vulnerabilities: advisory.vulnerabilities.map((v) => ({
      package: { ecosystem: v.ecosystem, name: v.package },
      vulnerable_version_range: v.vulnerableVersionRange,
      first_patched_version: v.firstPatchedVersion,
      vulnerable_functions: v.vulnerableFunctions,
    })),
    cvss: { vector_string: null, score: null },
    cwes: advisory.cwes.map((c) => ({ cwe_id: c.cweId, name: c.name })),
    credits: [],
  };
}
