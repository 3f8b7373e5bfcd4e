import type { Request } from 'express';
import { HttpProblem } from './problem.ts';

/**
 * The parsed JSON body of a request, for routes that require one.
 * @throws HttpProblem 415 when a body came with another content type, 400 when there is no body
 */
export function jsonBody(req: Request): unknown {
  if (req.body !== undefined) return req.body;
  const hasBody = req.headers['transfer-encoding'] !== undefined || Number(req.headers['content-length'] ?? 0) > 0;
  if (hasBody) throw new HttpProblem(415, `Request body must be application/json, not ${req.headers['content-type'] ?? 'untyped'}`);
  throw new HttpProblem(400, 'Request body is required: a JSON object');
}
