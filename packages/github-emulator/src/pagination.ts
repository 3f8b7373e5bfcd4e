import type { Request } from 'express';
import { apiBaseOf, queryValue } from './github-http.ts';

/** GitHub's default page size. */
export const DEFAULT_PER_PAGE = 30;
/** GitHub's largest page size. */
export const MAX_PER_PAGE = 100;

/** An endpoint's own page sizes, where GitHub's differ from 30 and 100 (e.g. a commit's files: 300 a page). */
export interface PageSizes {
  perPage: number;
  maxPerPage: number;
}

const LIST_PAGES: PageSizes = { perPage: DEFAULT_PER_PAGE, maxPerPage: MAX_PER_PAGE };

/**
 * `page` (1-based, default 1) and `per_page` (default 30, at most 100, or the endpoint's `sizes`) of a list request,
 * as GitHub reads them: a missing, non-numeric or non-positive value takes the default; a larger `per_page` is capped.
 * See https://docs.github.com/rest/using-the-rest-api/using-pagination-in-the-rest-api
 */
export function pageOf(req: Request, sizes: PageSizes = LIST_PAGES): { page: number; perPage: number } {
  const number = (name: string) => {
    const raw = queryValue(req, name);
    const value = raw !== undefined && /^\d+$/.test(raw) ? Number(raw) : Number.NaN;
    return Number.isSafeInteger(value) && value > 0 ? value : undefined;
  };
  return { page: number('page') ?? 1, perPage: Math.min(number('per_page') ?? sizes.perPage, sizes.maxPerPage) };
}

/**
 * One page of `items` and its RFC 8288 (formerly 5988) `Link` header as GitHub builds it: absolute URLs of the same
 * request with `page` (and `per_page`) set, `rel="prev"`, `rel="next"`, `rel="last"`, `rel="first"` in that order,
 * prev/first only after page 1, next/last only before the last page; no header when everything fits on page 1. Page
 * sizes as {@link pageOf} reads them.
 */
export function paginate<T>(req: Request, items: readonly T[], sizes: PageSizes = LIST_PAGES): { items: T[]; link: string | undefined } {
  const { page, perPage } = pageOf(req, sizes);
  const last = Math.max(1, Math.ceil(items.length / perPage));
  const url = new URL(`${apiBaseOf(req)}${req.url}`);
  const at = (n: number) => {
    const params = new URLSearchParams(url.search);
    params.set('per_page', String(perPage));
    params.set('page', String(n));
    return `<${url.origin}${url.pathname}?${params}>`;
  };
  const links: string[] = [];
  if (page > 1) links.push(`${at(Math.min(page - 1, last))}; rel="prev"`);
  if (page < last) links.push(`${at(page + 1)}; rel="next"`, `${at(last)}; rel="last"`);
  if (page > 1) links.push(`${at(1)}; rel="first"`);
  return { items: items.slice((page - 1) * perPage, page * perPage), link: links.length ? links.join(', ') : undefined };
}
