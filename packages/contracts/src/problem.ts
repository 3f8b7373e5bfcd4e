import { z } from 'zod';

/** The media type of an RFC 9457 problem details body. */
export const PROBLEM_CONTENT_TYPE = 'application/problem+json';

/**
 * One invalid part of a request, as an extension member `errors` of a problem (the shape of RFC 9457's
 * own example, section 3): `pointer` is a JSON Pointer fragment into the body (`#/Price`), `parameter`
 * names a query or path parameter (`limit`, `id`); exactly one of them is set.
 */
export const ProblemFieldError = z.object({
  detail: z.string(),
  pointer: z.string().optional(),
  parameter: z.string().optional(),
});
export type ProblemFieldError = z.infer<typeof ProblemFieldError>;

/**
 * RFC 9457 problem details, the error body of the book catalogue and of the gateway.
 * `type` is `about:blank` unless a more specific problem type applies, `title` is the status's
 * reason phrase, `detail` explains this occurrence, `instance` is the request path, `requestId`
 * the request's `x-request-id`, `errors` the invalid fields of a 400.
 */
export const ProblemDetails = z.object({
  type: z.string(),
  title: z.string(),
  status: z.number().int().min(400).max(599),
  detail: z.string().optional(),
  instance: z.string().optional(),
  requestId: z.string().optional(),
  errors: z.array(ProblemFieldError).optional(),
});
export type ProblemDetails = z.infer<typeof ProblemDetails>;
