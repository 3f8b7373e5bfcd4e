import { request, type TestResponse } from '@switchyard/service-kit/testing';
import { auth } from './fixtures.ts';

/** Requests to one emulator as one token: `get`, `post`, `patch`, `put`, `del` with JSON bodies (`del` too, as GitHub takes some). */
export interface Api {
  get(path: string): Promise<TestResponse>;
  post(path: string, body?: unknown): Promise<TestResponse>;
  patch(path: string, body?: unknown): Promise<TestResponse>;
  put(path: string, body?: unknown): Promise<TestResponse>;
  del(path: string, body?: unknown): Promise<TestResponse>;
}

/** An {@link Api} for `token` on the emulator at `baseUrl`. */
export function apiAs(baseUrl: string, token: string): Api {
  const send = (method: string, path: string, body?: unknown) =>
    request(baseUrl, method, path, { headers: auth(token), ...(body === undefined ? {} : { body }) });
  return {
    get: (path) => send('GET', path),
    post: (path, body) => send('POST', path, body),
    patch: (path, body) => send('PATCH', path, body),
    put: (path, body) => send('PUT', path, body),
    del: (path, body) => send('DELETE', path, body),
  };
}

/** The text of a contents answer (base64 `content`). */
export const decoded = (res: TestResponse): string => Buffer.from(res.body.content, 'base64').toString('utf8');

/**
 * Commits `files` (path → text, or null to delete) on top of `parent` in `repo` (`owner/name`) through the git data
 * API (blobs, a tree with `base_tree`, a commit) and returns the new commit's id; no ref is moved.
 */
export async function commitThroughApi(
  api: Api,
  repo: string,
  parent: string,
  files: Record<string, string | null>,
  message = 'change',
): Promise<string> {
  const parentCommit = await api.get(`/repos/${repo}/git/commits/${parent}`);
  const tree = await api.post(`/repos/${repo}/git/trees`, {
    base_tree: parentCommit.body.tree.sha,
    tree: Object.entries(files).map(([path, content]) =>
      content === null ? { path, mode: '100644', type: 'blob', sha: null } : { path, mode: '100644', type: 'blob', content },
    ),
  });
  if (tree.status !== 201) throw new Error(`tree: ${tree.status} ${tree.text}`);
  const commit = await api.post(`/repos/${repo}/git/commits`, { message, tree: tree.body.sha, parents: [parent] });
  if (commit.status !== 201) throw new Error(`commit: ${commit.status} ${commit.text}`);
  return commit.body.sha;
}

/** The head commit of `branch` in `repo` (`owner/name`). */
export async function headOf(api: Api, repo: string, branch: string): Promise<string> {
  const res = await api.get(`/repos/${repo}/git/ref/heads/${branch}`);
  if (res.status !== 200) throw new Error(`ref ${branch}: ${res.status} ${res.text}`);
  return res.body.object.sha;
}

/**
 * Opens a pull request in `repo` from a new branch `branch` whose one commit on top of `base` changes `files`;
 * returns the pull request's JSON.
 */
export async function openPullThroughApi(
  api: Api,
  repo: string,
  branch: string,
  files: Record<string, string | null>,
  base = 'main',
): Promise<TestResponse['body']> {
  const sha = await commitThroughApi(api, repo, await headOf(api, repo, base), files, `Change for ${branch}`);
  const ref = await api.post(`/repos/${repo}/git/refs`, { ref: `refs/heads/${branch}`, sha });
  if (ref.status !== 201) throw new Error(`ref ${branch}: ${ref.status} ${ref.text}`);
  const pr = await api.post(`/repos/${repo}/pulls`, { title: `Update ${branch}`, head: branch, base });
  if (pr.status !== 201) throw new Error(`pull ${branch}: ${pr.status} ${pr.text}`);
  return pr.body;
}
