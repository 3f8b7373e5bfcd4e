import { NO_TOKEN_DETAIL } from '@switchyard/contracts';
import { HttpProblem } from '@switchyard/service-kit';
import type { RequestHandler, Response } from 'express';
import type { Caller, CodeHostView } from './code-host-view.ts';
import { CodeHostError } from './errors.ts';

const scheme = /^(?:Personal|Bearer|token)\s+(\S+)\s*$/i;

/**
 * Authenticates every request of the dependency update API (seeds/000, "Authentication"):
 * `Authorization: Personal <token>` as documented, `Bearer <token>` as the original dashboard sent
 * (dependabot/feedback#941). No header: 403 with the original's detail (feedback#335). Another scheme:
 * 401. A token the code host rejects: 401. The caller is left in `res.locals.caller`.
 */
export function authenticate(view: CodeHostView): RequestHandler {
  return async (req, res, next) => {
    const header = req.headers.authorization;
    if (!header) throw new HttpProblem(403, NO_TOKEN_DETAIL);
    const token = scheme.exec(header)?.[1];
    if (!token) throw new HttpProblem(401, "The 'Authorization' header must be 'Personal <token>' or 'Bearer <token>'");
    try {
      res.locals.caller = await view.caller(token);
    } catch (error) {
      throw codeHostProblem(error);
    }
    next();
  };
}

/** The authenticated caller of a request that went through {@link authenticate}. */
export function callerOf(res: Response): Caller {
  return res.locals.caller as Caller;
}

/**
 * Maps a code-host failure to this API's answer: rejected token 401, refused 403, rate limit 429 with
 * `Retry-After`, an unreachable or failing code host 502. Anything else is rethrown (500).
 */
export function codeHostProblem(error: unknown): unknown {
  if (!(error instanceof CodeHostError)) return error;
  switch (error.kind) {
    case 'unauthorized':
      return new HttpProblem(401, 'Bad credentials: the code host rejected the access token');
    case 'forbidden':
      return new HttpProblem(403, 'The code host refused this access token the information it needs');
    case 'not_found':
      return new HttpProblem(404, 'Not found on the code host');
    case 'rate_limited':
      return new HttpProblem(429, 'The code host rate limit for this access token is exhausted; retry later', {
        headers: { 'retry-after': String(error.retryAfterSeconds ?? 60) },
      });
    default:
      return new HttpProblem(502, 'The code host did not answer; retry later');
  }
}

/** Runs a code-host call, turning its failures into this API's answers (see {@link codeHostProblem}). */
export async function askCodeHost<T>(call: () => Promise<T>): Promise<T> {
  try {
    return await call();
  } catch (error) {
    throw codeHostProblem(error);
  }
}
