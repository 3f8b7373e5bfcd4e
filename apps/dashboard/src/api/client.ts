import { storedToken } from '../session.ts';

/** One problem the API reported: its words, and the request member or parameter it is about when it said so. */
export interface ApiProblem {
  status: number;
  title: string;
  detail?: string;
  /** The body member (`/repo-id`, from `source.pointer`) or query parameter (`page`) the problem is about. */
  field?: string;
}

/**
 * An answer other than 2xx, with the API's own words: the dependency API's `{"errors":[{status,title,detail,source}]}`
 * envelope, or the gateway's RFC 9457 problem details (`{type,title,status,detail}`), or the status line alone.
 */
export class ApiError extends Error {
  readonly status: number;
  readonly problems: ApiProblem[];

  constructor(status: number, problems: ApiProblem[]) {
    super(problems.map((problem) => problemText(problem)).join('; ') || `HTTP ${status}`);
    this.name = 'ApiError';
    this.status = status;
    this.problems = problems;
  }

  /** The problems about one body member (`pointer` like `/directory`). */
  forField(pointer: string): ApiProblem[] {
    return this.problems.filter((problem) => problem.field === pointer);
  }
}

/** A problem as one sentence: `directory: must start with /`, or the title and detail. */
export function problemText(problem: ApiProblem): string {
  if (problem.field && problem.detail) return `${problem.field.replace(/^\//, '')}: ${problem.detail}`;
  return problem.detail ? `${problem.title}: ${problem.detail}` : problem.title;
}

/** The problems an error answer's body describes (see {@link ApiError}). */
function problemsOf(status: number, statusText: string, body: unknown): ApiProblem[] {
  if (body && typeof body === 'object') {
    const errors = (body as { errors?: unknown }).errors;
    if (Array.isArray(errors)) {
      return errors.map(
        (error: { status?: unknown; title?: unknown; detail?: unknown; source?: { pointer?: unknown; parameter?: unknown } }) => {
          const field = error.source?.pointer ?? error.source?.parameter;
          return {
            status: Number(error.status ?? status),
            title: String(error.title ?? statusText),
            ...(typeof error.detail === 'string' ? { detail: error.detail } : {}),
            ...(typeof field === 'string' ? { field } : {}),
          };
        },
      );
    }
    const problem = body as { title?: unknown; detail?: unknown };
    if (typeof problem.title === 'string') {
      return [{ status, title: problem.title, ...(typeof problem.detail === 'string' ? { detail: problem.detail } : {}) }];
    }
  }
  return [{ status, title: statusText || `HTTP ${status}` }];
}

/** Options of {@link api}: another token than the session's (the login form's, before it is kept), more headers. */
export interface ApiOptions {
  token?: string | undefined;
  headers?: Record<string, string>;
}

/**
 * Calls the API on this page's origin with the session's token (or `options.token`). `body` is sent as JSON.
 * @returns the answer's parsed JSON body (undefined for an empty one, a 204)
 * @throws ApiError for any answer other than 2xx, with the API's messages
 * @throws TypeError when the network fails
 */
export async function api<T>(method: string, path: string, body?: unknown, options: ApiOptions = {}): Promise<T> {
  const token = options.token ?? storedToken();
  const headers: Record<string, string> = { accept: 'application/json', ...options.headers };
  if (token) headers.authorization = `Personal ${token}`;
  if (body !== undefined) headers['content-type'] = 'application/json';
  const response = await fetch(path, {
    method,
    headers,
    body: body === undefined ? null : JSON.stringify(body),
    credentials: 'omit',
    cache: 'no-store',
  });
  const text = await response.text();
  let parsed: unknown;
  try {
    parsed = text === '' ? undefined : JSON.parse(text);
  } catch {
    parsed = undefined;
  }
  if (!response.ok) throw new ApiError(response.status, problemsOf(response.status, response.statusText, parsed));
  return parsed as T;
}

/** A query string from the defined members of `params` (`?a=1&b=x`), or '' when none is. */
export function query(params: Record<string, string | number | undefined | null>): string {
  const search = new URLSearchParams();
  for (const [name, value] of Object.entries(params))
    if (value !== undefined && value !== null && value !== '') search.set(name, String(value));
  const text = search.toString();
  return text === '' ? '' : `?${text}`;
}
