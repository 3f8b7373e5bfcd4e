import { createHash } from 'node:crypto';
import type { Logger } from '@switchyard/service-kit';
import { LRUCache } from 'lru-cache';
import { formatBytes } from './byte-size.ts';
import { CodeHostError, isCodeHostError } from './errors.ts';
import { type ClientSettings, createConditionalCache, createOctokit, type GitHubClient } from './github/client.ts';
import { isEmptyRepositoryError, toCodeHostError } from './github/errors.ts';
import { gitHubIssues } from './github/issues.ts';
import { fileSize, fileText, toAccount, toAdvisory, toInstallation, toRepo } from './github/mapping.ts';
import { type BlobAnswer, blobAnswers, readFilesRequest } from './github/read-files.ts';
import {
  emptyRepositoryFiles,
  repositoriesAnswer,
  type SizedFile,
  sizesOf,
  sizesRequest,
  type TextAsked,
  textsOf,
  textsRequest,
} from './github/read-repositories.ts';
import { gitHubWrites } from './github/writes.ts';
import type {
  CodeHost,
  CodeHostRepo,
  DirectoryEntry,
  FileReads,
  RepositoryFiles,
  RepositoryRead,
  TokenCapability,
  TokenOwner,
  TreeEntry,
} from './port.ts';
import { readEachFile } from './read-files.ts';

export { readFilesQuery, readFilesRequest } from './github/read-files.ts';

/**
 * The settings every client of one adapter shares, from its options with their defaults (see
 * {@link GitHubCodeHostOptions}).
 * @throws RangeError when `maxResponseBytes` is not a whole number of at least 1 or `conditionalCacheBytes` is negative
 */
export function clientSettings(options: GitHubCodeHostOptions): ClientSettings {
  const settings: ClientSettings = {
    baseUrl: (options.baseUrl ?? 'https://api.github.com').replace(/\/+$/, ''),
    userAgent: options.userAgent ?? 'switchyard-code-host',
    timeoutMs: options.timeoutMs ?? 10_000,
    maxRateLimitWaitSeconds: options.maxRateLimitWaitSeconds ?? 10,
    throttle: options.throttle ?? true,
    retries: options.retries ?? 2,
    retryBaseDelayMs: options.retryBaseDelayMs ?? 1_000,
    maxResponseBytes: options.maxResponseBytes ?? DEFAULT_MAX_RESPONSE_BYTES,
    logger: options.logger,
    ...(options.beforeContentCreation ? { beforeContentCreation: options.beforeContentCreation } : {}),
    ...(options.currentToken ? { currentToken: options.currentToken } : {}),
  };
  const conditionalBytes = options.conditionalCacheBytes ?? DEFAULT_CONDITIONAL_CACHE_BYTES;
  if (!Number.isSafeInteger(conditionalBytes) || conditionalBytes < 0) {
    throw new RangeError(`conditionalCacheBytes must be a whole number of bytes (0: off), not ${options.conditionalCacheBytes}`);
  }
  if (conditionalBytes > 0) settings.conditional = createConditionalCache(conditionalBytes);
  if (!Number.isSafeInteger(settings.maxResponseBytes) || settings.maxResponseBytes < 1) {
    throw new RangeError(`maxResponseBytes must be a whole number of bytes of at least 1, not ${options.maxResponseBytes}`);
  }
  return settings;
}

/** The {@link CodeHost} port on GitHub, with every optional method (advisories, app installations, writes) present. */
export type GitHubCodeHost = Required<CodeHost>;

