import { LRUCache } from 'lru-cache';
import { CodeHostError, isCodeHostError } from '../errors.ts';
import type { CodeHost, CodeHostPullRequest, FileCommit, LabelInput, RepoRef } from '../port.ts';
import type { GitHubClient } from './client.ts';
import { isEmptyRepositoryError } from './errors.ts';
import { commitRequest, committedOid, fileChangesOf, isUnknownNodeId, REPOSITORY_ID_QUERY, repositoryIdOf } from './graphql-commit.ts';
import { toCheckRuns, toCombinedStatus, toPullRequest } from './pull-mapping.ts';

/** Runs one port call with a client for `token`, mapping failures to `CodeHostError` (the adapter's `call`). */
export type CallGitHub = <T>(token: string, what: string, work: (octokit: GitHubClient) => Promise<T>) => Promise<T>;

/** The write methods of the port, as the GitHub adapter implements them. */
export type GitHubWrites = Required<
  Pick<
    CodeHost,
    | 'getBranchHead'
    | 'getBranchCommit'
    | 'createBranch'
    | 'commitFiles'
    | 'moveBranch'
    | 'deleteBranch'
    | 'openPullRequest'
    | 'findPullRequest'
    | 'getPullRequest'
    | 'updatePullRequest'
    | 'closePullRequest'
    | 'mergePullRequest'
    | 'ensureLabels'
    | 'addLabels'
    | 'comment'
    | 'listComments'
    | 'combinedStatus'
    | 'checkRuns'
  >
>;

const PER_PAGE = 100;

/** Where {@link gitHubWrites} sends GraphQL requests. */
export interface GitHubWritesOptions {
  /** The GraphQL endpoint's base: `https://api.github.com` (GitHub Enterprise Server: `https://ghe/api`), `/graphql` below it. */
  graphqlBaseUrl: string;
}

/**
 * Sends a GraphQL document; the answer's body and headers. GitHub's `RATE_LIMITED` answer (a 200), which the throttling
 * plugin rejects with an error carrying it, comes back as an answer (the caller maps its errors).
 */
async function postGraphQL(
  octokit: GitHubClient,
  baseUrl: string,
  body: { query: string; variables: Record<string, unknown> },
): Promise<{ data: unknown; headers: Record<string, string | number | undefined> }> {
  try {
    const response = await octokit.request('POST /graphql', { baseUrl, ...body });
    return { data: response.data, headers: response.headers };
  } catch (error) {
    const rejected = error as { status?: unknown; data?: unknown; response?: { headers?: Record<string, string | number | undefined> } };
    if (rejected?.status !== undefined || rejected?.data === undefined) throw error;
    return { data: rejected.data, headers: rejected.response?.headers ?? {} };
  }
}
/** The colour of a label created without one (GitHub's own default). */
const DEFAULT_LABEL_COLOR = 'ededed';

/**
 * Labels as objects with their names.
 * @throws RangeError for none, or an empty name
 */
function labelInputs(labels: readonly LabelInput[]): Array<Exclude<LabelInput, string>> {
  const wanted = labels.map((label) => (typeof label === 'string' ? { name: label } : label));
  if (wanted.length === 0 || wanted.some((label) => label.name.trim() === '')) throw new RangeError('labels must be non-empty names');
  return wanted;
}

/**
 * `work`'s result, or undefined when it rejects with a `CodeHostError` of `kind` or, with `emptyRepository`, with
 * GitHub's 409 `Git Repository is empty.` ({@link isEmptyRepositoryError}: a repository without any commit has no ref
 * at all). Any other rejection is passed on.
 */
async function orUndefined<T>(
  work: Promise<T>,
  kind: 'not_found' | 'invalid' = 'not_found',
  options: { emptyRepository?: boolean } = {},
): Promise<T | undefined> {
  try {
    return await work;
  } catch (error) {
    if (isCodeHostError(error, kind) || (options.emptyRepository === true && isEmptyRepositoryError(error))) return undefined;
    throw error;
  }
}

/** A file path of a commit: relative, no empty, `.` or `..` segments. @throws RangeError otherwise */
function checkedPath(path: string): string {
  if (path === '' || path.startsWith('/') || path.endsWith('/') || path.split('/').some((p) => p === '' || p === '.' || p === '..')) {
    throw new RangeError(`not a relative file path: ${JSON.stringify(path)}`);
  }
  return path;
}

