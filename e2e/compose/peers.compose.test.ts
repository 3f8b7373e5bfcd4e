import { randomBytes } from 'node:crypto';
import { waitFor } from '@switchyard/service-kit/testing';
import { describe, expect, it } from 'vitest';
import { digestPost, latin1Form } from '../support/digest-form.ts';
import { gatewayUrl, managementApi, psql, stackSetting } from './stack.ts';

/**
 * The two demo peers of the compose stack, `peer-a` (behind the gateway) and `peer-b`, which register with each
 * other when they start, and a work bundle enqueued through the gateway for peer-a's client place `demo-pickup`.
 */

const credentials = { user: 'emissary', password: stackSetting('PEER_DIGEST_PASSWORD') };
/** The RabbitMQ queue of peer-a's client place `demo-pickup` (CLIENT_PLACES in docker-compose.yml). */
const PICKUP_QUEUE = 'switchyard.peer-a.demo-pickup';

/** The peers a peer's own database knows, `url|state` per line. */
async function peersKnownTo(database: 'peer_a' | 'peer_b'): Promise<string[]> {
  const { stdout, stderr, code } = await psql(database, 'select url, state from peer.peer order by url');
  expect(code, stderr).toBe(0);
  return stdout.trim().split('\n').filter(Boolean);
}

describe('the peers of the compose stack', () => {
  it('peer-a and peer-b see each other up', async () => {
    const [ofA, ofB] = await waitFor(
      async () => {
        const seen = [await peersKnownTo('peer_a'), await peersKnownTo('peer_b')];
        return seen[0]?.includes('http://peer-b:8084/DirectoryPlace|up') && seen[1]?.includes('http://peer-a:8084/DirectoryPlace|up')
          ? seen
          : undefined;
      },
      60_000,
      500,
    );
    expect(ofA).toEqual(['http://peer-b:8084/DirectoryPlace|up']);
    expect(ofB).toEqual(['http://peer-a:8084/DirectoryPlace|up']);
  });

  it("delivers a Digest-authenticated work bundle, sent through the gateway, to its client place's queue", async () => {
    const bundle = {
      bundleId: `compose-${randomBytes(8).toString('hex')}`,
      outputRoot: 'data/sortie/été',
      caseId: 'Müller & Søn',
      priority: 5,
      workUnits: [{ fileName: 'dossier/façade.txt', transactionId: 'tx-1', failedToParse: false, failedToProcess: false }],
    };
    const res = await digestPost(
      gatewayUrl,
      '/WorkSpaceClientEnqueue.action',
      latin1Form({ pickUpClientName: 'demo-pickup', tpObj: JSON.stringify(bundle) }),
      credentials,
    );
    expect(res).toMatchObject({ status: 200, body: 'Successful add to the PickUpPlaceClient queue' });

    // Read back from the broker with the management API (the queue may hold bundles of earlier runs: find ours).
    const found = await waitFor(async () => {
      const got = await managementApi('POST', `/queues/%2F/${encodeURIComponent(PICKUP_QUEUE)}/get`, {
        count: 1_000,
        ackmode: 'ack_requeue_true',
        encoding: 'auto',
      });
      expect(got.status).toBe(200);
      const messages = got.body as Array<{ payload: string; properties: { content_type?: string; delivery_mode?: number } }>;
      return messages.find((message) => message.payload.includes(bundle.bundleId));
    }, 10_000);
    expect(found.properties).toMatchObject({ content_type: 'application/json', delivery_mode: 2 });
    expect(JSON.parse(found.payload)).toMatchObject(bundle);
  });

  it('refuses a work bundle without credentials, and with a wrong password', async () => {
    const form = latin1Form({ pickUpClientName: 'demo-pickup', tpObj: JSON.stringify({ bundleId: 'x', workUnits: [] }) });
    const wrong = await digestPost(gatewayUrl, '/WorkSpaceClientEnqueue.action', form, { user: 'emissary', password: 'not-the-password' });
    expect(wrong.status).toBe(401);
  });
});
