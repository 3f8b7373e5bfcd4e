import { ReleaseNotificationResource } from '@switchyard/contracts';
import { request, waitFor } from '@switchyard/service-kit/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ALICE, type ReleaseHarness, startReleaseHarness } from './harness.ts';

// A notification is planned at config-svc's checkpoint: once the read model holds every config the checkpoint lists,
// and only those; without a checkpoint, after CONFIG_CHECKPOINT_TIMEOUT_MS from the read model as it is. The test
// plays config-svc: it publishes the state events and the checkpoints.

const TIMEOUT_MS = 3_000;

describe('planning a notification at its checkpoint', () => {
  let h: ReleaseHarness;
  beforeAll(async () => {
    h = await startReleaseHarness('checkpoint', { checkpointTimeoutMs: TIMEOUT_MS });
    await h.configure({ id: 71, repoId: 3101 });
  });
  afterAll(() => h?.close());

  const as = { authorization: `Personal ${ALICE}` };
  async function notify(version: string): Promise<string> {
    const res = await request(h.releaseUrl, 'POST', '/release_notifications/private', {
      headers: { ...as, prefer: 'return=representation' },
      body: { name: 'lodash', version, 'package-manager': 'npm_and_yarn' },
    });
    expect(res.status, res.text).toBe(202);
    return res.body.data.id;
  }
  const view = async (id: string) =>
    ReleaseNotificationResource.parse((await request(h.releaseUrl, 'GET', `/release_notifications/${id}`, { headers: as })).body.data)
      .attributes;
  const finished = (id: string) =>
    waitFor(async () => {
      const attributes = await view(id);
      return attributes.status === 'done' ? attributes : undefined;
    }, 20_000);
  const checkpoint = (notificationId: string, configs: Array<{ id: number; revision: number }>) =>
    h.publishAsConfigSvc([{ type: 'update_config.checkpoint', data: { notificationId, configs } }]);

  it('waits for the read model to hold every listed config, then scans exactly those', async () => {
    const id = await notify('4.17.19');
    // The checkpoint lists config 72, which the read model learns of only after the checkpoint has arrived; config 71,
    // which it holds, is not listed (deleted at config-svc before the notification, the deletion still on its way).
    await checkpoint(id, [{ id: 72, revision: 1 }]);
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect((await view(id)).status).toBe('queued');
    await h.configure({ id: 72, repoId: 3101, targetBranch: 'main' });
    const done = await finished(id);
    expect(done).toMatchObject({ 'configs-total': 1, 'repos-scanned': 1, 'jobs-recorded': 1 });
    const jobs = (await request(h.releaseUrl, 'GET', `/pull_request_jobs?notification-id=${id}`, { headers: as })).body.data;
    expect(
      jobs.map((job: { relationships: { 'update-config': { data: { id: string } } } }) => job.relationships['update-config'].data.id),
    ).toEqual(['72']);
  });

  it('plans from the read model as it is when no checkpoint comes within the timeout', async () => {
    const started = Date.now();
    const id = await notify('4.17.20');
    await new Promise((resolve) => setTimeout(resolve, TIMEOUT_MS / 2));
    expect((await view(id)).status).toBe('queued');
    const done = await finished(id);
    expect(Date.now() - started).toBeGreaterThanOrEqual(TIMEOUT_MS);
    expect(done).toMatchObject({ 'configs-total': 2, 'repos-scanned': 2, 'jobs-recorded': 2 });
  });

  it('ignores a checkpoint that comes after its notification was planned', async () => {
    const id = await notify('4.17.21');
    const done = await finished(id);
    await checkpoint(id, [{ id: 71, revision: 1 }]);
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(await view(id)).toEqual(done);
  });
});
