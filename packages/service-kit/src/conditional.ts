/**
 * HTTP conditional request helpers (RFC 9110 section 13). Entity tags are compared as the RFC says:
 * `If-Match` uses strong comparison (a weak tag `W/"..."` never matches), `If-None-Match` weak comparison.
 */

function entityTags(header: string): string[] {
  return header
    .split(',')
    .map((tag) => tag.trim())
    .filter(Boolean);
}

/**
 * Does `If-Match` allow changing a resource whose current tag is `etag` (undefined when it does not exist)?
 * Absent header: yes. `*`: only when the resource exists. Otherwise one listed strong tag must equal `etag`.
 */
export function ifMatchSatisfied(header: string | undefined, etag: string | undefined): boolean {
  if (header === undefined) return true;
  if (etag === undefined) return false;
  const tags = entityTags(header);
  return tags.includes('*') || tags.some((tag) => !tag.startsWith('W/') && tag === etag);
}

/** Does `If-None-Match` list `etag` (weakly), so that a GET may answer 304 Not Modified? */
export function ifNoneMatchHits(header: string | undefined, etag: string): boolean {
  if (header === undefined) return false;
  const bare = (tag: string) => tag.replace(/^W\//, '');
  return entityTags(header).some((tag) => tag === '*' || bare(tag) === bare(etag));
}
