import { type DestinationStream, type Logger, pino } from 'pino';

export type { Logger } from 'pino';

/**
 * Creates the service's JSON logger (pino). Authorization and cookie headers are redacted wherever
 * they appear in a logged request, so tokens never reach the log.
 * @param service the value of the `service` field on every line, e.g. `catalog-svc`
 * @param level a pino level; `silent` turns logging off (tests)
 * @param destination where the JSON lines go; default standard output (tests pass a stream to read what was logged)
 */
export function createLogger(service: string, level = 'info', destination?: DestinationStream): Logger {
  const options = {
    level,
    base: { service },
    redact: {
      paths: ['req.headers.authorization', 'req.headers.cookie', 'req.headers["proxy-authorization"]'],
      censor: '[redacted]',
    },
  };
  return destination === undefined ? pino(options) : pino(options, destination);
}

/**
 * Standard output written asynchronously by pino's own destination (sonic-boom): lines logged while a write is under
 * way go out together in the next one, so a busy process makes one `write(2)` for many lines instead of one each; what
 * is waiting is written synchronously when the process exits. For services that log a line per request (the gateway).
 * @returns a destination for {@link createLogger}
 */
export function bufferedStdout(): DestinationStream {
  const destination = pino.destination({ dest: 1, sync: false });
  process.on('exit', () => destination.flushSync());
  return destination;
}