/** Configuration of {@link createGitHubCodeHost}. */
export interface GitHubCodeHostOptions {
  /** REST API root: `https://api.github.com` (default), `https://ghe.example.com/api/v3`, or the emulator's URL. */
  baseUrl?: string;
  /** Sent as `User-Agent` (GitHub requires one), before Octokit's own; default `switchyard-code-host`. */
  userAgent?: string;
  /** How long one HTTP request (one page of a list) may take, until its body is read, in milliseconds; default 10 000. Not retried. */
  timeoutMs?: number;
  /**
   * The longest rate-limit wait, in seconds, that is waited out (once) before retrying; a longer wait, or a second
   * limit, rejects with `rate_limited` at once. Default 10.
   */
  maxRateLimitWaitSeconds?: number;
  /** Retries of a 5xx answer or a network error (not of timeouts or 4xx); default 2. */
  retries?: number;
  /**
   * Queue requests through Octokit's throttling plugin (GitHub's recommended pacing, and the one wait of a rate
   * limit); default true. Its scheduler caps one process at a few hundred requests a second, so a bulk reader
   * that handles `rate_limited` itself (release-svc's worker retries the batch) turns it off.
   */
  throttle?: boolean;
  /** The n-th retry waits n² × this, in milliseconds; default 1 000. */
  retryBaseDelayMs?: number;
  /**
   * The most bytes one answer's body may have, and one file `readFile` returns; default {@link DEFAULT_MAX_RESPONSE_BYTES}
   * (5 MiB). Bigger rejects with `too_large` (not retried): a file GitHub says is bigger is not fetched at all, and an
   * answer whose `Content-Length` says so or whose body passes the limit while read is cut off there.
   */
  maxResponseBytes?: number;
  /**
   * Bytes of GET answers remembered, per token, for conditional requests (`If-None-Match` with the answer's `ETag`; a
   * `304 Not Modified` is answered from memory and does not count against GitHub's rate limit); default
   * {@link DEFAULT_CONDITIONAL_CACHE_BYTES} (32 MiB, counted by `Content-Length`), 0: no conditional requests.
   */
  conditionalCacheBytes?: number;
  /**
   * Awaited before each content-creating request is sent (those GitHub's secondary limits count:
   * `@switchyard/contracts`' `createsContent` and `graphqlCreatesContent`), with the token it is sent with, once per
   * request (a retry of a 5xx is not asked again): a caller paces them here, per installation, so that the limits are
   * never reached (release-svc's worker books each in its shared budget and waits as told). A rejection fails the request.
   */
  beforeContentCreation?: (token: string) => Promise<void>;
  /**
   * The token to send in place of the one a caller passed, asked before each request, and again with `rejected` after a
   * 401 (the request is then sent once more when it gives another token). App mode passes `GitHubApp.currentToken`, so
   * an installation token held through a long piece of work is renewed before it expires, and never sent after.
   * Unset: the caller's token as it is.
   */
  currentToken?: (token: string, rejected: boolean) => Promise<string>;
  logger: Logger;
}

/** The default of `GitHubCodeHostOptions.conditionalCacheBytes`: 32 MiB of answers. */
export const DEFAULT_CONDITIONAL_CACHE_BYTES = 32 * 1024 * 1024;

/**
 * Files at most this big are read through GraphQL; a bigger one through the contents API (GitHub may cut a big blob's
 * GraphQL `text`, and the contents API hands files over 1 MB out raw).
 */
const GRAPHQL_BLOB_BYTES = 1_048_576;

/** The most files one GraphQL query of `readFiles` asks for. */
const FILES_PER_QUERY = 50;

/** The most repositories one GraphQL query of `readRepositories` reads (each an alias of `repository`). */
const REPOSITORIES_PER_QUERY = 50;

/** The most `object(expression:)` fields one GraphQL query of `readRepositories` asks for. */
const OBJECTS_PER_QUERY = 400;

/** The default of `GitHubCodeHostOptions.maxResponseBytes`: 5 MiB. */
export const DEFAULT_MAX_RESPONSE_BYTES = 5 * 1024 * 1024;

/** A token that could be sent in an HTTP header at all: visible ASCII, no spaces. Anything else is rejected locally. */
const plausibleToken = /^[\x21-\x7e]{1,1024}$/;

/** Octokit's `per_page` for every list: GitHub's maximum. */
const PER_PAGE = 100;

