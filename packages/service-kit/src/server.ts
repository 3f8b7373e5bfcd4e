import { createServer, type RequestListener, type Server } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import type { Logger } from './logger.ts';
import { problemBody } from './problem.ts';

/**
 * Answers a request Node's HTTP parser refused (bad framing, oversized headers, a header timeout) with
 * a problem+json body instead of Node's bare status line, then closes the connection.
 */
function answerClientError(error: Error & { code?: string }, socket: Socket): void {
  if (!socket.writable) {
    socket.destroy();
    return;
  }
  const status = error.code === 'HPE_HEADER_OVERFLOW' ? 431 : error.code === 'ERR_HTTP_REQUEST_TIMEOUT' ? 408 : 400;
  const detail =
    status === 431 ? 'Request headers are too large' : status === 408 ? 'Request took too long to arrive' : 'Malformed HTTP request';
  const payload = JSON.stringify(problemBody(status, detail));
  socket.end(
    `HTTP/1.1 ${status} ${problemBody(status).title}\r\ncontent-type: application/problem+json; charset=utf-8\r\n` +
      `content-length: ${Buffer.byteLength(payload)}\r\nx-content-type-options: nosniff\r\nconnection: close\r\n\r\n${payload}`,
  );
}

/** A listening HTTP server and its base URL (`http://127.0.0.1:PORT`). */
export interface Listening {
  server: Server;
  url: string;
  port: number;
  /** Stops accepting connections, lets requests in flight finish, then closes the rest after `graceMs`. */
  close: (graceMs?: number) => Promise<void>;
}

/**
 * Starts an HTTP server for `handler` on `host:port` (`0` picks a free port). Keep-alive sockets are
 * held 65 s (longer than common proxies' idle timeouts), request headers must arrive within 60 s and
 * the whole request within 120 s. Requests the HTTP parser refuses get a problem+json 400/408/431.
 * @throws the listen error (e.g. `EADDRINUSE`)
 */
export async function listen(handler: RequestListener, port: number, host = '0.0.0.0'): Promise<Listening> {
  const server = createServer({ keepAliveTimeout: 65_000, headersTimeout: 60_000, requestTimeout: 120_000 }, handler);
  server.on('clientError', answerClientError);
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  const actual = (server.address() as AddressInfo).port;
  const shownHost = host === '0.0.0.0' || host === '::' ? '127.0.0.1' : host;
  let closing: Promise<void> | undefined;
  return {
    server,
    port: actual,
    url: `http://${shownHost}:${actual}`,
    close: (graceMs = 5_000) => {
      closing ??= new Promise<void>((resolve) => {
        const force = setTimeout(() => server.closeAllConnections(), graceMs);
        force.unref();
        server.close(() => {
          clearTimeout(force);
          resolve();
        });
        server.closeIdleConnections();
      });
      return closing;
    },
  };
}

/**
 * {@link listen}, for a service holding resources (database, bus): when listening fails they are released
 * and the error rethrown; the returned `close()` stops HTTP first, then releases them, once however often called.
 * @param release closes what the service opened before listening, in the order it must be closed
 * @throws the listen error (e.g. `EADDRINUSE`), after `release`
 */
export async function listenHolding(
  handler: RequestListener,
  port: number,
  host: string,
  release: () => Promise<void>,
): Promise<Listening> {
  let http: Listening;
  try {
    http = await listen(handler, port, host);
  } catch (error) {
    await release();
    throw error;
  }
  let closing: Promise<void> | undefined;
  return {
    ...http,
    close: (graceMs?: number) => {
      closing ??= http.close(graceMs).then(release);
      return closing;
    },
  };
}

/**
 * Runs `shutdown` once on the first SIGINT or SIGTERM, then exits 0 (1 when it throws).
 * A second signal, or `shutdown` taking longer than `deadlineMs`, exits at once with status 1.
 */
export function onShutdownSignal(logger: Logger, shutdown: () => Promise<void>, deadlineMs = 10_000): void {
  let started = false;
  const handle = (signal: NodeJS.Signals) => {
    if (started) {
      logger.warn({ signal }, 'second signal: exiting now');
      process.exit(1);
    }
    started = true;
    logger.info({ signal }, 'shutting down');
    setTimeout(() => {
      logger.error('shutdown took too long: exiting');
      process.exit(1);
    }, deadlineMs).unref();
    shutdown().then(
      () => process.exit(0),
      (error: unknown) => {
        logger.error({ err: error }, 'shutdown failed');
        process.exit(1);
      },
    );
  };
  process.on('SIGINT', handle);
  process.on('SIGTERM', handle);
}
