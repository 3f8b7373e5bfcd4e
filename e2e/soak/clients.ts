import type { PullRequestJobResource, UpdateConfigResource, UpdateRunResource } from '@switchyard/contracts';
import { type Answer, expectJson, requestJson, Unexpected } from './http.ts';

/**
 * The soak's clients: the dependency update API through the gateway (as a demo user), the GitHub emulator's REST API
 * (as a demo user, or the bot for the upstream repositories' releases) and the registry emulator's admin API. Every
 * URL is read when called, so a client outlives a restart on other ports.
 */

/** A job as `GET /pull_request_jobs` lists it. */
export type Job = PullRequestJobResource;
/** An update config as the API answers it. */
export type Config = UpdateConfigResource;
/** An update run as the API answers it. */
export type Run = UpdateRunResource;

/** The dependency update API through the gateway at `baseUrl()`, as the user of `token` (`Authorization: Personal`). */
export class GatewayApi {
  private readonly baseUrl: () => string;
  readonly token: string;

  constructor(baseUrl: () => string, token: string) {
    this.baseUrl = baseUrl;
    this.token = token;
  }

  /** One request; any answer is returned. @throws Unreachable */
  send(method: string, path: string, body?: unknown): Promise<Answer> {
    return requestJson(method, `${this.baseUrl()}${path}`, {
      headers: { authorization: `Personal ${this.token}` },
      ...(body === undefined ? {} : { body }),
    });
  }

  private async ok(method: string, path: string, body?: unknown): Promise<Answer> {
    const answer = await this.send(method, path, body);
    if (answer.status < 200 || answer.status >= 300) throw new Unexpected(`${method} ${path}`, answer);
    return answer;
  }

  /** `POST /update_configs`. @throws Unexpected unless 201 */
  async createConfig(body: Record<string, unknown>): Promise<Config> {
    return (await this.ok('POST', '/update_configs', body)).body.data;
  }

  /** `PATCH /update_configs/{id}`. @throws Unexpected unless 2xx */
  async patchConfig(id: string, body: Record<string, unknown>): Promise<Config> {
    return (await this.ok('PATCH', `/update_configs/${id}`, body)).body.data;
  }

  /** `GET /accounts`: the accounts the token reaches, with their settings. */
  async accounts(): Promise<{ id: string; attributes: Record<string, unknown> }[]> {
    return (await this.ok('GET', '/accounts')).body.data;
  }

  /** `PATCH /accounts/{id}` with settings. @returns the answer (403 when the user may not change the account) */
  patchAccount(id: string, body: Record<string, unknown>): Promise<Answer> {
    return this.send('PATCH', `/accounts/${id}`, body);
  }

  /**
   * "Bump now": `POST /update_configs/{id}/trigger_update_job`, asked again while release-svc does not know the config
   * yet (404), for up to `patienceMs`. @throws Unexpected for another status or a 404 that lasts
   */
  async bumpNow(id: string, patienceMs = 30_000): Promise<Run> {
    const until = performance.now() + patienceMs;
    for (;;) {
      const answer = await this.send('POST', `/update_configs/${id}/trigger_update_job`);
      if (answer.status === 202) return answer.body.data;
      if (answer.status !== 404 || performance.now() > until) throw new Unexpected(`bump now of config ${id}`, answer);
      await new Promise((resolve) => setTimeout(resolve, 250));
    }
  }

  /** `GET /update_runs/{id}`. */
  async run(id: string): Promise<Run> {
    return (await this.ok('GET', `/update_runs/${id}`)).body.data;
  }

  /** The config's runs, newest first, up to `pages` pages of 25. */
  async runs(configId: string, pages = 1): Promise<Run[]> {
    const runs: Run[] = [];
    for (let page = 1; page <= pages; page++) {
      const answer = await this.ok('GET', `/update_runs?update-config-id=${configId}&page=${page}`);
      runs.push(...answer.body.data);
      if (answer.body.meta?.pages?.next == null) break;
    }
    return runs;
  }

  /**
   * `GET /repos` of an organisation's active repositories: each with `using-config-file` and `config-file`, and their
   * update configs (`included`, each with its `source`).
   * @throws Unexpected unless 200 (every page)
   */
  async repos(accountId: string): Promise<{ data: RepoListed[]; included: Config[] }> {
    const listed: { data: RepoListed[]; included: Config[] } = { data: [], included: [] };
    for (let page = 1; ; page++) {
      const answer = await this.ok('GET', `/repos?account-id=${accountId}&account-type=org&installation-state=active&page=${page}`);
      listed.data.push(...(answer.body.data ?? []));
      listed.included.push(...(answer.body.included ?? []));
      if (answer.body.meta?.pages?.next == null) return listed;
    }
  }

