import { waitFor } from '@switchyard/service-kit/testing';
import amqplib, { type ChannelModel, type ConfirmChannel, type GetMessage } from 'amqplib';
import { consumerTopology, deadLetterExchangeOf } from '../src/amqp-topology.ts';
import type { ConsumerSpec } from '../src/bus.ts';
import { resolveConsumerSpec } from '../src/consumer-spec.ts';

/** A plain amqplib connection of the test itself: raw publishes, reading queues, cleaning up. */
export interface BrokerProbe {
  channel: ConfirmChannel;
  /** Publishes raw bytes to an exchange and waits for the broker's confirm. */
  publishRaw(exchange: string, routingKey: string, content: Buffer): Promise<void>;
  /** Polls `queue` until a message is there and returns it (acked). */
  take(queue: string, timeoutMs?: number): Promise<GetMessage>;
  /** Number of ready messages in `queue`. */
  count(queue: string): Promise<number>;
  /** Deletes the exchange, its DLX and every queue of these consumer specs, then closes. */
  cleanUp(exchange: string, specs: readonly ConsumerSpec[], extraQueues?: readonly string[]): Promise<void>;
}

/** Opens a {@link BrokerProbe} on `url`. */
export async function openBrokerProbe(url: string): Promise<BrokerProbe> {
  const model: ChannelModel = await amqplib.connect(url);
  model.on('error', () => {});
  const channel = await model.createConfirmChannel();
  channel.on('error', () => {});
  return {
    channel,
    publishRaw: (exchange, routingKey, content) =>
      new Promise((resolve, reject) => {
        channel.publish(exchange, routingKey, content, { persistent: true }, (error: unknown) => (error ? reject(error) : resolve()));
      }),
    take: (queue, timeoutMs = 10_000) =>
      waitFor(async () => {
        const message = await channel.get(queue, { noAck: false });
        if (message) channel.ack(message);
        return message;
      }, timeoutMs),
    count: async (queue) => (await channel.checkQueue(queue)).messageCount,
    async cleanUp(exchange, specs, extraQueues = []) {
      for (const spec of specs) {
        const topology = consumerTopology(exchange, resolveConsumerSpec(spec));
        for (const queue of [topology.queue, topology.parking, ...topology.retryQueues.map((r) => r.name)]) {
          await channel.deleteQueue(queue);
        }
      }
      for (const queue of extraQueues) await channel.deleteQueue(queue);
      await channel.deleteExchange(exchange);
      await channel.deleteExchange(deadLetterExchangeOf(exchange));
      await model.close();
    },
  };
}
