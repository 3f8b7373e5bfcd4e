import { createServer, type IncomingMessage, type RequestListener } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * Serves `app` on a free port of 127.0.0.1, calling `observe` with each request, its answer's status and when it began
 * and was answered (epoch ms, sub-millisecond) once its answer is sent. Keep-alive connections live 60 s.
 * @returns the server's URL and its `close()` (closing every connection)
 * @throws the listen error
 */
export async function observedServer(
  app: RequestListener,
  observe: (req: IncomingMessage, status: number, at: { start: number; end: number }) => void,
): Promise<{ url: string; close: () => Promise<void> }> {
  const now = () => performance.timeOrigin + performance.now();
  const server = createServer((req, res) => {
    const start = now();
    res.once('finish', () => observe(req, res.statusCode, { start, end: now() }));
    app(req, res);
  });
  server.keepAliveTimeout = 60_000;
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', resolve);
  });
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