/**
 * The {@link CodeHost} port on GitHub's REST API (api.github.com, GitHub Enterprise Server, or the emulator) with
 * `@octokit/rest`, `@octokit/plugin-retry` and `@octokit/plugin-throttling`. Each call authenticates with
 * `Authorization: token <token>`; lists follow every `Link: rel="next"` page at `per_page=100`.
 *
 * Endpoints (https://docs.github.com/rest):
 * - `currentUser`: `GET /user`; its `X-OAuth-Scopes` header gives a classic token's scopes (no header: a token with
 *   per-repository permissions, see {@link capabilityFrom});
 * - `organisations`: `GET /user/orgs` (all pages);
 * - `organisationRole`: `GET /user/memberships/orgs/{org}` (`role` of an `active` membership; 404 or `pending` → undefined);
 * - `listRepos`: a user: `GET /user/repos?affiliation=owner` (the token owner's own repos; another user's account
 *   yields `[]`); an organisation: `GET /orgs/{org}/repos?type=all`;
 * - `getRepo`: `GET /repositories/{id}` (404 → undefined; an id that is not a positive integer → undefined without a request);
 * - `listDirectory`: `GET /repos/{owner}/{repo}/contents/{path}?ref=` answering a directory's entries (a file or 404 →
 *   undefined; GitHub lists up to 1,000 entries);
 * - `listTree`: `GET /repos/{owner}/{repo}/git/trees/{ref}?recursive=1` (a branch, tag or commit; 404, and 409 "Git
 *   Repository is empty." on a repository without any commit → undefined; GitHub's `truncated` passed on;
 *   https://docs.github.com/rest/git/trees#get-a-tree);
 * - `readFile`: `GET /repos/{owner}/{repo}/contents/{path}?ref=` (base64 `content`; a directory, symlink, submodule or
 *   404 → undefined; a file over 1 MB is fetched again with `Accept: application/vnd.github.raw`; a file whose `size`
 *   is over `maxResponseBytes` → `too_large` without fetching it);
 * - `readFiles`: several files in one `POST /graphql` query (`readFilesQuery`: an aliased `object(expression:
 *   "<ref>:<path>") { ... on Blob }` per file, up to 50 a query and, when `sizes` are given, about half
 *   `maxResponseBytes` of text); a lone file, a file over 1 MB, a blob GitHub cut or calls binary, or a query whose
 *   answer is over `maxResponseBytes` goes through `readFile` instead; a file whose known size or `byteSize` is over
 *   `maxResponseBytes` is reported in `tooLarge` without its text;
 * - `readRepositories`: the files of many repositories in two `POST /graphql` queries per 50 (`read-repositories.ts`:
 *   each repository's branch head and the paths' blob sizes, then the texts of those that exist at that commit, packed
 *   by size); a file over 1 MB, binary or cut goes through `readFile` at that commit;
 * - `listAdvisories`: `GET /advisories?type=reviewed&ecosystem=&affects=` (all pages, following the cursor `Link`
 *   headers; https://docs.github.com/rest/security-advisories/global-advisories#list-global-security-advisories);
 *   a `packageName` that is empty or holds a comma (which would make it a list) is a `RangeError` without a request;
 * - `listInstallations`: `GET /user/installations` (all pages;
 *   https://docs.github.com/rest/apps/installations#list-app-installations-accessible-to-the-user-access-token);
 * - the writes (branches, commits through the Git Data API, pull requests, labels, comments, statuses and check
 *   runs): see {@link gitHubWrites} (`src/github/writes.ts`); issues and collaborators' permissions: {@link gitHubIssues}
 *   (`src/github/issues.ts`).
 *
 * GET answers with an `ETag` are remembered per token (`conditionalCacheBytes`) and asked for again with
 * `If-None-Match`: a `304 Not Modified` (which GitHub does not count against the rate limit) gives the remembered answer.
 *
 * Every failure rejects with a {@link CodeHostError}: 401 → `unauthorized`; a malformed token → `unauthorized` without a
 * request; 403 → `forbidden`; 404 → `not_found`; a rate limit → `rate_limited` with `retryAfterSeconds`; a timeout,
 * network error or 5xx (after retries) → `unavailable`; an answer or file over `maxResponseBytes` → `too_large`;
 * 409, 405 and a 422 about an existing ref or a non-fast-forward → `conflict` (but a read that finds nothing on an empty
 * repository's 409 `Git Repository is empty.` gives undefined, as said above); other 422 and 400 → `invalid`.
 * Tokens are never logged.
 * @throws RangeError when `maxResponseBytes` is not a whole number of at least 1
 */
