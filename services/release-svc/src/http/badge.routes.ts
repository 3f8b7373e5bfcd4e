import { createHash } from 'node:crypto';
import { ifNoneMatchHits, methodNotAllowed, parseInput } from '@switchyard/service-kit';
import { Router } from 'express';
import type { Kysely } from 'kysely';
import { z } from 'zod';
import { badgeJson, badgeSvg } from '../badges/badge.mapper.ts';
import { repoBadge } from '../badges/badge.service.ts';
import type { ReleaseDatabase } from '../db/schema.ts';

/** The status badge's path, as the original served it (https://api.dependabot.com/badges/status). */
export const BADGE_PATH = '/badges/status';

/** How long a client or a cache (a README's image proxy) may keep a badge, seconds. */
export const BADGE_MAX_AGE_SECONDS = 300;

/** One query parameter given once (a repeated one is an array under the `simple` query parser). */
const once = (what: string) =>
  z.string({ error: (issue) => (issue.input === undefined ? 'is required' : `must be given once, as ${what}`) });

/** GitHub's owner (a login: letters, digits, hyphens, at most 39) and repo name (letters, digits, `.`, `_`, `-`, at most 100). */
const REPO_NAME = /^[A-Za-z0-9][A-Za-z0-9-]{0,38}\/(?!\.{1,2}$)[A-Za-z0-9._-]{1,100}$/;

/**
 * The badge's query: `host=github` (the only code host, as in the original's URLs), and `repo=<owner>/<name>` or
 * `identifier=<the code host's repo id>` or both. Other parameters (a README's `style=…`) are ignored.
 */
const BadgeQueryParams = z
  .object({
    host: z.literal('github', {
      error: (issue) => (issue.input === undefined ? 'is required: github' : 'must be github, the only code host served'),
    }),
    repo: once('owner/name').regex(REPO_NAME, { error: 'must be a repo as owner/name' }).optional(),
    identifier: once("the code host's numeric repo id")
      .regex(/^[0-9]{1,16}$/, { error: "must be the code host's numeric repo id" })
      .transform(Number)
      .refine((id) => id > 0 && Number.isSafeInteger(id), { error: "must be the code host's numeric repo id" })
      .optional(),
  })
  .refine((query) => query.repo !== undefined || query.identifier !== undefined, {
    path: ['repo'],
    error: 'or identifier is required',
  });

/**
 * `GET /badges/status?host=github&repo=<owner>/<name>` (or `&identifier=<repo id>`): Dependabot Preview's status badge
 * (https://api.dependabot.com/badges/status, dependabot/feedback#6), without authentication, for public repos only.
 * - 200 `image/svg+xml` (badge-maker's SVG, `Dependabot` | status), or, to a client that prefers `application/json`
 *   (badgen.net and shields.io asked so), `{"status":"…","colour":"…"}` as the original answered; `Vary: Accept`,
 *   `Cache-Control: public, max-age=300`, an `ETag` of the body (304 to a matching `If-None-Match`) and
 *   `Access-Control-Allow-Origin: *`. A client that accepts neither gets the SVG: a badge that does not render helps
 *   no one.
 * - 400 (the API's JSON:API errors, each naming its parameter): `host` missing or not `github`, neither `repo` nor
 *   `identifier`, a malformed or repeated one.
 * - 404: no public repo matches: unknown, private, or `repo` and `identifier` naming different repos (the original
 *   answered 400 to the last; one 404 for the three never tells whether a private repo exists).
 * - 405 for another method.
 */
export function badgeRouter(db: Kysely<ReleaseDatabase>): Router {
  const router = Router();

  router
    .route(BADGE_PATH)
    .get(async (req, res) => {
      // On every answer, errors included: a page on another origin may read a badge's JSON, and caches keep both forms.
      res.setHeader('access-control-allow-origin', '*');
      res.vary('accept');
      const params = parseInput(BadgeQueryParams, req.query, 'query');
      const status = await repoBadge(db, { repo: params.repo, identifier: params.identifier });
      const json = req.accepts(['image/svg+xml', 'application/json']) === 'application/json';
      const body = json ? badgeJson(status) : badgeSvg(status);
      const etag = `"${createHash('sha256').update(body).digest('base64url').slice(0, 27)}"`;
      res.setHeader('cache-control', `public, max-age=${BADGE_MAX_AGE_SECONDS}`);
      res.setHeader('etag', etag);
      if (ifNoneMatchHits(req.get('if-none-match'), etag)) {
        res.status(304).end();
        return;
      }
      if (!json) {
        // The SVG holds no script and loads nothing; opened on its own, it may not either.
        res.setHeader('content-security-policy', "default-src 'none'; style-src 'unsafe-inline'");
      }
      res.type(json ? 'application/json' : 'image/svg+xml').send(body);
    })
    .all(methodNotAllowed(['GET']));

  return router;
}
