/**
 * The soak's HTTP calls: JSON in and out, loopback only, each with a timeout. An answer of any status is returned (the
 * caller decides what it means); a connection that fails or times out throws {@link Unreachable}, which the soak reads
 * as "the system is down" (a fault in progress).
 */

/** An answer: its status, its headers and its body (parsed JSON, the text when not JSON, undefined when empty). */
export interface Answer {
  status: number;
  headers: Headers;
  // biome-ignore lint/suspicious/noExplicitAny: the soak reads bodies of many shapes
  body: any;
  text: string;
}

/** A request that got no answer: connection refused or reset, or no answer within the timeout. */
export class Unreachable extends Error {
  constructor(method: string, url: string, cause: unknown) {
    super(`${method} ${url}: no answer (${(cause as Error)?.message ?? String(cause)})`, { cause });
    this.name = 'Unreachable';
  }
}

/** An answer the caller did not expect (status and body in the message). */
export class Unexpected extends Error {
  readonly status: number;
  constructor(what: string, answer: Answer) {
    super(`${what}: ${answer.status} ${answer.text.slice(0, 500)}`);
    this.name = 'Unexpected';
    this.status = answer.status;
  }
}

/** How long one request may take before it counts as unanswered, ms. */
export const REQUEST_TIMEOUT_MS = 60_000;

/**
 * Sends `method url` with `body` as JSON (when given) and `headers`, and reads the whole answer.
 * @throws Unreachable when no answer comes (refused, reset, or over `timeoutMs`)
 */
export async function requestJson(
  method: string,
  url: string,
  options: { body?: unknown; headers?: Record<string, string>; timeoutMs?: number } = {},
): Promise<Answer> {
  const headers: Record<string, string> = { accept: 'application/json', ...options.headers };
  if (options.body !== undefined) headers['content-type'] = 'application/json';
  let res: Response;
  let text: string;
  try {
    res = await fetch(url, {
      method,
      headers,
      ...(options.body === undefined ? {} : { body: JSON.stringify(options.body) }),
      signal: AbortSignal.timeout(options.timeoutMs ?? REQUEST_TIMEOUT_MS),
    });
    text = await res.text();
  } catch (error) {
    throw new Unreachable(method, url, error);
  }
  let body: unknown;
  if (text !== '') {
    try {
      body = JSON.parse(text);
    } catch {
      body = text;
    }
  }
  return { status: res.status, headers: res.headers, body, text };
}

/**
 * Sends `method url` and returns the answer when its status is one of `ok` (default: any 2xx).
 * @throws Unexpected for another status; Unreachable when no answer comes
 */
export async function expectJson(
  method: string,
  url: string,
  options: { body?: unknown; headers?: Record<string, string>; ok?: readonly number[]; timeoutMs?: number } = {},
): Promise<Answer> {
  const answer = await requestJson(method, url, options);
  const fine = options.ok ? options.ok.includes(answer.status) : answer.status >= 200 && answer.status < 300;
  if (!fine) throw new Unexpected(`${method} ${url}`, answer);
  return answer;
}