/** A pull request number: a whole number of at least 1. @throws RangeError otherwise */
/** A gitlink's commit id, lower-cased. @throws RangeError when it is not 40 hex digits */
function checkedCommit(sha: string): string {
  if (!/^[0-9a-fA-F]{40}$/.test(sha)) throw new RangeError(`not a commit id: ${JSON.stringify(sha)}`);
  return sha.toLowerCase();
}

function checkedNumber(number: number): number {
  if (!Number.isSafeInteger(number) || number < 1) throw new RangeError(`not a pull request number: ${number}`);
  return number;
}

/**
 * The port's writes on GitHub's REST API (https://docs.github.com/rest):
 * - `getBranchHead`: `GET /repos/{o}/{r}/git/ref/heads/{branch}` (404, and 409 "Git Repository is empty." on a
 *   repository without any commit → undefined);
 * - `createBranch`: `POST /git/refs` (`refs/heads/<name>`; 422 "Reference already exists" and 409 "Git Repository is
 *   empty." → `conflict`);
 * - `getBranchCommit`: `GET /repos/{o}/{r}/branches/{branch}` (the head commit and its tree; 404 → undefined);
 * - `commitFiles` of text files and deletions, neither forced nor with an `author` (a new branch, or a move whose
 *   `expectedHead`, when given, is `parentSha`): one `POST /graphql` (`graphql-commit.ts`): a new branch
 *   `createRef` at `parentSha` then `createCommitOnBranch` in one document, a move `createCommitOnBranch` alone, with
 *   `expectedHeadOid` = `parentSha` (GitHub refuses it when the branch's head is another commit: a compare-and-swap,
 *   `conflict`); the commit is authored by the token's user (an App's installation: its bot) and signed by GitHub
 *   (https://docs.github.com/graphql/reference/mutations#createcommitonbranch). `createRef` takes the repository's
 *   global node id: read once per repository and process (`query { repository { id } }`, kept while it works, or given
 *   by the caller: `FileCommit.repositoryId`);
 * - `commitFiles` otherwise (a gitlink, `force`, an `author`, an `expectedHead` other than `parentSha`): the Git Data
 *   API, one commit for every file: `GET /git/commits/{parent}` (its tree; skipped when the
 *   caller gives `parentTreeSha`), `POST /git/trees` with `base_tree` and each new content inline (`content`: GitHub makes
 *   the blobs; a deleted file is an entry with `sha: null`; every written file gets mode 100644, a gitlink mode 160000
 *   with its commit as `sha`), `POST /git/commits`,
 *   then `POST /git/refs` (`createBranch`) or `PATCH /git/refs/heads/{branch}`, with `force` only when the change says
 *   so (else not a fast forward → `conflict`); on a repository without any commit GitHub answers 409 "Git Repository
 *   is empty." to each of them (`conflict`: such a repository gets its first commit through the contents API);
 * - `moveBranch`: `PATCH /git/refs/heads/{branch}` (`force`); `deleteBranch`: `DELETE /git/refs/heads/{branch}`
 *   (422 "Reference does not exist", and 409 "Git Repository is empty." → false);
 * - `openPullRequest`: `POST /pulls`; `findPullRequest`: `GET /pulls?head=<owner>:<branch>&base=&state=` (the newest);
 *   `getPullRequest`: `GET /pulls/{n}`; `updatePullRequest`/`closePullRequest`: `PATCH /pulls/{n}`;
 * - `mergePullRequest`: `PUT /pulls/{n}/merge` (405 not mergeable and 409 head moved → `conflict`);
 * - `ensureLabels`: `GET /labels` (all pages; skipped while the repository's labels are known, for 10 minutes), `POST
 *   /labels` for each missing one (with its colour, default `ededed`); `addLabels`: those (unless the caller says they
 *   exist: `existing`), then `POST /issues/{n}/labels`; `comment`: `POST /issues/{n}/comments`; `listComments`: `GET /issues/{n}/comments?since=` (all pages);
 * - `combinedStatus`: `GET /commits/{ref}/status`; `checkRuns`: `GET /commits/{ref}/check-runs` (all pages).
 * Bad arguments (a path with empty segments, a number below 1, an empty branch name) are a `RangeError` without a request.
 */
