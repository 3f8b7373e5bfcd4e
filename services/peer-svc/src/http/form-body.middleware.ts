import { InvalidInput } from '@switchyard/service-kit';
import express, { type ErrorRequestHandler, type RequestHandler } from 'express';
import { FormBodyError, MAX_FORM_FIELDS, parseLatin1Form } from './latin1-form.mapper.ts';
import { sendText } from './text-answer.mapper.ts';

/**
 * Refuses a POST without an `X-Requested-By` header (any value, even empty, as upstream's CSRF filter).
 * @throws InvalidInput `Missing X-Requested-By header`
 */
export const requireRequestedBy: RequestHandler = (req, _res, next) => {
  if (req.method === 'POST' && req.headers['x-requested-by'] === undefined) throw new InvalidInput('Missing X-Requested-By header');
  next();
};

/**
 * Reads a form-encoded body of at most `limitBytes` (413 beyond, before any parsing, see {@link formBodyErrors}) and
 * `maxFields` fields (default `MAX_FORM_FIELDS`, 16), decoded as ISO-8859-1 (`parseLatin1Form`) into
 * `res.locals.form` (a `Form`). Another content type is an {@link InvalidInput}, a malformed body a {@link FormBodyError} (one
 * too), passed on to the error handlers.
 */
export function formBody(limitBytes: number, maxFields: number = MAX_FORM_FIELDS): RequestHandler[] {
  const readRaw = express.raw({ type: () => true, limit: limitBytes });
  // A body that does not inflate as its Content-Encoding says comes out of the reader as zlib's (or brotli's) own
  // error, without body-parser's `type`: it is unreadable input all the same.
  const raw: RequestHandler = (req, res, next) =>
    readRaw(req, res, (error?: unknown) =>
      next(
        error === undefined || typeof (error as { type?: unknown }).type === 'string'
          ? error
          : new FormBodyError('Request body could not be read'),
      ),
    );
  const parse: RequestHandler = (req, res, next) => {
    const type = (req.headers['content-type'] ?? '').split(';')[0]?.trim().toLowerCase();
    if (type !== 'application/x-www-form-urlencoded') throw new InvalidInput('Content-Type must be application/x-www-form-urlencoded');
    res.locals.form = parseLatin1Form(Buffer.isBuffer(req.body) ? req.body : Buffer.alloc(0), maxFields);
    next();
  };
  return [raw, parse];
}

/** Maps body-reading errors to `text/plain`: 413 too large, 400 anything else about the body. */
export const formBodyErrors: ErrorRequestHandler = (error: unknown, _req, res, next) => {
  const type = (error as { type?: unknown }).type;
  if (type === 'entity.too.large') sendText(res, 413, 'Request body is too large');
  else if (typeof type === 'string') sendText(res, 400, 'Request body could not be read');
  else next(error);
};
