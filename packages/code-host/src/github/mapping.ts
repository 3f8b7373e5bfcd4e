import { ADVISORY_ECOSYSTEMS, type AdvisoryEcosystem } from '@switchyard/contracts';
import { CodeHostError } from '../errors.ts';
import { type GitHubPermissions, repoPermissionFrom } from '../permission.ts';
import type { CodeHostAccount, CodeHostInstallation, CodeHostRepo, SecurityAdvisory } from '../port.ts';

/** The fields of GitHub's `simple-user` / `private-user` / `organization-simple` objects the port needs. */
interface GitHubAccountJson {
  id: number;
  login: string;
  type?: string;
}

/** The fields of GitHub's `repository` / `minimal-repository` / `full-repository` objects the port needs. */
interface GitHubRepoJson {
  id: number;
  name: string;
  full_name: string;
  owner: GitHubAccountJson;
  private: boolean;
  fork: boolean;
  archived?: boolean;
  html_url: string;
  language?: string | null;
  default_branch?: string;
  permissions?: GitHubPermissions;
}

/** The error of an answer whose body is not what GitHub documents for `what` (e.g. `GET /app`). */
export function unexpected(what: string): CodeHostError {
  return new CodeHostError('unavailable', `GitHub ${what}: unexpected response body`, { status: 200 });
}

function isAccount(value: unknown): value is GitHubAccountJson {
  const v = value as GitHubAccountJson | null;
  return typeof v === 'object' && v !== null && Number.isInteger(v.id) && typeof v.login === 'string';
}

/**
 * A GitHub account object as a {@link CodeHostAccount}: `type: "Organization"` (or `fallback` `org` when GitHub sends no
 * type, as `organization-simple` does) → `org`, otherwise `user`.
 * @throws CodeHostError `unavailable` when the body is not an account object
 */
export function toAccount(json: unknown, fallback: CodeHostAccount['type'], what: string): CodeHostAccount {
  if (!isAccount(json)) throw unexpected(what);
  const type = json.type === undefined ? fallback : json.type === 'Organization' ? 'org' : 'user';
  return { id: json.id, login: json.login, type };
}

/**
 * A GitHub repository object as a {@link CodeHostRepo}; the permission comes from its `permissions` object
 * (see {@link repoPermissionFrom}), `archived` defaults to false and `default_branch` to `main` when absent.
 * @throws CodeHostError `unavailable` when the body is not a repository object
 */
export function toRepo(json: unknown, what: string): CodeHostRepo {
  const r = json as GitHubRepoJson | null;
  if (typeof r !== 'object' || r === null || !Number.isInteger(r.id) || typeof r.name !== 'string' || !isAccount(r.owner)) {
    throw unexpected(what);
  }
  return {
    id: r.id,
    name: r.name,
    fullName: r.full_name,
    owner: toAccount(r.owner, 'user', what),
    private: r.private === true,
    fork: r.fork === true,
    archived: r.archived === true,
    htmlUrl: r.html_url,
    language: r.language ?? null,
    defaultBranch: r.default_branch ?? 'main',
    permission: repoPermissionFrom(r.permissions),
  };
}

/**
 * The text of a `GET /repos/{owner}/{repo}/contents/{path}` answer: the decoded content of a `file` object with
 * `encoding: "base64"` (https://docs.github.com/rest/repos/contents#get-repository-content); `null` for a file
 * sent without content (`encoding: "none"`, files over 1 MB, to be fetched raw); undefined for a directory (an array),
 * a symlink or a submodule.
 */
export function fileText(json: unknown): string | null | undefined {
  if (Array.isArray(json) || typeof json !== 'object' || json === null) return undefined;
  const file = json as { type?: unknown; encoding?: unknown; content?: unknown };
  if (file.type !== 'file') return undefined;
  if (file.encoding === 'base64' && typeof file.content === 'string') return Buffer.from(file.content, 'base64').toString('utf8');
  return null;
}

/**
 * The `size` in bytes of a `GET /repos/{owner}/{repo}/contents/{path}` answer about a file (present whether or not the
 * content is inline), or undefined for anything else (a directory, a body without a numeric size).
 */
export function fileSize(json: unknown): number | undefined {
  if (Array.isArray(json) || typeof json !== 'object' || json === null) return undefined;
  const file = json as { type?: unknown; size?: unknown };
  return file.type === 'file' && typeof file.size === 'number' && Number.isFinite(file.size) ? file.size : undefined;
}

const ECOSYSTEMS: ReadonlySet<string> = new Set(ADVISORY_ECOSYSTEMS);
const SEVERITIES: ReadonlySet<string> = new Set<SecurityAdvisory['severity']>(['critical', 'high', 'medium', 'low', 'unknown']);

const stringOrNull = (value: unknown): string | null => (typeof value === 'string' ? value : null);

/**
 * GitHub's `global-advisory` object (https://docs.github.com/rest/security-advisories/global-advisories) as a
 * {@link SecurityAdvisory}. An affected package of an ecosystem the port does not know becomes `other`; an unknown
 * severity `unknown`.
 * @throws CodeHostError `unavailable` when the body is not an advisory (no `ghsa_id`, `summary`, `published_at`,
 *   `updated_at` or `html_url`)
 */
export function toAdvisory(json: unknown, what: string): SecurityAdvisory {
  const a = json as Record<string, unknown> | null;
  if (
    typeof a !== 'object' ||
    a === null ||
    typeof a.ghsa_id !== 'string' ||
    typeof a.summary !== 'string' ||
    typeof a.published_at !== 'string' ||
    typeof a.updated_at !== 'string' ||
    typeof a.html_url !== 'string'
  ) {
    throw unexpected(what);
  }
  const vulnerabilities = Array.isArray(a.vulnerabilities) ? a.vulnerabilities : [];
  return {
    ghsaId: a.ghsa_id,
    cveId: stringOrNull(a.cve_id),
    summary: a.summary,
    severity: typeof a.severity === 'string' && SEVERITIES.has(a.severity) ? (a.severity as SecurityAdvisory['severity']) : 'unknown',
    publishedAt: a.published_at,
    updatedAt: a.updated_at,
    withdrawnAt: stringOrNull(a.withdrawn_at),
    htmlUrl: a.html_url,
    vulnerabilities: vulnerabilities.map((entry: unknown) => {
      const v = (entry ?? {}) as { package?: { ecosystem?: unknown; name?: unknown } | null } & Record<string, unknown>;
      const ecosystem = typeof v.package?.ecosystem === 'string' && ECOSYSTEMS.has(v.package.ecosystem) ? v.package.ecosystem : 'other';
      return {
        ecosystem: ecosystem as AdvisoryEcosystem,
        packageName: stringOrNull(v.package?.name),
        vulnerableVersionRange: stringOrNull(v.vulnerable_version_range),
        firstPatchedVersion: stringOrNull(v.first_patched_version),
      };
    }),
  };
}

/**
 * GitHub's `installation` object (https://docs.github.com/rest/apps/installations) as a {@link CodeHostInstallation}.
 * @throws CodeHostError `unavailable` when the body is not an installation on an account
 */
export function toInstallation(json: unknown, what: string): CodeHostInstallation {
  const i = json as { id?: unknown; account?: unknown; repository_selection?: unknown } | null;
  if (typeof i !== 'object' || i === null || !Number.isInteger(i.id) || !isAccount(i.account)) throw unexpected(what);
  if (i.repository_selection !== 'all' && i.repository_selection !== 'selected') throw unexpected(what);
  return { id: i.id as number, accountLogin: i.account.login, accountId: i.account.id, repositorySelection: i.repository_selection };
}
