import { NO_TOKEN_DETAIL } from '@switchyard/contracts';
import { HttpProblem, RateLimited, Unauthenticated } from '@switchyard/service-kit';
import type { Request, RequestHandler, Response } from 'express';
import { clientAddressKey } from './client-address.ts';
import type { Caller, CodeHostView } from './code-host-view.ts';

const scheme = /^(?:Personal|Bearer|token)\s+(\S+)\s*$/i;

/**
 * Authenticates every request of the dependency update API (https://github.com/dependabot/api-docs, "Authentication"):
 * `Authorization: Personal <token>` as documented, `Bearer <token>` as the original dashboard sent
 * (dependabot/feedback#941). No header: 403 with the original's detail (feedback#335). Another scheme:
 * 401. A token the code host rejects: `Unauthenticated` (401), see {@link CodeHostView.caller}. The caller is
 * left in `res.locals.caller`.
 *
 * Each of those failures counts against the client's address in the view's failed-authentication limit
 * ({@link CodeHostView.failedAuthentications}; the address is `req.ip`, so express's `trust proxy` setting decides
 * whether `X-Forwarded-For` is believed, and an IPv6 client counts by its /64, see {@link clientAddressKey}). Once an
 * address has used up its failures for the window, its requests are answered `RateLimited` (429 with `Retry-After`,
 * the seconds until the window frees) without asking the code host, except those with a token the view has vouched
 * for within its cache TTL ({@link CodeHostView.cachedCaller}): those go on as before. A token the view cannot vouch
 * for is not checked from that address until the window frees, as checking it would tell a guesser which guess was
 * right. Successful authentications never count.
 */
export function authenticate(view: CodeHostView): RequestHandler {
  const failures = view.failedAuthentications;
  return async (req, res, next) => {
    const header = req.headers.authorization;
    const token = header ? scheme.exec(header)?.[1] : undefined;
    const address = failures ? clientAddressKey(clientAddressOf(req)) : '';
    const retryAfterSeconds = failures?.retryAfterSeconds(address);
    if (retryAfterSeconds !== undefined) {
      const known = token === undefined ? undefined : view.cachedCaller(token);
      if (!known) {
        throw new RateLimited('Too many failed authentications from this address; retry later', { retryAfterSeconds });
      }
      res.locals.caller = known;
      next();
      return;
    }
    /** Counts a failed authentication of this address, and gives back the error to answer it with. */
    const failure = (error: unknown): unknown => {
      failures?.hit(address);
      return error;
    };
    if (!header) throw failure(new HttpProblem(403, NO_TOKEN_DETAIL));
    if (!token) throw failure(new HttpProblem(401, "The 'Authorization' header must be 'Personal <token>' or 'Bearer <token>'"));
    res.locals.caller = await view.caller(token).catch((error: unknown) => {
      throw error instanceof Unauthenticated ? failure(error) : error;
    });
    next();
  };
}

/** The authenticated caller of a request that went through {@link authenticate}. */
export function callerOf(res: Response): Caller {
  return res.locals.caller as Caller;
}

/** The client's address as express sees it: `req.ip` (which follows `trust proxy`), else the socket's peer. */
function clientAddressOf(req: Request): string | undefined {
  return req.ip ?? req.socket.remoteAddress;
}
