import type { AdvisoryEcosystem } from '@switchyard/contracts';

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

/** One package an advisory affects, and which of its versions. */
export interface AdvisoryVulnerability {
  /** The advisory database's ecosystem (`ADVISORY_ECOSYSTEMS` of @switchyard/contracts): `npm`, `rust` (crates.io), ... */
  ecosystem: AdvisoryEcosystem;
  /** The package's name in its ecosystem (`lodash`, `@babel/core`, `org.apache.commons:commons-text`), or null when unknown. */
  packageName: string | null;
  /** GitHub's range syntax: comparators joined by `, `, e.g. `>= 4.0.0, < 4.17.21`; null when unknown. */
  vulnerableVersionRange: string | null;
  /** The first version without the vulnerability, or null when there is none yet. */
  firstPatchedVersion: string | null;
}

/** A reviewed global security advisory of the platform's advisory database. */
export interface SecurityAdvisory {
  /** `GHSA-xxxx-xxxx-xxxx`. */
  ghsaId: string;
  /** `CVE-YYYY-NNNN`, or null when the advisory has no CVE. */
  cveId: string | null;
  summary: string;
  severity: 'critical' | 'high' | 'medium' | 'low' | 'unknown';
  /** ISO 8601 timestamps. */
  publishedAt: string;
  updatedAt: string;
  /** When the advisory was withdrawn (ISO 8601), or null: a withdrawn advisory no longer applies. */
  withdrawnAt: string | null;
  /** Every affected package of the advisory (also those of other ecosystems or names than asked for). */
  vulnerabilities: AdvisoryVulnerability[];
  /** The advisory's web page, e.g. `https://github.com/advisories/GHSA-35jh-r3h4-6jhm`. */
  htmlUrl: string;
}

/** Which advisories {@link CodeHost.listAdvisories} lists: those affecting `packageName` in `ecosystem`. */
export interface AdvisoryQuery {
  ecosystem: AdvisoryEcosystem;
  /** A package name, optionally with `@version` to list only advisories whose vulnerable range holds that version. */
  packageName: string;
}

/** An installation of the platform's app (a GitHub App) on a user or organisation. */
export interface CodeHostInstallation {
  /** The platform's numeric installation id. */
  id: number;
  accountLogin: string;
  /** The numeric id of the account the app is installed on (a {@link CodeHostAccount} id). */
  accountId: number;
  /** `all`: every repository of the account, present and future; `selected`: only the repositories chosen. */
  repositorySelection: 'all' | 'selected';
}

/** A repository by owner login and name (`{ owner: 'acme', name: 'web' }`). */
export interface RepoRef {
  owner: string;
  name: string;
}

/** A gitlink to write at a path in a {@link FileCommit}: a submodule pinned to commit `gitlink` (40 hex; tree mode 160000). */
export interface GitlinkContent {
  gitlink: string;
}

/**
 * One commit of file changes on a branch ({@link CodeHost.commitFiles}): `files` maps a path (`src/app.ts`, no
 * leading slash) to its new text (UTF-8), to a {@link GitlinkContent} (a submodule moved to another commit), or to
 * `null` to delete it; every other file stays as in `parentSha`.
 */
export interface FileCommit {
  /** The branch to move to the new commit. */
  branch: string;
  /**
   * The commit the new one builds on: the base of a new branch (`createBranch`), else the branch's head as the caller
   * last read it (the update is refused otherwise: `conflict`).
   */
  parentSha: string;
  /** The commit message: its first line the title (GitHub's GraphQL `headline`), the rest after a blank line the body. */
  message: string;
  files: Readonly<Record<string, string | GitlinkContent | null>>;
  /**
   * The commit's author; default: the token's user. GitHub's GraphQL commit cannot take another author, so one given
   * makes the GitHub adapter commit through its REST path (four requests rather than one).
   */
  author?: { name: string; email: string };
  /**
   * Move the branch even when the new commit does not descend from its head (a rebase: the commit is recreated on a
   * newer `parentSha`). Default false: a branch that is not fast-forwarded is refused (`conflict`).
   */
  force?: boolean;
  /** `branch` does not exist yet: create it at the new commit (`conflict` when it exists). Default false: move it. */
  createBranch?: boolean;
  /**
   * Move `branch` only while its head is still this commit, else `conflict` (the branch left as it is: someone pushed
   * meanwhile). When it is `parentSha` and the move is not forced, the GitHub adapter commits through GraphQL's
   * `createCommitOnBranch` with `expectedHeadOid`: a true compare-and-swap, GitHub refuses the commit when the head is
   * another (https://docs.github.com/graphql/reference/input-objects#createcommitonbranchinput). Otherwise (a forced
   * move: a rebase onto a newer `parentSha`) GitHub's REST API has no compare-and-swap of a ref: the head is read again
   * once the new commit exists, right before the move, and what is left is the moment between that read and the move.
   */
  expectedHead?: string;
  /** The tree of `parentSha`, when the caller knows it (saves reading the parent commit on the REST path). */
  parentTreeSha?: string;
  /**
   * The repository's global node id (GitHub's `Repository.id`), when the caller knows it: the GitHub adapter names the
   * repository by it to make a branch through GraphQL (`createRef`), and reads it once per repository otherwise.
   */
  repositoryId?: string;
}

