import { NO_TOKEN_DETAIL } from '@switchyard/contracts';
import { HttpProblem } from '@switchyard/service-kit';
import type { RequestHandler, Response } from 'express';
import type { Caller, CodeHostView } from './code-host-view.ts';

const scheme = /^(?:Personal|Bearer|token)\s+(\S+)\s*$/i;

/**
 * Authenticates every request of the dependency update API (https://github.com/dependabot/api-docs, "Authentication"):
 * `Authorization: Personal <token>` as documented, `Bearer <token>` as the original dashboard sent
 * (dependabot/feedback#941). No header: 403 with the original's detail (feedback#335). Another scheme:
 * 401. A token the code host rejects: `Unauthenticated` (401), see {@link CodeHostView.caller}. The caller is
 * left in `res.locals.caller`.
 */
export function authenticate(view: CodeHostView): RequestHandler {
  return async (req, res, next) => {
    const header = req.headers.authorization;
    if (!header) throw new HttpProblem(403, NO_TOKEN_DETAIL);
    const token = scheme.exec(header)?.[1];
    if (!token) throw new HttpProblem(401, "The 'Authorization' header must be 'Personal <token>' or 'Bearer <token>'");
    res.locals.caller = await view.caller(token);
    next();
  };
}

/** The authenticated caller of a request that went through {@link authenticate}. */
export function callerOf(res: Response): Caller {
  return res.locals.caller as Caller;
}