  /** Every job the token sees (`GET /pull_request_jobs`, every page), newest first; `query` filters (e.g. `status=open`). */
  async jobs(query = ''): Promise<Job[]> {
    const jobs: Job[] = [];
    for (let page = 1; ; page++) {
      const answer = await this.ok('GET', `/pull_request_jobs?${query ? `${query}&` : ''}page=${page}`);
      jobs.push(...answer.body.data);
      if (answer.body.meta?.pages?.next == null) return jobs;
    }
  }
}

/** A repository as `GET /repos` lists it (the fields the soak reads). */
export interface RepoListed {
  id: string;
  attributes: {
    name: string;
    'using-config-file': boolean;
    'config-file': { path: string; version: number | null; valid: boolean; problems: { pointer: string; message: string }[] } | null;
  };
}

/** A comment on an issue or a pull request as the GitHub API answers it (the fields the soak reads). */
export interface IssueComment {
  id: number;
  body: string;
  user: { login: string };
  created_at: string;
}

/** An issue (or a pull request, with `pull_request`) as the GitHub API lists it (the fields the soak reads). */
export interface Issue {
  number: number;
  title: string;
  state: 'open' | 'closed';
  user: { login: string };
  pull_request?: unknown;
}

/** A pull request as the GitHub API answers it (the fields the soak reads). */
export interface PullRequest {
  number: number;
  node_id: string;
  state: 'open' | 'closed';
  merged?: boolean;
  merged_at: string | null;
  closed_at: string | null;
  merge_commit_sha: string | null;
  title: string;
  user: { login: string };
  merged_by?: { login: string } | null;
  /** GitHub's answer to "can it be merged": false with conflicts, null while it is being worked out. */
  mergeable?: boolean | null;
  head: { ref: string; sha: string };
  base: { ref: string; sha: string };
}

/** The GitHub emulator's REST API at `baseUrl()` as the user of `token` (`Authorization: token`). */
export class GitHubApi {
  private readonly baseUrl: () => string;
  readonly token: string;

  constructor(baseUrl: () => string, token: string) {
    this.baseUrl = baseUrl;
    this.token = token;
  }

  /** One request; any answer is returned. @throws Unreachable */
  send(method: string, path: string, body?: unknown): Promise<Answer> {
    return requestJson(method, `${this.baseUrl()}${path}`, {
      headers: { authorization: `token ${this.token}`, accept: 'application/vnd.github+json' },
      ...(body === undefined ? {} : { body }),
    });
  }

  /** One request that must answer 2xx. @throws Unexpected otherwise; Unreachable */
  async ok(method: string, path: string, body?: unknown): Promise<Answer> {
    const answer = await this.send(method, path, body);
    if (answer.status < 200 || answer.status >= 300) throw new Unexpected(`${method} ${path}`, answer);
    return answer;
  }

  /** The commit `branch` of `repo` (`owner/name`) points at, or undefined when there is no such branch. */
  async head(repo: string, branch: string): Promise<string | undefined> {
    const answer = await this.send('GET', `/repos/${repo}/git/ref/heads/${branch}`);
    if (answer.status === 404) return undefined;
    if (answer.status !== 200) throw new Unexpected(`head of ${repo}@${branch}`, answer);
    return answer.body.object.sha;
  }

  /**
   * One commit of `files` (path from the root → text, null deletes) on `parent` (default: the branch's head), through
   * the git data API, then `branch` moved to it (made when `create`; a fast forward otherwise).
   * @returns the new commit
   * @throws Unexpected when a step is refused (a branch that moved meanwhile: 422)
   */
  async commit(
    repo: string,
    branch: string,
    files: Record<string, string | null>,
    message: string,
    options: { parent?: string; create?: boolean } = {},
  ): Promise<string> {
    const parent = options.parent ?? (await this.head(repo, branch));
    if (!parent) throw new Error(`${repo} has no branch ${branch}`);
    const parentCommit = (await this.ok('GET', `/repos/${repo}/git/commits/${parent}`)).body;
    const tree = await this.ok('POST', `/repos/${repo}/git/trees`, {
      base_tree: parentCommit.tree.sha,
      tree: Object.entries(files).map(([path, content]) =>
        content === null ? { path, mode: '100644', type: 'blob', sha: null } : { path, mode: '100644', type: 'blob', content },
      ),
    });
    const commit = await this.ok('POST', `/repos/${repo}/git/commits`, { message, tree: tree.body.sha, parents: [parent] });
    const sha = commit.body.sha as string;
    if (options.create) await this.ok('POST', `/repos/${repo}/git/refs`, { ref: `refs/heads/${branch}`, sha });
    else await this.ok('PATCH', `/repos/${repo}/git/refs/heads/${branch}`, { sha, force: false });
    return sha;
  }

