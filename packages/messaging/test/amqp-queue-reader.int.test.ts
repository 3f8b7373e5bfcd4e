import amqplib, { type ChannelModel, type ConfirmChannel } from 'amqplib';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { type AmqpQueueReader, createAmqpQueueReader } from '../src/amqp-queue-reader.ts';
import { BusClosedError } from '../src/errors.ts';
import { testLogger, uniqueSuffix } from './support.ts';

const amqpUrl = inject('amqpUrl');
const prefix = `test.queue-reader.${uniqueSuffix()}`;
const queues: string[] = [];
let probeModel: ChannelModel;
let probe: ConfirmChannel;
let reader: AmqpQueueReader;

/** A queue name of this file, deleted at the end. */
function queueName(name: string): string {
  const queue = `${prefix}.${name}`;
  queues.push(queue);
  return queue;
}

/** Sends `bodies` to `queue` (declared durable), persistent and confirmed. */
async function send(queue: string, bodies: string[], options: amqplib.Options.Publish = {}): Promise<void> {
  await probe.assertQueue(queue, { durable: true });
  for (const body of bodies) probe.sendToQueue(queue, Buffer.from(body), { persistent: true, ...options });
  await probe.waitForConfirms();
}

const depth = async (queue: string) => (await probe.checkQueue(queue)).messageCount;

beforeAll(async () => {
  probeModel = await amqplib.connect(amqpUrl);
  probe = await probeModel.createConfirmChannel();
  reader = await createAmqpQueueReader({ url: amqpUrl, logger: testLogger, takeTimeoutMs: 5_000, connectionName: `${prefix}.reader` });
});

afterAll(async () => {
  await reader?.close();
  for (const queue of queues) await probe.deleteQueue(queue);
  await probeModel.close();
});

describe('createAmqpQueueReader', () => {
  it('takes at most max messages, oldest first, and acknowledges them', async () => {
    const queue = queueName('order');
    await send(queue, ['m1', 'm2', 'm3', 'm4', 'm5']);
    const first = await reader.take(queue, 3);
    expect(first.map((message) => message.content.toString())).toEqual(['m1', 'm2', 'm3']);
    expect(await depth(queue)).toBe(2);
    const rest = await reader.take(queue, 10);
    expect(rest.map((message) => message.content.toString())).toEqual(['m4', 'm5']);
    expect(await depth(queue)).toBe(0);
  });

  it('declares a queue never sent to, which is empty', async () => {
    const queue = queueName('never-sent');
    expect(await reader.take(queue, 5)).toEqual([]);
    expect(await depth(queue)).toBe(0);
  });

  it('gives the content type and the timestamp (seconds) as the producer set them', async () => {
    const queue = queueName('properties');
    await send(queue, ['{}'], { contentType: 'application/json', timestamp: 1_764_000_000 });
    await send(queue, ['plain']);
    const [withProperties, without] = await reader.take(queue, 2);
    expect(withProperties).toMatchObject({ contentType: 'application/json', timestamp: new Date(1_764_000_000_000) });
    expect(without?.contentType).toBeUndefined();
    expect(without?.timestamp).toBeUndefined();
  });

  it('never hands one message to two takes at once', async () => {
    const queue = queueName('concurrent');
    const bodies = Array.from({ length: 20 }, (_, i) => `c${i}`);
    await send(queue, bodies);
    const takes = await Promise.all([reader.take(queue, 8), reader.take(queue, 8), reader.take(queue, 8)]);
    const all = takes.flat().map((message) => message.content.toString());
    expect(all.toSorted()).toEqual(bodies.toSorted());
  });

  it('fails a take whose declaration the broker refuses, leaving the messages on the queue, and takes again after', async () => {
    const queue = queueName('other-arguments');
    await probe.assertQueue(queue, { durable: true, arguments: { 'x-max-length': 100 } });
    probe.sendToQueue(queue, Buffer.from('kept'), { persistent: true });
    await probe.waitForConfirms();
    await expect(reader.take(queue, 1)).rejects.toThrow(/PRECONDITION_FAILED/);
    expect(await depth(queue)).toBe(1);
    expect(await reader.take(queueName('after-failure'), 1)).toEqual([]);
  });

  it('refuses an empty queue name and a max below 1, and every take after close()', async () => {
    await expect(reader.take('', 1)).rejects.toBeInstanceOf(TypeError);
    await expect(reader.take(`${prefix}.bad-max`, 0)).rejects.toBeInstanceOf(TypeError);
    await expect(reader.take(`${prefix}.bad-max`, 1.5)).rejects.toBeInstanceOf(TypeError);
    const closing = await createAmqpQueueReader({ url: amqpUrl, logger: testLogger });
    await closing.close();
    await expect(closing.take(`${prefix}.closed`, 1)).rejects.toBeInstanceOf(BusClosedError);
  });
});
