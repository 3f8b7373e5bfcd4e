import { expect } from 'vitest';

/** An answer of the GitHub REST API: its status and its JSON body (undefined when it has none). */
export interface GitHubAnswer {
  status: number;
  // biome-ignore lint/suspicious/noExplicitAny: tests look into bodies of any shape
  body: any;
}

/** A client of a GitHub REST API (the emulator's), as one user: `Authorization: token <token>`. */
export interface GitHubApi {
  /** Sends `method path` (the query included) with `body` as JSON; fails the test unless the answer is 2xx. */
  call(method: string, path: string, body?: unknown): Promise<GitHubAnswer>;
  /**
   * The text of the file `path` of `owner/repo` at `ref` (a branch or a commit), through the contents API
   * (https://docs.github.com/rest/repos/contents#get-repository-content: base64 `content`); undefined when there is none (404).
   */
  fileAt(repo: string, path: string, ref: string): Promise<string | undefined>;
}

/**
 * A client of the GitHub REST API at `baseUrl()` (read at each request, so a suite may create it before its server
 * has a port) sending `token` as `Authorization: token` with `Accept: application/vnd.github+json`. Every check it
 * makes is a test assertion.
 */
export function gitHubApi(baseUrl: () => string, token: string): GitHubApi {
  const send = async (method: string, path: string, body?: unknown): Promise<GitHubAnswer> => {
    const res = await fetch(`${baseUrl()}${path}`, {
      method,
      headers: { authorization: `token ${token}`, accept: 'application/vnd.github+json', 'content-type': 'application/json' },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    const text = await res.text();
    return { status: res.status, body: text === '' ? undefined : JSON.parse(text) };
  };
  return {
    async call(method, path, body) {
      const answer = await send(method, path, body);
      expect(answer.status, `${method} ${path}: ${JSON.stringify(answer.body)}`).toBeLessThan(300);
      return answer;
    },
    async fileAt(repo, path, ref) {
      const answer = await send('GET', `/repos/${repo}/contents/${path}?ref=${encodeURIComponent(ref)}`);
      if (answer.status === 404) return undefined;
      expect(answer.status, `GET ${repo}/${path} at ${ref}: ${JSON.stringify(answer.body)}`).toBe(200);
      return Buffer.from(answer.body.content as string, 'base64').toString('utf8');
    },
  };
}