  /** The text of `path` in `repo` at `ref` (a branch or a commit), or undefined when it is not there. */
  async file(repo: string, path: string, ref: string): Promise<string | undefined> {
    const answer = await this.send('GET', `/repos/${repo}/contents/${path}?ref=${encodeURIComponent(ref)}`);
    if (answer.status === 404) return undefined;
    if (answer.status !== 200) throw new Unexpected(`${repo}/${path}@${ref}`, answer);
    if (Array.isArray(answer.body) || answer.body.type !== 'file') return undefined;
    return Buffer.from(answer.body.content as string, 'base64').toString('utf8');
  }

  /** Every pull request of `repo` in `state` (every page). */
  async pulls(repo: string, state: 'open' | 'closed' | 'all' = 'all'): Promise<PullRequest[]> {
    const pulls: PullRequest[] = [];
    for (let page = 1; ; page++) {
      const answer = await this.ok('GET', `/repos/${repo}/pulls?state=${state}&per_page=100&page=${page}`);
      pulls.push(...answer.body);
      if (answer.body.length < 100) return pulls;
    }
  }

  /** Pull request `number` of `repo`, or undefined when there is none. */
  async pull(repo: string, number: number): Promise<PullRequest | undefined> {
    const answer = await this.send('GET', `/repos/${repo}/pulls/${number}`);
    if (answer.status === 404) return undefined;
    if (answer.status !== 200) throw new Unexpected(`${repo}#${number}`, answer);
    return answer.body;
  }

  /** Every comment on issue or pull request `number` of `repo`, oldest first. */
  async comments(repo: string, number: number): Promise<IssueComment[]> {
    const comments: IssueComment[] = [];
    for (let page = 1; ; page++) {
      const answer = await this.ok('GET', `/repos/${repo}/issues/${number}/comments?per_page=100&page=${page}`);
      comments.push(...answer.body);
      if (answer.body.length < 100) return comments;
    }
  }

  /** Every issue and pull request of `repo` opened by `creator`, in any state. */
  async issuesBy(repo: string, creator: string): Promise<Issue[]> {
    const issues: Issue[] = [];
    for (let page = 1; ; page++) {
      const answer = await this.ok('GET', `/repos/${repo}/issues?state=all&creator=${creator}&per_page=100&page=${page}`);
      issues.push(...answer.body);
      if (answer.body.length < 100) return issues;
    }
  }

  /**
   * Creates or replaces `path` on the default branch of `repo` with `text` (`PUT /contents/{path}`, with the sha of the
   * file there when there is one): one commit, and a `push` webhook.
   * @returns the commit
   * @throws Unexpected when it is refused
   */
  async putFile(repo: string, path: string, text: string, message: string): Promise<string> {
    const found = await this.send('GET', `/repos/${repo}/contents/${path}`);
    if (found.status !== 200 && found.status !== 404) throw new Unexpected(`${repo}/${path}`, found);
    const sha = found.status === 200 && !Array.isArray(found.body) ? (found.body.sha as string) : undefined;
    const answer = await this.ok('PUT', `/repos/${repo}/contents/${path}`, {
      message,
      content: Buffer.from(text).toString('base64'),
      ...(sha ? { sha } : {}),
    });
    return answer.body.commit.sha;
  }

  /** Every tag of `repo`: its name and commit. */
  async tags(repo: string): Promise<{ name: string; sha: string }[]> {
    const tags: { name: string; sha: string }[] = [];
    for (let page = 1; ; page++) {
      const answer = await this.ok('GET', `/repos/${repo}/tags?per_page=100&page=${page}`);
      tags.push(...answer.body.map((tag: { name: string; commit: { sha: string } }) => ({ name: tag.name, sha: tag.commit.sha })));
      if (answer.body.length < 100) return tags;
    }
  }
}

/** The registry emulator's admin API at `baseUrl()`. */
export class RegistryAdmin {
  private readonly baseUrl: () => string;

  constructor(baseUrl: () => string) {
    this.baseUrl = baseUrl;
  }

  /** `POST /admin/publish`. @returns the answer's `entry` (the version as its protocol shows it). @throws Unexpected unless 201 */
  async publish(packageManager: string, name: string, version: string, dependencies?: Record<string, string>): Promise<unknown> {
    const answer = await expectJson('POST', `${this.baseUrl()}/admin/publish`, {
      body: { packageManager, name, version, ...(dependencies ? { dependencies } : {}) },
      ok: [201],
    });
    return answer.body.entry;
  }

  /** `POST /admin/yank`. @throws Unexpected unless 200 */
  async yank(packageManager: string, name: string, version: string, reason: string): Promise<void> {
    await expectJson('POST', `${this.baseUrl()}/admin/yank`, { body: { packageManager, name, version, reason }, ok: [200] });
  }
}
