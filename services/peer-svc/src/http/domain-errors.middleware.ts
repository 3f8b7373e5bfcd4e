import { classifyError, DomainError, type DomainStatuses, isPostgresDataException } from '@switchyard/service-kit';
import type { ErrorRequestHandler } from 'express';
import { sendText } from './text-answer.mapper.ts';

/**
 * Where the peer endpoints' statuses depart from HTTP's own (service-kit's `statusOf` defaults): nowhere. Bad input
 * 400, a peer not allowed 403, an unknown directory or client place 404, a failed peer 502, a peer that timed out 504,
 * no broker or no confirm 503 (the README's status table).
 */
export const PEER_STATUSES: Readonly<Partial<DomainStatuses>> = Object.freeze({});

/**
 * The peer endpoints' error renderer: a {@link DomainError} is answered `text/plain` with the status service-kit's
 * classifier (`classifyError`) gives its kind under {@link PEER_STATUSES}, its headers, and its message as the whole body
 * (the services neutralise the input they echo); so is a value of the request PostgreSQL refused (a NUL in a client name or
 * directory key: 400). Anything else goes on to the app's error handler (an opaque 500 problem).
 */
export const domainErrorsAsText: ErrorRequestHandler = (error: unknown, req, res, next) => {
  if (!(error instanceof DomainError) && !isPostgresDataException(error)) {
    next(error);
    return;
  }
  const answer = classifyError(error, PEER_STATUSES, req);
  res.set(answer.headers);
  sendText(res, answer.status, answer.detail ?? answer.title);
};
