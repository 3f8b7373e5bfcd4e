import { DOCS, GitHubApiError } from '../github-http.ts';

/**
 * Every message the emulator answers about GitHub Apps, in one place, with where each comes from. GitHub documents
 * the statuses (https://docs.github.com/rest/apps) but not these texts: they are GitHub's own as its clients see them
 * and match on (octokit's `@octokit/auth-app` retries on the three clock messages; octokit.rb raises
 * `InstallationSuspended` on the suspended one), quoted from client fixtures and bug reports.
 */
export const APP_MESSAGES = {
  /** 401: a JWT that does not parse, is not RS256, names no known App, or whose signature fails (also no JWT at all on a JWT-only endpoint). */
  jwtUndecodable: 'A JSON web token could not be decoded',
  /** 401: `iss` neither an integer App ID nor a client ID. */
  issuerNotInteger: "'Issuer' claim ('iss') must be an Integer",
  /** 401: `iat` missing, not an integer, or later than now plus the clock-skew allowance. */
  issuedAtInvalid: "'Issued at' claim ('iat') must be an Integer representing the time that the assertion was issued",
  /** 401: `exp` missing, not a number, or already past. */
  expirationInvalid: "'Expiration time' claim ('exp') must be a numeric value representing the future time at which the assertion expires",
  /** 401: `exp` more than 10 minutes after `iat`. */
  expirationTooFar: "'Expiration time' claim ('exp') is too far in the future",
  /** 403: an installation access token (or an App's JWT) where GitHub wants another actor or a permission it lacks. */
  notAccessibleByIntegration: 'Resource not accessible by integration',
  /** 403: a token asked for, or used, on a suspended installation. */
  suspended: 'This installation has been suspended',
  /** 403: `GET /installation/repositories` without an installation access token. */
  listNeedsInstallationToken: 'You must authenticate with an installation access token in order to list repositories for an installation.',
  /** 403: `DELETE /installation/token` without an installation access token. */
  revokeNeedsInstallationToken: 'You must authenticate with an installation access token in order to revoke it',
  /** 422: a token asked for a repository its installation does not cover (or that does not exist). */
  repositoriesNotAccessible: 'There is at least one repository that does not exist or is not accessible to the parent installation.',
  /** 422: a token asked for a permission its installation was not granted. */
  permissionsNotGranted: 'The permissions requested are not granted to this installation.',
  /** 422: a permission level other than read, write or admin. */
  permissionActionUnsupported:
    'There is at least one permission action that is not supported. It should be one of: "read", "write" or "admin".',
} as const;

/** `documentation_url`s of the App endpoints. */
export const APP_DOCS = {
  getApp: 'https://docs.github.com/rest/apps/apps#get-the-authenticated-app',
  listInstallations: 'https://docs.github.com/rest/apps/apps#list-installations-for-the-authenticated-app',
  getInstallation: 'https://docs.github.com/rest/apps/apps#get-an-installation-for-the-authenticated-app',
  deleteInstallation: 'https://docs.github.com/rest/apps/apps#delete-an-installation-for-the-authenticated-app',
  createToken: 'https://docs.github.com/rest/apps/apps#create-an-installation-access-token-for-an-app',
  repoInstallation: 'https://docs.github.com/rest/apps/apps#get-a-repository-installation-for-the-authenticated-app',
  orgInstallation: 'https://docs.github.com/rest/apps/apps#get-an-organization-installation-for-the-authenticated-app',
  userInstallation: 'https://docs.github.com/rest/apps/apps#get-a-user-installation-for-the-authenticated-app',
  installationRepos: 'https://docs.github.com/rest/apps/installations#list-repositories-accessible-to-the-app-installation',
  revokeToken: 'https://docs.github.com/rest/apps/installations#revoke-an-installation-access-token',
} as const;

/** 401 with one of the JWT messages of {@link APP_MESSAGES} (GitHub points these at the REST root). */
export const jwtRefused = (message: string): GitHubApiError => new GitHubApiError(401, message, DOCS.root);

/** 403 `Resource not accessible by integration`. */
export const notAccessibleByIntegration = (docs: string = DOCS.root): GitHubApiError =>
  new GitHubApiError(403, APP_MESSAGES.notAccessibleByIntegration, docs);

/** 403 `This installation has been suspended`. */
export const installationSuspended = (docs: string = DOCS.root): GitHubApiError => new GitHubApiError(403, APP_MESSAGES.suspended, docs);