/** A branch's head: its commit and that commit's tree. */
export interface BranchCommit {
  sha: string;
  treeSha: string;
}

/** One entry of a repository's tree ({@link CodeHost.listTree}): a file (`blob`), a directory (`tree`) or a gitlink (`commit`). */
export interface TreeEntry {
  /** The path from the repository's root (`src/app.ts`, `vendor/lib`), no leading slash. */
  path: string;
  type: 'blob' | 'tree' | 'commit';
  /** The blob's, tree's or (for a gitlink) the submodule commit's id. */
  sha: string;
  /** Bytes, for a blob. */
  size?: number;
}

/** A repository's whole tree at a commit ({@link CodeHost.listTree}); `truncated` when the host cut the listing short. */
export interface RepoTree {
  entries: TreeEntry[];
  truncated: boolean;
}

/** One entry of a directory ({@link CodeHost.listDirectory}). */
export interface DirectoryEntry {
  /** The entry's name in the directory (`package.json`). */
  name: string;
  type: 'file' | 'dir' | 'symlink' | 'submodule';
  /** Bytes, for a file. */
  size: number;
}

/** A file {@link CodeHost.readFiles} did not read because it is over the code host client's size limit (bytes). */
export interface FileTooLarge {
  /** The client's limit, when the code host said it (the GitHub adapter always does). */
  limitBytes?: number;
  /** The file's size, when the code host said it. */
  sizeBytes?: number;
}

/**
 * What {@link CodeHost.readFiles} read: the text (UTF-8) of each asked file that exists, by the path as asked, and the
 * files over the client's size limit. A path that names nothing, a directory or a submodule is in neither.
 */
export interface FileReads {
  files: Record<string, string>;
  tooLarge: Record<string, FileTooLarge>;
}

/** Options of {@link CodeHost.readFiles}. */
export interface ReadFilesOptions {
  /** The branch, tag or commit to read at; the default branch when undefined. */
  ref?: string;
  /**
   * The files' sizes in bytes when the caller knows them (from a directory or tree listing): a file known to be over
   * the size limit is not fetched at all, and a big one is fetched on its own.
   */
  sizes?: Readonly<Record<string, number>>;
}

/** One repository's part of {@link CodeHost.readRepositories}: `paths` (from the repository's root) at the head of `branch`. */
export interface RepositoryRead {
  repo: RepoRef;
  branch: string;
  paths: readonly string[];
}

/**
 * What {@link CodeHost.readRepositories} read of one repository: the commit `branch`'s head was at (every file was
 * read at it), and the files as {@link CodeHost.readFiles} gives them (a path naming nothing, a directory or a
 * submodule in neither `files` nor `tooLarge`).
 */
export interface RepositoryFiles extends FileReads {
  commit: string;
}

/** What {@link CodeHost.openPullRequest} opens: `head` into `base`, both branches of the repository. */
export interface PullRequestInput {
  head: string;
  base: string;
  title: string;
  body?: string;
  draft?: boolean;
}

/** Which pull request {@link CodeHost.findPullRequest} looks for: from branch `head` (into `base` when given), `state` default `open`. */
export interface PullRequestQuery {
  head: string;
  base?: string;
  state?: 'open' | 'closed' | 'all';
}

