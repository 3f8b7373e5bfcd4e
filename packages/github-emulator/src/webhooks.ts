import { createHmac, randomUUID } from 'node:crypto';
import type { Logger } from '@switchyard/service-kit';

/**
 * The webhook events the emulator sends (https://docs.github.com/webhooks/webhook-events-and-payloads): a repository's
 * and its GitHub App's (`installation`, `installation_repositories`).
 */
export type WebhookEvent = 'push' | 'pull_request' | 'status' | 'issues' | 'issue_comment' | 'installation' | 'installation_repositories';

/** Where and how webhook deliveries go. */
export interface WebhookOptions {
  /**
   * The URL every delivery is POSTed to; without one nothing is sent. Read at each delivery: the owner of the options
   * may set it once its receiver listens, or unset it to drop deliveries for a while.
   */
  url?: string | undefined;
  /** The secret of `X-Hub-Signature-256`; without one the header is left out, as GitHub does. */
  secret?: string | undefined;
  /** Tries per delivery (default 3); the n-th retry waits n × `retryDelayMs`. */
  attempts?: number;
  /** Default 500 ms. */
  retryDelayMs?: number;
  /** How long one try may take, in ms (default 10 000, GitHub's own timeout). */
  timeoutMs?: number;
}

/** Sends webhook deliveries in the background; `send` never blocks or throws. */
export interface WebhookSender {
  /**
   * Queues a delivery of `event` with the payload `build` makes (called at once, so it sees the state of this moment,
   * and only when a URL is set); returns the `X-GitHub-Delivery` id, undefined when nothing is sent. A `build` that
   * throws is logged, never thrown.
   */
  send(event: WebhookEvent, build: () => unknown): string | undefined;
  /** Resolves once every delivery queued so far has succeeded or used up its tries (for tests and shutdown). */
  settled(): Promise<void>;
}

/** `sha256=<hex HMAC-SHA256 of body with secret>`, GitHub's `X-Hub-Signature-256` (https://docs.github.com/webhooks/using-webhooks/validating-webhook-deliveries). */
export function webhookSignature(secret: string, body: string): string {
  return `sha256=${createHmac('sha256', secret).update(body).digest('hex')}`;
}

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/**
 * A {@link WebhookSender} POSTing JSON to `options.url` as GitHub does: headers `X-GitHub-Event`, `X-GitHub-Delivery`
 * (a UUID, the same on every try), `X-Hub-Signature-256` when there is a secret, `User-Agent: GitHub-Hookshot/emulator`.
 * A try fails on a network error, a timeout or a status outside 2xx, and is retried up to `attempts` tries; a
 * delivery that never succeeds is logged at warn and dropped. Deliveries run in the background, never in the request
 * that caused them.
 */
export function createWebhookSender(options: WebhookOptions, logger: Logger): WebhookSender {
  const pending = new Set<Promise<void>>();
  const attempts = Math.max(1, options.attempts ?? 3);
  const retryDelayMs = options.retryDelayMs ?? 500;
  const timeoutMs = options.timeoutMs ?? 10_000;

  async function deliver(url: string, event: WebhookEvent, id: string, body: string): Promise<void> {
    const headers: Record<string, string> = {
      'content-type': 'application/json',
      'user-agent': 'GitHub-Hookshot/emulator',
      'x-github-event': event,
      'x-github-delivery': id,
    };
    if (options.secret) headers['x-hub-signature-256'] = webhookSignature(options.secret, body);
    for (let attempt = 1; attempt <= attempts; attempt += 1) {
      try {
        const response = await fetch(url, { method: 'POST', headers, body, signal: AbortSignal.timeout(timeoutMs) });
        await response.arrayBuffer().catch(() => undefined);
        if (response.ok) {
          logger.debug({ event, delivery: id, status: response.status, attempt }, 'webhook delivered');
          return;
        }
        logger.debug({ event, delivery: id, status: response.status, attempt }, 'webhook refused');
      } catch (error) {
        logger.debug({ event, delivery: id, attempt, err: error }, 'webhook delivery failed');
      }
      if (attempt < attempts) await sleep(attempt * retryDelayMs);
    }
    logger.warn({ event, delivery: id, attempts }, 'webhook delivery given up');
  }

  return {
    send(event, build) {
      const url = options.url;
      if (!url) return undefined;
      let body: string;
      try {
        body = JSON.stringify(build());
      } catch (error) {
        logger.error({ event, err: error }, 'webhook payload could not be built');
        return undefined;
      }
      const id = randomUUID();
      const delivery = new Promise<void>((resolve) => setImmediate(resolve)).then(() => deliver(url, event, id, body));
      pending.add(delivery);
      void delivery.finally(() => pending.delete(delivery));
      return id;
    },
    async settled() {
      while (pending.size > 0) await Promise.allSettled([...pending]);
    },
  };
}
