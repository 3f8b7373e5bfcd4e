import type { Listening } from '@switchyard/service-kit';
import { startGitHubEmulator } from '../src/index.ts';
import { createWebhookSender, type WebhookSender } from '../src/webhooks.ts';
import { silentLogger } from './fixtures.ts';
import { TOKENS, trackerSeed } from './tracker-seed.ts';
import { startWebhookReceiver, type WebhookReceiver } from './webhook-receiver.ts';
import { type Api, apiAs } from './writes.ts';

/** An emulator of the tracker seed with a webhook receiver, and an {@link Api} per token of {@link TOKENS}. */
export interface TrackerWorld {
  server: Listening;
  receiver: WebhookReceiver;
  webhooks: WebhookSender;
  as: Record<keyof typeof TOKENS, Api>;
  close(): Promise<void>;
}

/** Starts an emulator of `trackerSeed()` whose webhooks go to a local receiver (await `webhooks.settled()` before reading it). */
export async function startTracker(): Promise<TrackerWorld> {
  const receiver = await startWebhookReceiver();
  const webhooks = createWebhookSender({ url: receiver.url, retryDelayMs: 10 }, silentLogger);
  const server = await startGitHubEmulator({ seed: trackerSeed(), logger: silentLogger, webhooks });
  const as = Object.fromEntries(Object.entries(TOKENS).map(([name, token]) => [name, apiAs(server.url, token)])) as Record<
    keyof typeof TOKENS,
    Api
  >;
  return {
    server,
    receiver,
    webhooks,
    as,
    async close() {
      await server.close();
      await receiver.close();
    },
  };
}