/** The changes of {@link CodeHost.updatePullRequest}; absent fields stay as they are. */
export interface PullRequestUpdate {
  title?: string;
  body?: string;
  base?: string;
  state?: 'open' | 'closed';
}

/** A pull request as the port sees it. */
export interface CodeHostPullRequest {
  number: number;
  /**
   * The pull request's global id (GitHub's `node_id`): unlike the number, never given to another pull request, so a
   * caller that stored it knows when a number it remembers names another pull request now. Null when the host gives none.
   */
  nodeId: string | null;
  htmlUrl: string;
  /** `closed` also for a merged pull request (then `merged` is true). */
  state: 'open' | 'closed';
  merged: boolean;
  draft: boolean;
  title: string;
  body: string | null;
  head: { ref: string; sha: string };
  base: { ref: string; sha: string };
  /**
   * Whether the platform can merge it: true, false (conflicts), or null while it is still computing or once the pull
   * request is closed. Only a single pull request read (open, get, update) carries it; listings give null.
   */
  mergeable: boolean | null;
  /** GitHub's `mergeable_state` (`clean`, `behind`, `dirty`, `blocked`, `unstable`, `unknown`, …), or null in listings. */
  mergeableState: string | null;
  /** Label names. */
  labels: string[];
  /** The merge (or squash, or last rebased) commit once merged, else null. */
  mergeCommitSha: string | null;
}

/** An issue as {@link CodeHost.openIssue} and {@link CodeHost.updateIssue} answer it. */
export interface CodeHostIssue {
  number: number;
  htmlUrl: string;
  state: 'open' | 'closed';
  title: string;
  body: string | null;
}

/** What {@link CodeHost.updateIssue} changes (what is left out stays). */
export interface IssueUpdate {
  title?: string;
  body?: string;
  state?: 'open' | 'closed';
  /** GitHub's reason of a close: `completed` (resolved) or `not_planned`. */
  stateReason?: 'completed' | 'not_planned';
  /** The milestone's number (null: none). */
  milestone?: number | null;
}

/** How {@link CodeHost.mergePullRequest} merges: `merge` (a merge commit), `squash` (one commit) or `rebase`. */
export interface MergeRequest {
  number: number;
  method: 'merge' | 'squash' | 'rebase';
  /** The head commit the caller reviewed: the merge is refused (`conflict`, 409) when the head has moved since. */
  sha?: string;
  commitTitle?: string;
  commitMessage?: string;
}

/** A label to put on an issue or pull request: a name, or a name with the colour (6 hex digits) and description to create it with. */
export type LabelInput = string | { name: string; color?: string; description?: string };

/** The state of a commit's checks as a merge gate sees it. */
export type ChecksState = 'pending' | 'success' | 'failure';

/** One commit status (https://docs.github.com/rest/commits/statuses), the latest of its context. */
export interface CommitStatusEntry {
  context: string;
  state: 'error' | 'failure' | 'pending' | 'success';
  description: string | null;
  targetUrl: string | null;
}

/** The combined commit status of a ref: GitHub's combined `state` and the latest status per context. */
export interface CombinedStatus {
  sha: string;
  /** GitHub's rule: `failure` if any status is error/failure, `pending` if any is pending or there are none, else `success`. */
  state: ChecksState;
  statuses: CommitStatusEntry[];
}

/** One check run (https://docs.github.com/rest/checks/runs). */
export interface CheckRunEntry {
  name: string;
  status: 'queued' | 'in_progress' | 'completed' | 'waiting' | 'requested' | 'pending';
  /** Set once `completed`: `success`, `failure`, `neutral`, `cancelled`, `skipped`, `timed_out`, `action_required`, `stale`. */
  conclusion: string | null;
}

/** The check runs of a ref, summarised: `pending` while any is not completed, `failure` if any concluded badly, else `success` (also with none). */
export interface CheckRunsSummary {
  state: ChecksState;
  runs: CheckRunEntry[];
}

