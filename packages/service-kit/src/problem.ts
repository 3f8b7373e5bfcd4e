import { type ServerResponse, STATUS_CODES } from 'node:http';
import { PROBLEM_CONTENT_TYPE, type ProblemDetails, type ProblemFieldError } from '@switchyard/contracts';
import type { z } from 'zod';

/**
 * An error that is meant for the client: thrown anywhere in a request, it becomes an RFC 9457
 * `application/problem+json` response with its status (see {@link errorHandler}).
 * `headers` are set on the response too (e.g. `Allow` on a 405).
 */
export class HttpProblem extends Error {
  readonly status: number;
  readonly detail: string | undefined;
  readonly errors: ProblemFieldError[] | undefined;
  readonly headers: Record<string, string>;

  constructor(status: number, detail?: string, options: { errors?: ProblemFieldError[]; headers?: Record<string, string> } = {}) {
    super(detail ?? STATUS_CODES[status] ?? 'Error');
    this.name = 'HttpProblem';
    this.status = status;
    this.detail = detail;
    this.errors = options.errors;
    this.headers = options.headers ?? {};
  }
}

/** Where a zod-validated value came from: the JSON body (pointers) or a named query/path parameter. */
export type InputLocation = 'body' | 'query' | 'path';

/**
 * Turns zod issues into problem `errors` entries. Body issues get a JSON Pointer (`#/Price`),
 * query issues the parameter's name; unknown keys get one entry each.
 */
export function fieldErrors(issues: readonly z.core.$ZodIssue[], location: InputLocation, pathName = 'id'): ProblemFieldError[] {
  const out: ProblemFieldError[] = [];
  for (const issue of issues) {
    const keys = issue.code === 'unrecognized_keys' ? issue.keys.map((key) => [...issue.path, key]) : [issue.path];
    for (const path of keys) {
      const detail = issue.code === 'unrecognized_keys' ? 'is not a known field' : issue.message;
      if (location === 'body') {
        out.push({ pointer: `#/${path.map((p) => String(p).replaceAll('~', '~0').replaceAll('/', '~1')).join('/')}`, detail });
      } else {
        out.push({ parameter: location === 'path' ? pathName : String(path[0] ?? ''), detail });
      }
    }
  }
  return out;
}

/**
 * Parses `value` with `schema`; on failure throws a 400 {@link HttpProblem} whose `detail` and `errors`
 * name every invalid field (e.g. `Price: must not be negative`).
 */
export function parseInput<S extends z.ZodType>(schema: S, value: unknown, location: InputLocation, pathName?: string): z.output<S> {
  const result = schema.safeParse(value);
  if (result.success) return result.data;
  const errors = fieldErrors(result.error.issues, location, pathName);
  const summary = errors.map((e) => `${e.pointer ? e.pointer.slice(2) || '(body)' : e.parameter}: ${e.detail}`).join('; ');
  const where = location === 'body' ? 'body' : location === 'query' ? 'query parameters' : 'path';
  throw new HttpProblem(400, `Invalid request ${where}: ${summary}`, { errors });
}

/** Builds the problem body for `status` (title from the status's reason phrase). */
export function problemBody(status: number, detail?: string, extra: Partial<ProblemDetails> = {}): ProblemDetails {
  return {
    type: 'about:blank',
    title: STATUS_CODES[status] ?? 'Error',
    status,
    ...(detail === undefined ? {} : { detail }),
    ...extra,
  };
}

/** Writes a problem response on a plain node response (used by the gateway's hot path and by express). */
export function writeProblem(res: ServerResponse, body: ProblemDetails, headers: Record<string, string> = {}): void {
  const payload = JSON.stringify(body);
  res.writeHead(body.status, {
    ...headers,
    'content-type': `${PROBLEM_CONTENT_TYPE}; charset=utf-8`,
    'content-length': Buffer.byteLength(payload),
    'x-content-type-options': 'nosniff',
    'cache-control': 'no-store',
  });
  res.end(payload);
}
