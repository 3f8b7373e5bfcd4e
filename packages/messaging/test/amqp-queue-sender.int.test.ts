import type { Duplex } from 'node:stream';
import { waitFor } from '@switchyard/service-kit/testing';
import amqplib, { type ChannelModel, type ConfirmChannel, type GetMessage } from 'amqplib';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { type AmqpQueueSender, type AmqpQueueSenderOptions, createAmqpQueueSender } from '../src/amqp-queue-sender.ts';
import { BrokerUnavailableError, BusClosedError, PublishError } from '../src/errors.ts';
import { testLogger, uniqueSuffix } from './support.ts';

const amqpUrl = inject('amqpUrl');
const prefix = `test.queue-sender.${uniqueSuffix()}`;
const queues: string[] = [];
let probeModel: ChannelModel;
let probe: ConfirmChannel;

/** A queue name of this file, deleted at the end. */
function queueName(name: string): string {
  const queue = `${prefix}.${name}`;
  queues.push(queue);
  return queue;
}

/** Polls `queue` until a message is there and returns it (acked). */
const take = (queue: string) =>
  waitFor(async () => {
    const message = await probe.get(queue, { noAck: true });
    return message === false ? undefined : message;
  }, 5_000);

/** A sender whose every connection the test can reach (to cut it) and whose reconnects it can make fail. */
async function openSender(options: Partial<AmqpQueueSenderOptions> = {}) {
  const connections: ChannelModel[] = [];
  let refuse = false;
  let refusals = 0;
  const sender: AmqpQueueSender = await createAmqpQueueSender({
    url: amqpUrl,
    logger: testLogger,
    reconnect: { initialDelayMs: 50, maxDelayMs: 200 },
    publishTimeoutMs: 5_000,
    connectionName: `${prefix}.sender`,
    async connect(url, socketOptions) {
      if (refuse) {
        refusals += 1;
        throw new Error('refused by the test');
      }
      const model = await amqplib.connect(url, socketOptions);
      connections.push(model);
      return model;
    },
    ...options,
  });
  return {
    sender,
    connections,
    refuseConnections(value: boolean) {
      refuse = value;
    },
    refused: () => refusals,
    /** Destroys the socket of the sender's newest connection, as a network failure would. */
    cutConnection() {
      const newest = connections.at(-1);
      if (!newest) throw new Error('the sender has no connection yet');
      (newest.connection as unknown as { stream: Duplex }).stream.destroy(new Error('connection cut by the test'));
    },
  };
}

beforeAll(async () => {
  probeModel = await amqplib.connect(amqpUrl);
  probeModel.on('error', () => {});
  probe = await probeModel.createConfirmChannel();
  probe.on('error', () => {});
});

afterAll(async () => {
  for (const queue of queues) await probe?.deleteQueue(queue).catch(() => {});
  await probeModel?.close();
});

