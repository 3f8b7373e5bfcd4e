import type { ConfirmChannel, Options } from 'amqplib';
import { withTimeout } from './backoff.ts';
import { PublishError } from './errors.ts';

/** One message for {@link publishConfirmed}. */
export interface OutgoingMessage {
  exchange: string;
  routingKey: string;
  content: Buffer;
  options: Options.Publish;
}

function drainOrClose(channel: ConfirmChannel): Promise<void> {
  return new Promise((resolve) => {
    const done = () => {
      channel.off('drain', done);
      channel.off('close', done);
      resolve();
    };
    channel.on('drain', done);
    channel.on('close', done);
  });
}

/**
 * Publishes messages on a confirm channel and resolves when the broker has acked every one.
 * Honours back-pressure (waits for `drain` when the channel's buffer is full).
 * @param timeoutMs bound on the whole operation, confirms included
 * @throws PublishError on a nack, on the channel closing before all confirms (amqplib fails pending
 *   confirms then), or on timeout
 */
export async function publishConfirmed(channel: ConfirmChannel, messages: readonly OutgoingMessage[], timeoutMs: number): Promise<void> {
  const confirms: Promise<void>[] = [];
  const work = (async () => {
    for (const message of messages) {
      const { promise, resolve, reject } = Promise.withResolvers<void>();
      // Handled here so a nack while we wait for `drain` is no unhandled rejection; awaited below.
      promise.catch(() => {});
      confirms.push(promise);
      const flowing = channel.publish(message.exchange, message.routingKey, message.content, message.options, (error: unknown) =>
        error ? reject(error) : resolve(),
      );
      if (!flowing) await drainOrClose(channel);
    }
    await Promise.all(confirms);
  })();
  try {
    await withTimeout(
      work,
      timeoutMs,
      () => new PublishError(`the broker did not confirm ${messages.length} message(s) within ${timeoutMs} ms`),
    );
  } catch (error) {
    if (error instanceof PublishError) throw error;
    throw new PublishError(`publishing failed: ${error instanceof Error ? error.message : String(error)}`, { cause: error });
  } finally {
    work.catch(() => {});
  }
}