/**
 * The code hosting platform as services see it. Every method rejects with a `CodeHostError` on failure.
 * `listAdvisories` and `listInstallations` are optional: a platform (or a test double) without an advisory database
 * or app installations leaves them out; the GitHub adapter has both. So are the writes (branches, commits, pull
 * requests, labels, comments, checks), which only the GitHub adapter implements; they need write access to the
 * repository (`forbidden` otherwise; `not_found` for a repository the token cannot see), a refusal because of the
 * repository's state is `conflict`, and input the platform rejects is `invalid`.
 */
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
  /**
   * Several files' texts at once (`paths` as `readFile` takes them), in as few requests as the platform allows (the
   * GitHub adapter: one GraphQL query for them all); optional, a platform without it is read file by file. A file over
   * the client's size limit is reported in `tooLarge` rather than failing the others.
   */
  readFiles?(token: string, repo: RepoRef, paths: readonly string[], options?: ReadFilesOptions): Promise<FileReads>;
  /**
   * The files of many repositories at once, each at its branch's head (one commit per repository, given with them), in
   * as few requests as the platform allows (the GitHub adapter: two GraphQL queries per 50 repositories, sizes then
   * texts); optional. The answer is in the order of `reads`; undefined for a repository or branch the token cannot
   * read, for the caller to read alone (where its own error says why).
   * @throws CodeHostError when the platform fails as a whole (down, rate-limited)
   */
  readRepositories?(token: string, reads: readonly RepositoryRead[]): Promise<Array<RepositoryFiles | undefined>>;
  /** Every reviewed advisory (all pages) affecting `query.packageName` in `query.ecosystem`, newest first. */
  listAdvisories?(token: string, query: AdvisoryQuery): Promise<SecurityAdvisory[]>;
  /**
   * Every installation of the platform's app that the token's user can reach (all pages). GitHub answers this only to a
   * GitHub App user access token; other tokens are refused (`forbidden`).
   */
  listInstallations?(token: string): Promise<CodeHostInstallation[]>;

  /**
   * The entries of directory `path` (`''`: the root) at `ref` (the default branch when undefined), or undefined when
   * there is no such directory.
   */
  listDirectory?(token: string, repo: RepoRef, path: string, ref?: string): Promise<DirectoryEntry[] | undefined>;
  /**
   * Every entry of the repository's tree at `ref` (a branch, tag or commit id), recursively, in one request; undefined
   * when there is no such ref, also when the repository has no commit at all (GitHub answers 409 `Git Repository is
   * empty.` there, https://docs.github.com/rest/git/trees#get-a-tree).
   */
  listTree?(token: string, repo: RepoRef, ref: string): Promise<RepoTree | undefined>;
  /**
   * The head commit of `branch`, or undefined when there is no such branch, also when the repository has no commit at
   * all (GitHub answers 409 `Git Repository is empty.` there, https://docs.github.com/rest/git/refs#get-a-reference).
   */
  getBranchHead?(token: string, repo: RepoRef, branch: string): Promise<string | undefined>;
  /**
   * The head commit of `branch` with its tree, or undefined when there is no such branch, also when the repository has
   * no commit at all (GitHub answers 404 `Branch not found` there, https://docs.github.com/rest/branches/branches#get-a-branch).
   */
  getBranchCommit?(token: string, repo: RepoRef, branch: string): Promise<BranchCommit | undefined>;
  /**
   * Creates branch `name` at commit `fromSha`; `conflict` when it exists or when the repository has no commit at all
   * (GitHub's 409 `Git Repository is empty.`), `invalid` when the commit does not exist.
   */
  createBranch?(token: string, repo: RepoRef, name: string, fromSha: string): Promise<void>;
  /**
   * One commit changing `change.files` on top of `change.parentSha`, then moves `change.branch` to it (a fast forward:
   * `conflict` when the branch is no longer at `parentSha`'s line; the GitHub adapter's one-request path asks the
   * branch's head to be `parentSha` itself), or creates the branch there (`change.createBranch`: `conflict` when it
   * exists, unless it is exactly at `parentSha`, where the commit is put on it: the same end as a new branch).
   * Returns the new commit's id. `conflict` too when the repository has no commit at all (GitHub's 409 `Git Repository
   * is empty.`: its first commit is not made this way).
   */
  commitFiles?(token: string, repo: RepoRef, change: FileCommit): Promise<string>;
  /** Points `branch` at `sha`; without `force` only as a fast forward (`conflict` otherwise). */
  moveBranch?(token: string, repo: RepoRef, branch: string, sha: string, options?: { force?: boolean }): Promise<void>;
  /** Deletes `branch`; false when there was no such branch (also when the repository has no commit at all). */
  deleteBranch?(token: string, repo: RepoRef, branch: string): Promise<boolean>;
  /** Opens a pull request; `invalid` when a branch is missing or there is nothing to merge, `conflict` when one is already open for the pair. */
  openPullRequest?(token: string, repo: RepoRef, input: PullRequestInput): Promise<CodeHostPullRequest>;
  /** The newest pull request from `query.head` (into `query.base`), or undefined. */
  findPullRequest?(token: string, repo: RepoRef, query: PullRequestQuery): Promise<CodeHostPullRequest | undefined>;
  /** One pull request by number, or undefined when there is none. */
  getPullRequest?(token: string, repo: RepoRef, number: number): Promise<CodeHostPullRequest | undefined>;
  /** Changes title, body, base or state. */
  updatePullRequest?(token: string, repo: RepoRef, number: number, update: PullRequestUpdate): Promise<CodeHostPullRequest>;
  /** Closes a pull request without merging it. */
  closePullRequest?(token: string, repo: RepoRef, number: number): Promise<CodeHostPullRequest>;
  /**
   * Merges a pull request; returns the new head of the base branch. `conflict` with status 405 when it cannot be
   * merged (conflicts, closed, draft) and 409 when its head is no longer `request.sha`.
   */
  mergePullRequest?(token: string, repo: RepoRef, request: MergeRequest): Promise<{ sha: string }>;
  /**
   * Adds labels to issue or pull request `number`, creating those the repository lacks (none when the caller says they
   * all exist: `existing`); returns every label name it now has.
   */
  addLabels?(
    token: string,
    repo: RepoRef,
    number: number,
    labels: readonly LabelInput[],
    options?: { existing?: boolean },
  ): Promise<string[]>;
  /** Makes the labels the repository lacks (with their colours and descriptions); one made meanwhile by someone else is fine. */
  ensureLabels?(token: string, repo: RepoRef, labels: readonly LabelInput[]): Promise<void>;
  /** Comments on issue or pull request `number`; returns the comment's id and web address. */
  comment?(token: string, repo: RepoRef, number: number, body: string): Promise<{ id: number; htmlUrl: string }>;
  /** The comments on issue or pull request `number` made at or after `since` (all pages), oldest first. */
  listComments?(token: string, repo: RepoRef, number: number, since: Date): Promise<Array<{ id: number; body: string }>>;
  /**
   * Opens an issue; `not_found` with status 410 when the repository has issues turned off, so that the caller reports
   * elsewhere.
   */
  openIssue?(token: string, repo: RepoRef, input: { title: string; body: string; labels?: readonly string[] }): Promise<CodeHostIssue>;
  /** One issue by number, or undefined when there is none (or it is a pull request's number). */
  getIssue?(token: string, repo: RepoRef, number: number): Promise<CodeHostIssue | undefined>;
  /** Changes an issue's (or a pull request's) title, body, state or milestone. */
  updateIssue?(token: string, repo: RepoRef, number: number, update: IssueUpdate): Promise<CodeHostIssue>;
  /**
   * Asks `reviewers` to review pull request `number`: logins, and teams as `org/team-slug`; `invalid` when one is not a
   * collaborator (GitHub answers 422).
   */
  requestReviewers?(token: string, repo: RepoRef, number: number, reviewers: readonly string[]): Promise<void>;
  /** Assigns issue or pull request `number` to `logins` (the platform leaves out those who may not be assigned). */
  addAssignees?(token: string, repo: RepoRef, number: number, logins: readonly string[]): Promise<void>;
  /**
   * The permission user `login` has on the repository (`admin`, `write`, `read` or `none`; GitHub's `maintain` counts
   * as `write`, `triage` as `read`): who may give the bot commands. `none` for a user the platform does not know.
   */
  collaboratorPermission?(token: string, repo: RepoRef, login: string): Promise<RepoPermission>;
  /** The combined commit status of `ref` (a branch or commit id). */
  combinedStatus?(token: string, repo: RepoRef, ref: string): Promise<CombinedStatus>;
  /** The check runs of `ref` (a branch or commit id), all pages. */
  checkRuns?(token: string, repo: RepoRef, ref: string): Promise<CheckRunsSummary>;
}
