/**
 * The port through which services use a code hosting platform (GitHub, GitHub Enterprise Server or the
 * emulator in `@switchyard/github-emulator`). Services depend on these types only, never on Octokit or GitHub's JSON shapes.
 * Every method takes the caller's token (a GitHub personal access token) and rejects with a
 * {@link import('./errors.ts').CodeHostError} when the platform refuses or fails.
 */

/**
 * The token owner's permission on a repository, from GitHub's `permissions` object
 * (`admin` → admin; `maintain` or `push` → write; `triage` or `pull` → read; none of them → none).
 * Ordered: none < read < write < admin.
 */
export type RepoPermission = 'admin' | 'write' | 'read' | 'none';

/** A user or an organisation on the platform. `id` is the platform's numeric account id. */
export interface CodeHostAccount {
  id: number;
  login: string;
  type: 'user' | 'org';
}

/** A repository as the token owner sees it. */
export interface CodeHostRepo {
  /** The platform's numeric repository id (stable across renames and transfers). */
  id: number;
  name: string;
  /** `owner/name`. */
  fullName: string;
  owner: CodeHostAccount;
  private: boolean;
  fork: boolean;
  archived: boolean;
  /** The repository's web page, e.g. `https://github.com/acme/web`. */
  htmlUrl: string;
  /** The primary language as the platform detected it, or null. */
  language: string | null;
  defaultBranch: string;
  /** The permission a request with the token has on it: the owner's role, capped by what a `per-repo` token may do. */
  permission: RepoPermission;
}

/**
 * What a token itself may do, apart from its user's roles, as the platform reports it:
 * - `scopes`: a classic personal access token or OAuth token, with the OAuth scopes GitHub lists in `X-OAuth-Scopes`
 *   (https://docs.github.com/apps/oauth-apps/building-oauth-apps/scopes-for-oauth-apps);
 * - `per-repo`: a token without OAuth scopes (a fine-grained personal access token, a GitHub App token): what it may do
 *   on a repository is part of the `permission` the platform reports for that repository through the token.
 */
export type TokenCapability = { kind: 'scopes'; scopes: readonly string[] } | { kind: 'per-repo' };

/** The owner of a token and what the token may do. */
export interface TokenOwner {
  account: CodeHostAccount;
  capability: TokenCapability;
}

/** The code hosting platform as services see it. Every method rejects with a `CodeHostError` on failure. */
export interface CodeHost {
  /** The user who owns the token, and the token's capability. */
  currentUser(token: string): Promise<TokenOwner>;
  /** Every organisation the token's user is a member of. */
  organisations(token: string): Promise<CodeHostAccount[]>;
  /** The token's user's role in the organisation `org`: `admin`, `member`, or undefined when not an active member. */
  organisationRole(token: string, org: CodeHostAccount): Promise<'admin' | 'member' | undefined>;
  /** Every repo of `account` the token can see (all pages), with the caller's permission. */
  listRepos(token: string, account: CodeHostAccount): Promise<CodeHostRepo[]>;
  /** One repo by its numeric id, or undefined when it does not exist or the token cannot see it. */
  getRepo(token: string, repoId: number): Promise<CodeHostRepo | undefined>;
  /** A file's text at `ref` (the default branch when undefined), or undefined when there is no such file. */
  readFile(token: string, repo: { owner: string; name: string }, path: string, ref?: string): Promise<string | undefined>;
}
