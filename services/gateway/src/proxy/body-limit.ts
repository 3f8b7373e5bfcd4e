import { Transform, type TransformCallback } from 'node:stream';

/** Raised inside the forwarded body stream when a chunked request body grows past the gateway's limit. */
export class BodyTooLargeError extends Error {
  readonly limitBytes: number;

  constructor(limitBytes: number) {
    super(`Request body is larger than ${limitBytes} bytes`);
    this.name = 'BodyTooLargeError';
    this.limitBytes = limitBytes;
  }
}

/** A pass-through stream that fails with {@link BodyTooLargeError} once more than `limitBytes` went through. */
export function bodyLimiter(limitBytes: number): Transform {
  let seen = 0;
  return new Transform({
    transform(chunk: Buffer, _encoding: BufferEncoding, done: TransformCallback) {
      seen += chunk.length;
      if (seen > limitBytes) done(new BodyTooLargeError(limitBytes));
      else done(null, chunk);
    },
  });
}
