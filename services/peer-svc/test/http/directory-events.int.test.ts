import { randomBytes } from 'node:crypto';
import { type EventTap, tapEvents, waitFor } from '@switchyard/service-kit/testing';
import amqplib from 'amqplib';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { startTestPeer, type TestPeer } from '../start-peer.ts';

describe('directory events', () => {
  const exchange = `test.peer-events.${randomBytes(4).toString('hex')}`;
  let tap: EventTap;
  let peer: TestPeer;

  beforeAll(async () => {
    tap = await tapEvents(inject('amqpUrl'), exchange, { bindings: ['directory.#'] });
    peer = await startTestPeer('peer_events', { EVENTS_EXCHANGE: exchange });
  });
  afterAll(async () => {
    await peer?.stop();
    await tap?.close();
    const connection = await amqplib.connect(inject('amqpUrl'));
    const channel = await connection.createChannel();
    await channel.deleteExchange(exchange).catch(() => {});
    await connection.close();
  });

  it('publishes a peer change with its full state, its removal and a child directory, each with the change', async () => {
    const key = 'EMISSARY_DIRECTORY_SERVICES.DIRECTORY.STUDY.http://127.0.0.1:9/DirectoryPlace';
    await peer.store.savePeer({
      key,
      url: 'http://127.0.0.1:9/DirectoryPlace',
      origin: 'http://127.0.0.1:9',
      state: 'up',
      missed: 0,
      registered: true,
    });
    await peer.store.savePeer({ key, url: 'http://127.0.0.1:9/DirectoryPlace', origin: 'http://127.0.0.1:9', state: 'up', missed: 0 });
    await peer.store.savePeer({
      key,
      url: 'http://127.0.0.1:9/DirectoryPlace',
      origin: 'http://127.0.0.1:9',
      state: 'unhealthy',
      missed: 3,
    });
    await peer.store.addChildDirectory({ key: `${key}.child`, parent: key, url: 'http://127.0.0.1:9/DirectoryPlace' });
    await peer.store.deletePeer(key);
    const received = await waitFor(async () => (tap.events.length >= 5 ? tap.events : undefined), 15_000);
    expect(received.map((e) => e.type)).toEqual([
      // The local directory entries, loaded at start.
      'directory.entries_changed',
      'directory.peer_changed',
      'directory.peer_changed',
      'directory.child_directory_added',
      'directory.peer_removed',
    ]);
    expect(received[2]?.data).toMatchObject({ key, state: 'unhealthy', missed: 3 });
    expect(received.every((e) => e.source === 'peer-svc')).toBe(true);
  });
});