export function gitHubWrites(call: CallGitHub, options: GitHubWritesOptions): GitHubWrites {
  const branchRef = (branch: string) => {
    if (branch.trim() === '' || branch.startsWith('refs/')) throw new RangeError(`not a branch name: ${JSON.stringify(branch)}`);
    return `heads/${branch}`;
  };
  const where = (repo: RepoRef) => `/repos/${repo.owner}/${repo.name}`;
  // The labels each repository is known to have (lower-cased names), so that labelling a pull request with labels made
  // before costs one request. A label deleted meanwhile is made again by GitHub when added (with its default colour).
  const knownLabels = new LRUCache<string, Set<string>>({ max: 10_000, ttl: 10 * 60_000 });
  // Each repository's global node id (`createRef` names the repository by it), read once: it changes only when the
  // repository is deleted and made again, which the commit finds (NOT_FOUND) and reads it again.
  const repositoryIds = new LRUCache<string, string>({ max: 10_000 });

  /** The repository's global node id: given, known, or read (`query { repository(owner:, name:) { id } }`). */
  async function repositoryId(token: string, repo: RepoRef, given: string | undefined): Promise<string> {
    if (given !== undefined) return given;
    const key = `${repo.owner}/${repo.name}`.toLowerCase();
    const known = repositoryIds.get(key);
    if (known !== undefined) return known;
    const what = `POST /graphql (the id of ${repo.owner}/${repo.name})`;
    const id = await call(token, what, async (octokit) => {
      const answer = await postGraphQL(octokit, options.graphqlBaseUrl, {
        query: REPOSITORY_ID_QUERY,
        variables: { owner: repo.owner, name: repo.name },
      });
      return repositoryIdOf(answer.data, answer.headers, what);
    });
    repositoryIds.set(key, id);
    return id;
  }

  /**
   * One commit of text files and deletions in one `POST /graphql` (see `graphql-commit.ts`): the branch made at
   * `parentSha` first when `create`, then the commit on it with `expectedHeadOid` `parentSha`. A repository node id
   * that names nothing any more (the repository made again) is read again once.
   */
  async function commitThroughGraphQL(
    token: string,
    repo: RepoRef,
    change: FileCommit,
    files: ReadonlyArray<readonly [string, string | null]>,
    create: boolean,
  ): Promise<string> {
    const what = `POST /graphql (${create ? 'createRef and ' : ''}createCommitOnBranch on ${repo.owner}/${repo.name} ${change.branch})`;
    const attempt = async (given: string | undefined) => {
      const id = create ? await repositoryId(token, repo, given) : undefined;
      const body = commitRequest({
        repo,
        branch: change.branch,
        expectedHeadOid: change.parentSha,
        message: change.message,
        changes: fileChangesOf(files),
        ...(id === undefined ? {} : { create: { repositoryId: id } }),
      });
      return call(token, what, async (octokit) => {
        const answer = await postGraphQL(octokit, options.graphqlBaseUrl, body);
        return committedOid(answer.data, answer.headers, what);
      });
    };
    try {
      return await attempt(change.repositoryId);
    } catch (error) {
      if (!create || !isUnknownNodeId(error)) throw error;
      repositoryIds.delete(`${repo.owner}/${repo.name}`.toLowerCase());
      return attempt(undefined);
    }
  }

  /**
   * Makes the labels `repo` lacks: `GET /labels` (all pages; skipped while the repository's labels are known, for 10
   * minutes), then `POST /labels` for each missing one (with its colour, default `ededed`); one made meanwhile by
   * someone else (422) is fine.
   */
  async function ensureLabels(token: string, repo: RepoRef, labels: readonly LabelInput[]): Promise<void> {
    const wanted = labelInputs(labels);
    const repoKey = `${repo.owner}/${repo.name}`.toLowerCase();
    let known = knownLabels.get(repoKey);
    if (!known || wanted.some((label) => !known?.has(label.name.toLowerCase()))) {
      const existing = await call(token, `GET ${where(repo)}/labels`, (octokit) =>
        octokit.paginate('GET /repos/{owner}/{repo}/labels', { owner: repo.owner, repo: repo.name, per_page: PER_PAGE }),
      );
      known = new Set(existing.map((label) => label.name.toLowerCase()));
      knownLabels.set(repoKey, known);
    }
    for (const label of wanted) {
      if (known.has(label.name.toLowerCase())) continue;
      try {
        await call(token, `POST ${where(repo)}/labels`, (octokit) =>
          octokit.request('POST /repos/{owner}/{repo}/labels', {
            owner: repo.owner,
            repo: repo.name,
            name: label.name,
            color: (label.color ?? DEFAULT_LABEL_COLOR).replace(/^#/, ''),
            ...(label.description === undefined ? {} : { description: label.description }),
          }),
        );
      } catch (error) {
        // Made meanwhile by someone else: fine, it exists now.
        if (!isCodeHostError(error, 'conflict')) throw error;
      }
      known.add(label.name.toLowerCase());
    }
  }

  /** `branch`'s head commit (`GET /git/ref/heads/{branch}`), or undefined when there is no such branch. */
  async function branchHead(token: string, repo: RepoRef, branch: string): Promise<string | undefined> {
    const ref = branchRef(branch);
    const what = `GET ${where(repo)}/git/ref/${ref}`;
    return orUndefined(
      call(token, what, async (octokit) => {
        const { data } = await octokit.request('GET /repos/{owner}/{repo}/git/ref/{ref}', { owner: repo.owner, repo: repo.name, ref });
        if (typeof data?.object?.sha !== 'string')
          throw new CodeHostError('unavailable', `GitHub ${what}: unexpected response body`, { status: 200 });
        return data.object.sha;
      }),
      'not_found',
      { emptyRepository: true },
    );
  }

  async function createRef(token: string, repo: RepoRef, branch: string, sha: string): Promise<void> {
    const ref = `refs/${branchRef(branch)}`;
    await call(token, `POST ${where(repo)}/git/refs`, (octokit) =>
      octokit.request('POST /repos/{owner}/{repo}/git/refs', { owner: repo.owner, repo: repo.name, ref, sha }),
    );
  }

  async function updateRef(token: string, repo: RepoRef, branch: string, sha: string, force: boolean): Promise<void> {
    const ref = branchRef(branch);
    await call(token, `PATCH ${where(repo)}/git/refs/${ref}`, (octokit) =>
      octokit.request('PATCH /repos/{owner}/{repo}/git/refs/{ref}', { owner: repo.owner, repo: repo.name, ref, sha, force }),
    );
  }

  async function pullRequestPatch(
    token: string,
    repo: RepoRef,
    number: number,
    changes: { title?: string; body?: string; base?: string; state?: 'open' | 'closed' },
  ): Promise<CodeHostPullRequest> {
    const what = `PATCH ${where(repo)}/pulls/${checkedNumber(number)}`;
    return call(token, what, async (octokit) =>
      toPullRequest(
        (
          await octokit.request('PATCH /repos/{owner}/{repo}/pulls/{pull_number}', {
            owner: repo.owner,
            repo: repo.name,
            pull_number: number,
            ...changes,
          })
        ).data,
        what,
      ),
    );
  }

  return {
    getBranchHead: branchHead,

    async getBranchCommit(token, repo, branch) {
      branchRef(branch);
      const what = `GET ${where(repo)}/branches/${branch}`;
      return orUndefined(
        call(token, what, async (octokit) => {
          const { data } = await octokit.request('GET /repos/{owner}/{repo}/branches/{branch}', {
            owner: repo.owner,
            repo: repo.name,
            branch,
          });
          const sha = data?.commit?.sha;
          const treeSha = data?.commit?.commit?.tree?.sha;
          if (typeof sha !== 'string' || typeof treeSha !== 'string') {
            throw new CodeHostError('unavailable', `GitHub ${what}: unexpected response body`, { status: 200 });
          }
          return { sha, treeSha };
        }),
      );
    },

    async createBranch(token, repo, name, fromSha) {
      await createRef(token, repo, name, fromSha);
    },

    async commitFiles(token, repo, change: FileCommit) {
      const entries = Object.entries(change.files).map(([path, content]) => [checkedPath(path), content] as const);
      if (entries.length === 0) throw new RangeError('a commit needs at least one file change');
      branchRef(change.branch);
      // GraphQL makes the commit when it can say all of it: text and deletions (no gitlink: `FileAddition` holds file
      // contents only), on the branch's head (no force, no author of the caller's choosing).
      const texts = entries.filter((entry): entry is readonly [string, string | null] => entry[1] === null || typeof entry[1] === 'string');
      const onHead = change.expectedHead === undefined || change.expectedHead === change.parentSha;
      if (texts.length === entries.length && change.force !== true && change.author === undefined && onHead) {
        checkedCommit(change.parentSha);
        return commitThroughGraphQL(token, repo, change, texts, change.createBranch === true);
      }
      const owner = repo.owner;
      const name = repo.name;
      const baseTree =
        change.parentTreeSha ??
        (
          await call(
            token,
            `GET ${where(repo)}/git/commits/${change.parentSha}`,
            async (octokit) =>
              (
                await octokit.request('GET /repos/{owner}/{repo}/git/commits/{commit_sha}', {
                  owner,
                  repo: name,
                  commit_sha: change.parentSha,
                })
              ).data,
          )
        ).tree.sha;
      // The new contents go inline (`content`): GitHub stores each as a blob, with no request of its own.
      const items = entries.map(([path, content]) =>
        content === null
          ? { path, mode: '100644' as const, type: 'blob' as const, sha: null }
          : typeof content === 'string'
            ? { path, mode: '100644' as const, type: 'blob' as const, content }
            : { path, mode: '160000' as const, type: 'commit' as const, sha: checkedCommit(content.gitlink) },
      );
      const tree = await call(
        token,
        `POST ${where(repo)}/git/trees`,
        async (octokit) =>
          (await octokit.request('POST /repos/{owner}/{repo}/git/trees', { owner, repo: name, base_tree: baseTree, tree: items })).data,
      );
      const commit = await call(
        token,
        `POST ${where(repo)}/git/commits`,
        async (octokit) =>
          (
            await octokit.request('POST /repos/{owner}/{repo}/git/commits', {
              owner,
              repo: name,
              message: change.message,
              tree: tree.sha,
              parents: [change.parentSha],
              ...(change.author ? { author: change.author } : {}),
            })
          ).data,
      );
      if (change.createBranch) await createRef(token, repo, change.branch, commit.sha);
      else {
        if (change.expectedHead !== undefined) {
          const head = await branchHead(token, repo, change.branch);
          if (head !== change.expectedHead) {
            throw new CodeHostError(
              'conflict',
              `GitHub ${where(repo)}: the branch ${change.branch} is at ${head?.slice(0, 7) ?? 'nothing'} now, not ${change.expectedHead.slice(0, 7)}: left as it is`,
              { status: 409 },
            );
          }
        }
        await updateRef(token, repo, change.branch, commit.sha, change.force === true);
      }
      return commit.sha;
    },

    async moveBranch(token, repo, branch, sha, options = {}) {
      await updateRef(token, repo, branch, sha, options.force === true);
    },

    async deleteBranch(token, repo, branch) {
      const ref = branchRef(branch);
      const done = await orUndefined(
        call(token, `DELETE ${where(repo)}/git/refs/${ref}`, async (octokit) => {
          await octokit.request('DELETE /repos/{owner}/{repo}/git/refs/{ref}', { owner: repo.owner, repo: repo.name, ref });
          return true;
        }),
        'invalid',
        { emptyRepository: true },
      );
      return done === true;
    },

    async openPullRequest(token, repo, input) {
      const what = `POST ${where(repo)}/pulls`;
      return call(token, what, async (octokit) =>
        toPullRequest(
          (
            await octokit.request('POST /repos/{owner}/{repo}/pulls', {
              owner: repo.owner,
              repo: repo.name,
              head: input.head,
              base: input.base,
              title: input.title,
              ...(input.body === undefined ? {} : { body: input.body }),
              ...(input.draft === undefined ? {} : { draft: input.draft }),
            })
          ).data,
          what,
        ),
      );
    },

    async findPullRequest(token, repo, query) {
      const what = `GET ${where(repo)}/pulls`;
      const found = await call(
        token,
        what,
        async (octokit) =>
          (
            await octokit.request('GET /repos/{owner}/{repo}/pulls', {
              owner: repo.owner,
              repo: repo.name,
              head: `${repo.owner}:${query.head}`,
              state: query.state ?? 'open',
              sort: 'created',
              direction: 'desc',
              per_page: PER_PAGE,
              ...(query.base === undefined ? {} : { base: query.base }),
            })
          ).data,
      );
      const first = found[0];
      return first === undefined ? undefined : toPullRequest(first, what);
    },

    async getPullRequest(token, repo, number) {
      const what = `GET ${where(repo)}/pulls/${checkedNumber(number)}`;
      return orUndefined(
        call(token, what, async (octokit) =>
          toPullRequest(
            (
              await octokit.request('GET /repos/{owner}/{repo}/pulls/{pull_number}', {
                owner: repo.owner,
                repo: repo.name,
                pull_number: number,
              })
            ).data,
            what,
          ),
        ),
      );
    },

    updatePullRequest: (token, repo, number, update) => pullRequestPatch(token, repo, number, update),

    closePullRequest: (token, repo, number) => pullRequestPatch(token, repo, number, { state: 'closed' }),

    async mergePullRequest(token, repo, request) {
      const what = `PUT ${where(repo)}/pulls/${checkedNumber(request.number)}/merge`;
      return call(token, what, async (octokit) => {
        const { data } = await octokit.request('PUT /repos/{owner}/{repo}/pulls/{pull_number}/merge', {
          owner: repo.owner,
          repo: repo.name,
          pull_number: request.number,
          merge_method: request.method,
          ...(request.sha === undefined ? {} : { sha: request.sha }),
          ...(request.commitTitle === undefined ? {} : { commit_title: request.commitTitle }),
          ...(request.commitMessage === undefined ? {} : { commit_message: request.commitMessage }),
        });
        if (typeof data?.sha !== 'string')
          throw new CodeHostError('unavailable', `GitHub ${what}: unexpected response body`, { status: 200 });
        return { sha: data.sha };
      });
    },

    ensureLabels,

    async addLabels(token, repo, number, labels: readonly LabelInput[], options: { existing?: boolean } = {}) {
      checkedNumber(number);
      const wanted = labelInputs(labels);
      if (!options.existing) await ensureLabels(token, repo, wanted);
      const what = `POST ${where(repo)}/issues/${number}/labels`;
      const added = await call(
        token,
        what,
        async (octokit) =>
          (
            await octokit.request('POST /repos/{owner}/{repo}/issues/{issue_number}/labels', {
              owner: repo.owner,
              repo: repo.name,
              issue_number: number,
              labels: wanted.map((label) => label.name),
            })
          ).data,
      );
      return added.map((label) => label.name);
    },

    async comment(token, repo, number, body) {
      const what = `POST ${where(repo)}/issues/${checkedNumber(number)}/comments`;
      return call(token, what, async (octokit) => {
        const { data } = await octokit.request('POST /repos/{owner}/{repo}/issues/{issue_number}/comments', {
          owner: repo.owner,
          repo: repo.name,
          issue_number: number,
          body,
        });
        // GitHub's description types comment ids as int64 (`number | bigint`); JSON parsing always gives a number.
        return { id: Number(data.id), htmlUrl: data.html_url };
      });
    },

    async listComments(token, repo, number, since) {
      const what = `GET ${where(repo)}/issues/${checkedNumber(number)}/comments`;
      const comments = await call(token, what, (octokit) =>
        octokit.paginate('GET /repos/{owner}/{repo}/issues/{issue_number}/comments', {
          owner: repo.owner,
          repo: repo.name,
          issue_number: number,
          since: since.toISOString(),
          per_page: PER_PAGE,
        }),
      );
      return comments.map((comment) => ({ id: Number(comment.id), body: comment.body ?? '' }));
    },

    async combinedStatus(token, repo, ref) {
      const what = `GET ${where(repo)}/commits/${ref}/status`;
      return call(token, what, async (octokit) =>
        toCombinedStatus(
          (
            await octokit.request('GET /repos/{owner}/{repo}/commits/{ref}/status', {
              owner: repo.owner,
              repo: repo.name,
              ref,
              per_page: PER_PAGE,
            })
          ).data,
          what,
        ),
      );
    },

    async checkRuns(token, repo, ref) {
      const what = `GET ${where(repo)}/commits/${ref}/check-runs`;
      const runs = await call(token, what, (octokit) =>
        octokit.paginate('GET /repos/{owner}/{repo}/commits/{ref}/check-runs', {
          owner: repo.owner,
          repo: repo.name,
          ref,
          per_page: PER_PAGE,
        }),
      );
      return toCheckRuns(runs, what);
    },
  };
}
