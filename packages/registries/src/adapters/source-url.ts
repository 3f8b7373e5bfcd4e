/**
 * URL clean-up shared by the adapters whose registries pass on links that publishers typed (npm's `repository`,
 * `homepage` and `bugs`, PyPI's `project_urls`, crates.io's `repository`, Packagist's `source` and `support`, a Maven
 * POM's `<scm>`, RubyGems' `source_code_uri` and `homepage_uri`): what reaches `RegistryPackage.sourceUrl` /
 * `changelogUrl` is an http(s) URL a person can open, never with credentials in it.
 */

/**
 * Forges whose repository pages are `https://<host>/<owner>/<repository>` (GitLab: `https://gitlab.com/<group>/…/<project>`,
 * subgroups included). A URL on one of them is cut to its repository: `/tree/v5.2.2/activerecord` goes.
 */
const CODE_HOSTS = new Set(['github.com', 'gitlab.com', 'bitbucket.org', 'codeberg.org']);

/** npm's hosted-git shorthands (`github:owner/repo`), https://docs.npmjs.com/cli/configuring-npm/package-json#repository. */
const SHORTHAND_HOSTS: Record<string, string> = { github: 'github.com', gitlab: 'gitlab.com', bitbucket: 'bitbucket.org' };

/** npm's bare `owner/repo` (a GitHub repository); owners never hold a dot, so `example.com/x` is not one. */
const OWNER_REPO = /^[\w-]+\/[\w.-]+$/;

/** Maven's SCM URL prefix, `scm:<provider>:` (https://maven.apache.org/scm/scm-url-format.html). */
const MAVEN_SCM_PREFIX = /^scm:[a-z0-9]+:/i;

/** scp-like `user@host:path` (no scheme), the form git prints for ssh remotes; the host must hold a dot. */
const SCP_LIKE = /^(?:[\w.-]+@)?([\w.-]+\.[a-z]{2,}):(?!\/\/)\/?(.+)$/i;

const hostOf = (url: URL) => url.hostname.toLowerCase().replace(/^www\./, '');

/** Options of {@link normaliseRepositoryUrl}. */
export interface RepositoryUrlOptions {
  /**
   * Whether npm's shorthands are read: `github:o/r`, `gitlab:o/r`, `bitbucket:o/r` and the bare `o/r` (a GitHub
   * repository). Default true; registries where no such convention exists pass false, so a bare `o/r` is not guessed.
   */
  npmShorthands?: boolean;
}

/**
 * An absolute http(s) URL as given, without user info: `https://user:token@host/x` becomes `https://host/x`.
 * @returns null for anything else (null, undefined, a relative path, another scheme, not a URL)
 */
export function httpUrl(raw: string | null | undefined): string | null {
  if (raw === null || raw === undefined) return null;
  let url: URL;
  try {
    url = new URL(raw.trim());
  } catch {
    return null;
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return null;
  url.username = '';
  url.password = '';
  return url.href;
}

/** The repository on a known forge: `https://host/owner/repo` (GitLab: up to its `/-/` separator), or null without one. */
function forgeRepository(host: string, pathname: string): string | null {
  const segments = pathname.split('/').filter((segment) => segment !== '');
  const separator = segments.indexOf('-');
  const repository = host === 'gitlab.com' ? segments.slice(0, separator === -1 ? undefined : separator) : segments.slice(0, 2);
  const last = repository.pop()?.replace(/\.git$/, '');
  if (repository.length === 0 || last === undefined || last === '') return null;
  return `https://${host}/${[...repository, last].join('/')}`;
}

/**
 * A repository URL as publishers write it, made the https URL of the repository's page where that is obvious:
 * `git+https://github.com/o/r.git`, `git://github.com/o/r.git`, `git+ssh://git@github.com/o/r.git`,
 * `git@github.com:o/r.git`, Maven's `scm:git:https://github.com/o/r.git`, npm's `github:o/r` and bare `o/r` all become
 * `https://github.com/o/r`.
 * - On GitHub, GitLab, Bitbucket and Codeberg: `https://host/owner/repo` only (`http:`, `www.`, a port, a `.git`
 *   suffix, deeper paths such as `/tree/main/sub`, the query and the fragment go); GitLab keeps its subgroups
 *   (`https://gitlab.com/group/sub/project`, cut at `/-/`). An owner without a repository is null.
 * - Elsewhere: `http:` and `https:` stay as given (with their port), `git:` and `ssh:` become `https:` (their port
 *   goes); the fragment goes; with a query the path and query stay as given (gitweb and cgit name the repository
 *   there: `https://git.example.org/cgit/?p=lib.git`), without one a trailing `/` and `.git` go.
 * - Credentials always go.
 * @param raw the URL as typed; null and undefined are accepted (no URL)
 * @returns null for what is not a repository URL: an empty string, an unresolved Maven property (`${project.url}`),
 *   `svn://`, `file:`, free text, a forge URL without owner and repository
 */
export function normaliseRepositoryUrl(raw: string | null | undefined, options: RepositoryUrlOptions = {}): string | null {
  if (raw === null || raw === undefined) return null;
  let text = raw.trim().replace(MAVEN_SCM_PREFIX, '');
  if (text === '' || text.includes('${')) return null;
  const shorthand = options.npmShorthands === false ? null : /^(github|gitlab|bitbucket):([\w.-]+\/[\w.-]+)$/.exec(text);
  const scp = SCP_LIKE.exec(text);
  if (shorthand?.[1] !== undefined && shorthand[2] !== undefined) text = `https://${SHORTHAND_HOSTS[shorthand[1]]}/${shorthand[2]}`;
  else if (options.npmShorthands !== false && OWNER_REPO.test(text)) text = `https://github.com/${text}`;
  else if (scp?.[1] !== undefined && scp[2] !== undefined) text = `https://${scp[1]}/${scp[2]}`;
  let url: URL;
  try {
    url = new URL(text.replace(/^git\+/, ''));
  } catch {
    return null;
  }
  if (!['http:', 'https:', 'git:', 'ssh:'].includes(url.protocol) || url.hostname === '') return null;
  const host = hostOf(url);
  if (CODE_HOSTS.has(host)) return forgeRepository(host, url.pathname);
  const web = url.protocol === 'http:' || url.protocol === 'https:';
  const origin = `${url.protocol === 'http:' ? 'http:' : 'https:'}//${url.hostname}${web && url.port ? `:${url.port}` : ''}`;
  if (url.search !== '') return `${origin}${url.pathname}${url.search}`;
  return `${origin}${url.pathname.replace(/\/+$/, '').replace(/\.git$/, '')}`;
}

/**
 * The repository a GitHub, GitLab, Bitbucket or Codeberg page belongs to: `https://github.com/o/r/issues` or
 * `https://github.com/o/r#readme` becomes `https://github.com/o/r` (a homepage or an issue tracker that gives the
 * repository away). Only absolute http(s) URLs count: a page is never read as a shorthand or an ssh remote.
 * @returns null for a URL on another host, one without owner and repository, or anything not an http(s) URL
 */
export function codeHostRepository(raw: string | null | undefined): string | null {
  const page = httpUrl(raw);
  const repository = page === null ? null : normaliseRepositoryUrl(page);
  return repository !== null && CODE_HOSTS.has(new URL(repository).hostname) ? repository : null;
}
