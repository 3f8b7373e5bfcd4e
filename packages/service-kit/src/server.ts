import { createServer, type RequestListener, type Server } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
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

/** A listening HTTP server and its base URL (`http://127.0.0.1:PORT`); `await using` (or a service's scope) closes it. */
export interface Listening extends AsyncDisposable {
  server: Server;
  url: string;
  port: number;
  /**
   * Stops accepting connections and lets requests in flight finish; a request that still arrives on an open
   * keep-alive connection is answered with `Connection: close`, and each connection is closed as soon as it has
   * no request in flight. Connections still open after `graceMs` (default 5 s) are destroyed. Resolves
   * once every connection is closed; the same promise however often called. `[Symbol.asyncDispose]` is `close()`.
   */
  close: (graceMs?: number) => Promise<void>;
}

/**
 * Starts an HTTP server for `handler` on `host:port` (`0` picks a free port). Keep-alive sockets are
 * held 65 s (longer than common proxies' idle timeouts), request headers must arrive within 60 s and
 * the whole request within 120 s. Requests the HTTP parser refuses get a problem+json 400/408/431.
 * @throws the listen error (e.g. `EADDRINUSE`)
 */
export async function listen(handler: RequestListener, port: number, host = '0.0.0.0'): Promise<Listening> {
  let closing: Promise<void> | undefined;
  const server = createServer({ keepAliveTimeout: 65_000, headersTimeout: 60_000, requestTimeout: 120_000 }, (req, res) => {
    // Once closing, a request that still arrives on a keep-alive connection is its last one there.
    if (closing) res.setHeader('connection', 'close');
    handler(req, res);
  });
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
  const close = (graceMs = 5_000) => {
    closing ??= new Promise<void>((resolve) => {
      const force = setTimeout(() => server.closeAllConnections(), graceMs);
      force.unref();
      // A response in flight when close() began leaves its keep-alive connection idle when it ends: close those as
      // they appear (the next request on any other connection gets `Connection: close` above). No per-request cost.
      const sweep = setInterval(() => server.closeIdleConnections(), 25);
      sweep.unref();
      server.close(() => {
        clearTimeout(force);
        clearInterval(sweep);
        resolve();
      });
      server.closeIdleConnections();
    });
    return closing;
  };
  return {
    server,
    port: actual,
    url: `http://${shownHost}:${actual}`,
    close,
    [Symbol.asyncDispose]: () => close(),
  };
}