describe('AMQP queue sender on RabbitMQ', () => {
  it('declares each queue durable and delivers persistent messages to it with their properties, once confirmed', async () => {
    const { sender } = await openSender();
    try {
      const first = queueName('first');
      const second = queueName('second');
      await sender.send(first, Buffer.from('{"n":1}'), { contentType: 'application/json', messageId: 'm-1' });
      await sender.send(first, Buffer.from('{"n":2}'), { contentType: 'application/json' });
      await sender.send(second, Buffer.from('caf\u00e9', 'utf8'));
      // Declared durable: a passive check with these arguments would have failed otherwise.
      await expect(probe.assertQueue(first, { durable: true })).resolves.toMatchObject({ queue: first, messageCount: 2 });
      const one: GetMessage = await take(first);
      expect(one.content.toString()).toBe('{"n":1}');
      expect(one.properties).toMatchObject({ deliveryMode: 2, contentType: 'application/json', messageId: 'm-1' });
      expect(one.fields.exchange).toBe('');
      expect((await take(first)).content.toString()).toBe('{"n":2}');
      expect((await take(second)).content.toString('utf8')).toBe('caf\u00e9');
      expect(sender.isConnected()).toBe(true);
    } finally {
      await sender.close();
    }
  });

  it('rejects a send the broker nacks (a full queue refusing publishes), and nothing is delivered', async () => {
    const full = queueName('full');
    const { sender } = await openSender({ queueArguments: { 'x-max-length': 0, 'x-overflow': 'reject-publish' } });
    try {
      await expect(sender.send(full, Buffer.from('x'))).rejects.toBeInstanceOf(PublishError);
      // The channel survives a nack: the next send is nacked too, not failed for a closed channel.
      await expect(sender.send(full, Buffer.from('y'))).rejects.toThrow(/nack|reject/i);
      expect(sender.isConnected()).toBe(true);
      expect((await probe.checkQueue(full)).messageCount).toBe(0);
    } finally {
      await sender.close();
    }
  });

  it('rejects a send to a queue that exists with other arguments, and keeps sending on a new channel', async () => {
    const quorum = queueName('quorum');
    await probe.assertQueue(quorum, { durable: true, arguments: { 'x-queue-type': 'quorum', 'x-max-length': 5 } });
    const { sender } = await openSender();
    try {
      await expect(sender.send(quorum, Buffer.from('x'))).rejects.toBeInstanceOf(PublishError);
      const plain = queueName('plain');
      await sender.send(plain, Buffer.from('y'));
      expect((await take(plain)).content.toString()).toBe('y');
    } finally {
      await sender.close();
    }
  });

  it('waits for the reconnection when a send comes during an outage, and declares its queue again', async () => {
    const { sender, connections, cutConnection, refuseConnections } = await openSender();
    try {
      const queue = queueName('outage');
      await sender.send(queue, Buffer.from('before'));
      expect((await take(queue)).content.toString()).toBe('before');

      // Hold the outage open (reconnects fail) until a send is waiting; the queue disappears meanwhile.
      refuseConnections(true);
      cutConnection();
      await waitFor(async () => !sender.isConnected(), 5_000, 5);
      await probe.deleteQueue(queue);
      const sending = sender.send(queue, Buffer.from('during'));
      refuseConnections(false);
      await sending;
      expect(connections.length).toBe(2);
      expect((await take(queue)).content.toString()).toBe('during');

      // Once more without holding it: the restored channel survives a second cut.
      cutConnection();
      await waitFor(async () => connections.length === 3 && sender.isConnected());
      await sender.send(queue, Buffer.from('again'));
      expect((await take(queue)).content.toString()).toBe('again');
    } finally {
      await sender.close();
    }
  });

  it('rejects a send when no reconnection comes within the publish timeout, and recovers when the broker is back', async () => {
    const { sender, cutConnection, refuseConnections, refused } = await openSender({ publishTimeoutMs: 300 });
    try {
      const queue = queueName('timeout');
      refuseConnections(true);
      cutConnection();
      await waitFor(async () => !sender.isConnected(), 5_000, 5);
      const started = Date.now();
      await expect(sender.send(queue, Buffer.from('lost'))).rejects.toBeInstanceOf(BrokerUnavailableError);
      expect(Date.now() - started).toBeGreaterThanOrEqual(250);
      expect(refused()).toBeGreaterThanOrEqual(1);
      refuseConnections(false);
      await waitFor(async () => sender.isConnected());
      await sender.send(queue, Buffer.from('sent'));
      expect((await take(queue)).content.toString()).toBe('sent');
    } finally {
      await sender.close();
    }
  });

  it('fails fast when the broker cannot be reached at start, and refuses to send once closed', async () => {
    await expect(createAmqpQueueSender({ url: 'amqp://guest:guest@127.0.0.1:1', logger: testLogger })).rejects.toThrow();
    const { sender } = await openSender();
    await sender.close();
    await sender.close();
    expect(sender.isConnected()).toBe(false);
    await expect(sender.send(queueName('closed'), Buffer.from('x'))).rejects.toBeInstanceOf(BusClosedError);
    await expect(sender.send('', Buffer.from('x'))).rejects.toBeInstanceOf(BusClosedError);
  });

  it('refuses an empty queue name (the broker would make up a queue of its own)', async () => {
    const { sender } = await openSender();
    try {
      await expect(sender.send('', Buffer.from('x'))).rejects.toBeInstanceOf(TypeError);
    } finally {
      await sender.close();
    }
  });
});
