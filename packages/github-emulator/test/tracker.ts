import { type EmulatorWithWebhooks, startEmulatorWithWebhooks } from './emulator-with-webhooks.ts';
import { TOKENS, trackerSeed } from './tracker-seed.ts';
import { type Api, apiAs } from './writes.ts';

/** An emulator of the tracker seed with a webhook receiver, and an {@link Api} per token of {@link TOKENS}. */
export interface TrackerWorld extends EmulatorWithWebhooks {
  as: Record<keyof typeof TOKENS, Api>;
}

/** Starts an emulator of `trackerSeed()` whose webhooks go to a local receiver (await `webhooks.settled()` before reading it). */
export async function startTracker(): Promise<TrackerWorld> {
  const world = await startEmulatorWithWebhooks(trackerSeed());
  const as = Object.fromEntries(Object.entries(TOKENS).map(([name, token]) => [name, apiAs(world.server.url, token)])) as Record<
    keyof typeof TOKENS,
    Api
  >;
  return { ...world, as };
}