export function createGitHubCodeHost(options: GitHubCodeHostOptions): GitHubCodeHost {
  const settings = clientSettings(options);
  // GraphQL's endpoint: https://api.github.com/graphql; GitHub Enterprise Server's https://ghe/api/graphql beside /api/v3.
  const graphqlBaseUrl = settings.baseUrl.replace(/\/api\/v3$/, '/api');
  const logger = options.logger;
  // One client per token, reused: an Octokit with its throttling state is costly to build for every call.
  // Keyed by the token's hash; the token itself lives only inside the client, in memory.
  const clients = new LRUCache<string, GitHubClient>({ max: 1_000, ttl: 15 * 60_000 });
  const clientFor = (token: string) => {
    const key = createHash('sha256').update(token).digest('hex');
    let client = clients.get(key);
    if (!client) {
      client = createOctokit(token, settings);
      clients.set(key, client);
    }
    return client;
  };

  /** Runs `work` with a client for `token`, mapping every failure to a CodeHostError (`what` names the call). */
  async function call<T>(token: string, what: string, work: (octokit: GitHubClient) => Promise<T>): Promise<T> {
    if (typeof token !== 'string' || !plausibleToken.test(token)) {
      throw new CodeHostError('unauthorized', `GitHub ${what}: no usable token`, { status: 0 });
    }
    try {
      return await work(clientFor(token));
    } catch (error) {
      const mapped = toCodeHostError(error, what);
      if (isCodeHostError(mapped)) {
        const level = mapped.kind === 'unavailable' || mapped.kind === 'rate_limited' || mapped.kind === 'too_large' ? 'warn' : 'debug';
        logger[level]({ kind: mapped.kind, status: mapped.status, retryAfterSeconds: mapped.retryAfterSeconds }, mapped.message);
      }
      throw mapped;
    }
  }

  /**
   * `work`'s result, or undefined when it rejects with `not_found` or, with `emptyRepository` (a Git Database API read),
   * with GitHub's 409 `Git Repository is empty.` ({@link isEmptyRepositoryError}: a repository without any commit has
   * no ref or tree at all).
   */
  async function undefinedWhenNotFound<T>(work: Promise<T>, options: { emptyRepository?: boolean } = {}): Promise<T | undefined> {
    try {
      return await work;
    } catch (error) {
      if (isCodeHostError(error, 'not_found') || (options.emptyRepository === true && isEmptyRepositoryError(error))) return undefined;
      throw error;
    }
  }

  /** `POST /graphql` with `body`: GitHub's answer (the data and errors) and its headers, whatever the errors. */
  async function postGraphQL(
    octokit: GitHubClient,
    body: { query: string; variables: Record<string, string> },
  ): Promise<{ data: unknown; headers: Record<string, string | number | undefined> }> {
    try {
      return await octokit.request('POST /graphql', { baseUrl: graphqlBaseUrl, ...body });
    } catch (error) {
      // The throttling plugin rejects GitHub's RATE_LIMITED answer (a 200) with an error carrying it, without a status.
      const rejected = error as { status?: unknown; data?: unknown; response?: { headers?: Record<string, string | number | undefined> } };
      if (rejected?.status !== undefined || rejected?.data === undefined) throw error;
      return { data: rejected.data, headers: rejected.response?.headers ?? {} };
    }
  }

  /**
   * The sizes query of {@link readRepositories} for `reads`, in groups of at most {@link REPOSITORIES_PER_QUERY}
   * repositories and {@link OBJECTS_PER_QUERY} paths: per read, its branch's head commit and the files that exist.
   */
  async function repositorySizes(
    token: string,
    reads: readonly RepositoryRead[],
  ): Promise<Array<{ commit: string; files: SizedFile[] } | undefined>> {
    const groups: RepositoryRead[][] = [];
    let group: RepositoryRead[] = [];
    let objects = 0;
    for (const read of reads) {
      if (group.length > 0 && (group.length === REPOSITORIES_PER_QUERY || objects + read.paths.length > OBJECTS_PER_QUERY)) {
        groups.push(group);
        group = [];
        objects = 0;
      }
      group.push(read);
      objects += read.paths.length;
    }
    if (group.length > 0) groups.push(group);
    const answers = await Promise.all(
      groups.map((reads) => {
        const what = `POST /graphql (file sizes of ${reads.length} repositories)`;
        return call(token, what, async (octokit) => {
          const response = await postGraphQL(octokit, sizesRequest(reads));
          const { data, refused } = repositoriesAnswer(response.data, response.headers, what);
          return reads.map((read, r) => sizesOf(data, refused, r, read.paths));
        });
      }),
    );
    return answers.flat();
  }

  /**
   * The texts query of {@link readRepositories}: `files` packed into queries of at most {@link OBJECTS_PER_QUERY} files
   * and half the size limit (their sizes known); the texts in the order of `files`, undefined for one to read alone.
   */
  async function repositoryTexts(token: string, files: readonly (TextAsked & { byteSize: number })[]): Promise<Array<string | undefined>> {
    const batches: (TextAsked & { byteSize: number })[][] = [];
    let batch: (TextAsked & { byteSize: number })[] = [];
    let bytes = 0;
    for (const file of files) {
      if (batch.length > 0 && (batch.length === OBJECTS_PER_QUERY || bytes + file.byteSize > settings.maxResponseBytes / 2)) {
        batches.push(batch);
        batch = [];
        bytes = 0;
      }
      batch.push(file);
      bytes += file.byteSize;
    }
    if (batch.length > 0) batches.push(batch);
    const answers = await Promise.all(
      batches.map(async (files) => {
        const what = `POST /graphql (${files.length} files of several repositories)`;
        try {
          return await call(token, what, async (octokit) => {
            const response = await postGraphQL(octokit, textsRequest(files));
            const { data, refused } = repositoriesAnswer(response.data, response.headers, what);
            return textsOf(data, refused, files);
          });
        } catch (error) {
          if (!isCodeHostError(error, 'too_large')) throw error;
          return files.map(() => undefined);
        }
      }),
    );
    return answers.flat();
  }

  /** Reads `batch` in one GraphQL query; an answer over the size limit has every file read alone instead. */
  async function queryBlobs(
    token: string,
    repo: { owner: string; name: string },
    batch: readonly string[],
    ref?: string,
  ): Promise<BlobAnswer[]> {
    const what = `POST /graphql (files of ${repo.owner}/${repo.name})`;
    try {
      return await call(token, what, async (octokit) => {
        const body = readFilesRequest(
          repo,
          batch.map((path) => path.replace(/^\/+/, '')),
          ref,
        );
        const response = await postGraphQL(octokit, body);
        return blobAnswers(response.data, response.headers, batch, settings.maxResponseBytes, what);
      });
    } catch (error) {
      if (!isCodeHostError(error, 'too_large')) throw error;
      return batch.map(() => ({ readAlone: true }));
    }
  }

  const host: GitHubCodeHost = {
    ...gitHubWrites(call, { graphqlBaseUrl }),
    ...gitHubIssues(call),

    currentUser: (token): Promise<TokenOwner> =>
      call(token, 'GET /user', async (octokit) => {
        const response = await octokit.request('GET /user');
        return { account: toAccount(response.data, 'user', 'GET /user'), capability: capabilityFrom(response.headers['x-oauth-scopes']) };
      }),

    async organisations(token) {
      const orgs = await call(token, 'GET /user/orgs', (octokit) => octokit.paginate('GET /user/orgs', { per_page: PER_PAGE }));
      return orgs.map((org) => toAccount(org, 'org', 'GET /user/orgs'));
    },

    async organisationRole(token, org) {
      const what = `GET /user/memberships/orgs/${org.login}`;
      const membership = await undefinedWhenNotFound(
        call(token, what, async (octokit) => (await octokit.request('GET /user/memberships/orgs/{org}', { org: org.login })).data),
      );
      if (membership === undefined || membership.state !== 'active') return undefined;
      return membership.role === 'admin' ? 'admin' : 'member';
    },

    async listRepos(token, account) {
      if (account.type === 'user') {
        const what = 'GET /user/repos';
        const repos = await call(token, what, (octokit) =>
          octokit.paginate('GET /user/repos', { affiliation: 'owner', per_page: PER_PAGE }),
        );
        return repos.map((repo) => toRepo(repo, what)).filter((repo) => repo.owner.id === account.id);
      }
      const what = `GET /orgs/${account.login}/repos`;
      const repos = await call(token, what, (octokit) =>
        octokit.paginate('GET /orgs/{org}/repos', { org: account.login, type: 'all', per_page: PER_PAGE }),
      );
      return repos.map((repo) => toRepo(repo, what));
    },

    async getRepo(token, repoId): Promise<CodeHostRepo | undefined> {
      if (!Number.isSafeInteger(repoId) || repoId <= 0) return undefined;
      const what = `GET /repositories/${repoId}`;
      return undefinedWhenNotFound(
        call(token, what, async (octokit) =>
          toRepo((await octokit.request('GET /repositories/{repository_id}', { repository_id: repoId })).data, what),
        ),
      );
    },

    async listAdvisories(token, { ecosystem, packageName }) {
      if (typeof packageName !== 'string' || packageName.trim() === '' || packageName.includes(',')) {
        throw new RangeError(`packageName must be one package name (optionally name@version), not ${JSON.stringify(packageName)}`);
      }
      const what = 'GET /advisories';
      const advisories = await call(token, what, (octokit) =>
        octokit.paginate('GET /advisories', { type: 'reviewed', ecosystem, affects: packageName.trim(), per_page: PER_PAGE }),
      );
      return advisories.map((advisory) => toAdvisory(advisory, what));
    },

    async listInstallations(token) {
      const what = 'GET /user/installations';
      const installations = await call(token, what, (octokit) => octokit.paginate('GET /user/installations', { per_page: PER_PAGE }));
      return installations.map((installation) => toInstallation(installation, what));
    },

    async listDirectory(token, repo, path, ref) {
      const dirPath = path.replace(/^\/+|\/+$/g, '');
      const what = `GET /repos/${repo.owner}/${repo.name}/contents/${dirPath}`;
      const params = { owner: repo.owner, repo: repo.name, path: dirPath, ...(ref === undefined ? {} : { ref }) };
      return undefinedWhenNotFound(
        call(token, what, async (octokit) => {
          const json: unknown = (await octokit.request('GET /repos/{owner}/{repo}/contents/{path}', params)).data;
          // A file (an object) is not a directory.
          if (!Array.isArray(json)) return undefined;
          return json.flatMap((entry: { name?: unknown; type?: unknown; size?: unknown }) =>
            typeof entry.name === 'string' && ['file', 'dir', 'symlink', 'submodule'].includes(String(entry.type))
              ? [{ name: entry.name, type: entry.type as DirectoryEntry['type'], size: typeof entry.size === 'number' ? entry.size : 0 }]
              : [],
          );
        }),
      );
    },

    async listTree(token, repo, ref) {
      if (ref.trim() === '') throw new RangeError('listTree needs a ref');
      const what = `GET /repos/${repo.owner}/${repo.name}/git/trees/${ref}?recursive=1`;
      return undefinedWhenNotFound(
        call(token, what, async (octokit) => {
          const { data } = await octokit.request('GET /repos/{owner}/{repo}/git/trees/{tree_sha}', {
            owner: repo.owner,
            repo: repo.name,
            tree_sha: ref,
            recursive: '1',
          });
          if (!Array.isArray(data?.tree))
            throw new CodeHostError('unavailable', `GitHub ${what}: unexpected response body`, { status: 200 });
          const entries: TreeEntry[] = data.tree.flatMap((entry: { path?: unknown; type?: unknown; sha?: unknown; size?: unknown }) =>
            typeof entry.path === 'string' && typeof entry.sha === 'string' && ['blob', 'tree', 'commit'].includes(String(entry.type))
              ? [
                  {
                    path: entry.path,
                    type: entry.type as TreeEntry['type'],
                    sha: entry.sha,
                    ...(typeof entry.size === 'number' ? { size: entry.size } : {}),
                  },
                ]
              : [],
          );
          return { entries, truncated: data.truncated === true };
        }),
        { emptyRepository: true },
      );
    },

    async readFiles(token, repo, paths, options = {}): Promise<FileReads> {
      const read: FileReads = { files: {}, tooLarge: {} };
      const sizes = options.sizes ?? {};
      const limit = settings.maxResponseBytes;
      const asked = [...new Set(paths)].filter((path) => path.replace(/^\/+/, '') !== '');
      const alone: string[] = [];
      const batches: string[][] = [];
      let batch: string[] = [];
      let batchBytes = 0;
      for (const path of asked) {
        const size = sizes[path];
        if (size !== undefined && size > limit) read.tooLarge[path] = { limitBytes: limit, sizeBytes: size };
        else if (size !== undefined && size > GRAPHQL_BLOB_BYTES) alone.push(path);
        else {
          // A query's answer holds its files' texts: keep it well within the size limit when the sizes are known.
          if (batch.length === FILES_PER_QUERY || (batch.length > 0 && batchBytes + (size ?? 0) > limit / 2)) {
            batches.push(batch);
            batch = [];
            batchBytes = 0;
          }
          batch.push(path);
          batchBytes += size ?? 0;
        }
      }
      if (batch.length > 0) batches.push(batch);
      // One file is one request either way; the contents API's answer can be asked again conditionally (a free 304).
      for (const single of batches.filter((b) => b.length === 1)) alone.push(...single);
      await Promise.all(
        batches
          .filter((b) => b.length > 1)
          .map(async (files) => {
            const answers = await queryBlobs(token, repo, files, options.ref);
            files.forEach((path, i) => {
              const answer = answers[i];
              if (answer === undefined || 'missing' in answer) return;
              if ('text' in answer) read.files[path] = answer.text;
              else if ('tooLarge' in answer) read.tooLarge[path] = answer.tooLarge;
              else alone.push(path);
            });
          }),
      );
      return readEachFile(host.readFile, token, repo, alone, { ref: options.ref, limitBytes: limit, into: read });
    },

    async readRepositories(token, reads) {
      const limit = settings.maxResponseBytes;
      const sized = await repositorySizes(token, reads);
      const results: Array<RepositoryFiles | undefined> = sized.map((found) => found && emptyRepositoryFiles(found.commit));
      const texts: (TextAsked & { byteSize: number; at: number })[] = [];
      const alone: { at: number; path: string }[] = [];
      sized.forEach((found, at) => {
        const read = reads[at];
        const into = results[at];
        if (!found || !read || !into) return;
        for (const file of found.files) {
          if (file.byteSize > limit) into.tooLarge[file.path] = { limitBytes: limit, sizeBytes: file.byteSize };
          else if (file.byteSize > GRAPHQL_BLOB_BYTES || file.isBinary) alone.push({ at, path: file.path });
          else texts.push({ repo: read.repo, commit: found.commit, path: file.path, byteSize: file.byteSize, at });
        }
      });
      const answers = await repositoryTexts(token, texts);
      texts.forEach((file, i) => {
        const text = answers[i];
        const into = results[file.at];
        if (text === undefined) alone.push({ at: file.at, path: file.path });
        else if (into) into.files[file.path] = text;
      });
      // What GraphQL did not give whole: the contents API, at the same commit (one request each).
      await Promise.all(
        alone.map(async ({ at, path }) => {
          const read = reads[at];
          const into = results[at];
          if (read && into) await readEachFile(host.readFile, token, read.repo, [path], { ref: into.commit, limitBytes: limit, into });
        }),
      );
      return results;
    },

    async readFile(token, repo, path, ref) {
      const filePath = path.replace(/^\/+/, '');
      if (filePath === '') return undefined;
      const what = `GET /repos/${repo.owner}/${repo.name}/contents/${filePath}`;
      const params = { owner: repo.owner, repo: repo.name, path: filePath, ...(ref === undefined ? {} : { ref }) };
      return undefinedWhenNotFound(
        call(token, what, async (octokit) => {
          const json = (await octokit.request('GET /repos/{owner}/{repo}/contents/{path}', params)).data;
          const size = fileSize(json);
          if (size !== undefined && size > settings.maxResponseBytes) {
            throw new CodeHostError(
              'too_large',
              `GitHub ${what}: ${filePath} is ${formatBytes(size)}, over the ${formatBytes(settings.maxResponseBytes)} limit`,
              { status: 200, limitBytes: settings.maxResponseBytes, sizeBytes: size },
            );
          }
          const text = fileText(json);
          if (text !== null) return text;
          const raw = await octokit.request('GET /repos/{owner}/{repo}/contents/{path}', { ...params, mediaType: { format: 'raw' } });
          const data: unknown = raw.data;
          if (typeof data === 'string') return data;
          if (data instanceof ArrayBuffer) return new TextDecoder().decode(data);
          throw new CodeHostError('unavailable', `GitHub ${what}: unexpected raw response body`, { status: raw.status });
        }),
      );
    },
  };
  return host;
}

/**
 * A token's capability from GitHub's `X-OAuth-Scopes` header (`repo, read:org`): present (even empty) on answers to a
 * classic personal access token or OAuth token, absent for fine-grained personal access tokens and GitHub App tokens,
 * whose permissions show per repository instead
 * (https://docs.github.com/apps/oauth-apps/building-oauth-apps/scopes-for-oauth-apps#checking-scopes).
 */
export function capabilityFrom(header: string | number | string[] | undefined): TokenCapability {
  if (header === undefined) return { kind: 'per-repo' };
  const text = Array.isArray(header) ? header.join(',') : String(header);
  return {
    kind: 'scopes',
    scopes: text
      .split(',')
      .map((scope) => scope.trim())
      .filter((scope) => scope !== ''),
  };
}
