import type { Listening } from '@switchyard/service-kit';
import { type GitHubEmulatorOptions, startGitHubEmulator } from '../src/index.ts';
import { createWebhookSender, type WebhookSender } from '../src/webhooks.ts';
import { silentLogger } from './fixtures.ts';
import { startWebhookReceiver, type WebhookReceiver } from './webhook-receiver.ts';

/** An emulator whose webhooks go to a local receiver (await `webhooks.settled()` before reading the receiver). */
export interface EmulatorWithWebhooks {
  server: Listening;
  receiver: WebhookReceiver;
  webhooks: WebhookSender;
  /** Closes the emulator, then the receiver. */
  close(): Promise<void>;
}

/**
 * Starts a receiver on a loopback port, a webhook sender to it (signed with `secret` when given; 10 ms between retries)
 * and an emulator of `seed` that delivers through it, silent.
 */
export async function startEmulatorWithWebhooks(
  seed: GitHubEmulatorOptions['seed'],
  options: { secret?: string } = {},
): Promise<EmulatorWithWebhooks> {
  const receiver = await startWebhookReceiver();
  const secret = options.secret === undefined ? {} : { secret: options.secret };
  const webhooks = createWebhookSender({ url: receiver.url, ...secret, retryDelayMs: 10 }, silentLogger);
  const server = await startGitHubEmulator({ seed, logger: silentLogger, webhooks });
  return {
    server,
    receiver,
    webhooks,
    async close() {
      await server.close();
      await receiver.close();
    },
  };
}
