import { z } from 'zod';

/**
 * The error envelope of the dependency update API, as the original service sent it
 * (https://github.com/dependabot/api-docs, dependabot/feedback#335 and #941): JSON:API-like, but `status` is a
 * JSON number and the content type is plain `application/json; charset=utf-8`.
 * e.g. `{"errors":[{"status":403,"title":"Forbidden","detail":"No access token provided in 'Authorization' header"}]}`
 */
export const DependencyApiError = z.object({
  status: z.number().int(),
  title: z.string(),
  detail: z.string().optional(),
  /** Where in the request the problem is: `{pointer: "/repo-id"}` for a body member, `{parameter: "page"}` for a query parameter. */
  source: z.object({ pointer: z.string().optional(), parameter: z.string().optional() }).optional(),
});
export type DependencyApiError = z.infer<typeof DependencyApiError>;

export const DependencyApiErrors = z.object({ errors: z.array(DependencyApiError).min(1) });
export type DependencyApiErrors = z.infer<typeof DependencyApiErrors>;

/** The detail the original answered a request without credentials with (403). */
export const NO_TOKEN_DETAIL = "No access token provided in 'Authorization' header";
