import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';

/** One webhook delivery as received: its `X-GitHub-Event`, headers and parsed JSON body. */
export interface Delivery {
  event: string;
  headers: IncomingHttpHeaders;
  // biome-ignore lint/suspicious/noExplicitAny: a payload is read field by field in the tests
  body: any;
}

/** A local HTTP receiver of webhook deliveries: its `url`, what it got (in arrival order), and `close()`. */
export interface WebhookReceiver {
  url: string;
  deliveries: Delivery[];
  /** The deliveries of `event` (and `action`, when given). */
  // biome-ignore lint/suspicious/noExplicitAny: a payload is read field by field in the tests
  of(event: string, action?: string): any[];
  close(): Promise<void>;
}

/** Starts a {@link WebhookReceiver} on a loopback port; every delivery is answered 204. */
export async function startWebhookReceiver(): Promise<WebhookReceiver> {
  const deliveries: Delivery[] = [];
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      deliveries.push({
        event: String(req.headers['x-github-event']),
        headers: req.headers,
        body: JSON.parse(Buffer.concat(chunks).toString('utf8')),
      });
      res.writeHead(204).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hooks`,
    deliveries,
    of: (event, action) =>
      deliveries.filter((d) => d.event === event && (action === undefined || d.body.action === action)).map((d) => d.body),
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
