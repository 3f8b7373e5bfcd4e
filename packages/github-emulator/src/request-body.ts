import type { Request } from 'express';
import { GitHubApiError } from './github-http.ts';

/**
 * Readers of JSON request bodies that fail as GitHub does: a body that is not a JSON object → 400
 * `Problems parsing JSON`; a missing field → 422 `Invalid request.\n\n"<field>" wasn't supplied.`; a field of the wrong
 * type → 422 `Invalid request.\n\nFor 'properties/<field>', <value> is not a <type>.`
 */

/** The request's JSON body as an object. @throws GitHubApiError 400 when it is not an object */
export function bodyOf(req: Request, docs: string): Record<string, unknown> {
  const body: unknown = req.body;
  if (typeof body !== 'object' || body === null || Array.isArray(body)) throw new GitHubApiError(400, 'Problems parsing JSON', docs);
  return body as Record<string, unknown>;
}

/** 422 `Invalid request.` with GitHub's explanation. */
export function invalidRequest(detail: string, docs: string): GitHubApiError {
  return new GitHubApiError(422, `Invalid request.\n\n${detail}`, docs);
}

function wrongType(field: string, value: unknown, type: string, docs: string): GitHubApiError {
  return invalidRequest(`For 'properties/${field}', ${JSON.stringify(value)} is not a ${type}.`, docs);
}

/** A required string field. @throws GitHubApiError 422 when missing or not a string */
export function requiredString(body: Record<string, unknown>, field: string, docs: string): string {
  const value = body[field];
  if (value === undefined) throw invalidRequest(`"${field}" wasn't supplied.`, docs);
  if (typeof value !== 'string') throw wrongType(field, value, 'string', docs);
  return value;
}

/** An optional string field (`null` reads as absent). @throws GitHubApiError 422 when of another type */
export function optionalString(body: Record<string, unknown>, field: string, docs: string): string | undefined {
  const value = body[field];
  if (value === undefined || value === null) return undefined;
  if (typeof value !== 'string') throw wrongType(field, value, 'string', docs);
  return value;
}

/** An optional boolean field. @throws GitHubApiError 422 when of another type */
export function optionalBoolean(body: Record<string, unknown>, field: string, docs: string): boolean | undefined {
  const value = body[field];
  if (value === undefined || value === null) return undefined;
  if (typeof value !== 'boolean') throw wrongType(field, value, 'boolean', docs);
  return value;
}

/** A path parameter that may hold slashes (`*name` in the route), joined back together. */
export function slashedParam(req: Request, name: string): string {
  const value = (req.params as Record<string, string | string[] | undefined>)[name] ?? '';
  return Array.isArray(value) ? value.join('/') : value;
}
