import {
  PullRequestJobResource,
  ReleaseNotificationResource,
  UpdateConfigDocument,
  type UpdateConfigResource,
  UpdateRunDocument,
  type UpdateRunResource,
} from '@switchyard/contracts';
import { waitFor } from '@switchyard/service-kit/testing';
import { expect } from 'vitest';
import { JSON_UTF8, type SendOptions, sendOnTheWire, type WireResponse } from './wire.ts';

/** A release notification's attributes as `GET /release_notifications/:id` answers them. */
export type Notification = ReleaseNotificationResource['attributes'];

/** How long {@link releaseApi}'s polls may take, in milliseconds. */
export interface ReleaseApiTimeouts {
  /** Until one notification is done, failed or rejected (default 20,000). */
  finishedWithinMs?: number;
}

/** The dependency update API's update configs, release notifications and pull-request jobs, driven on the wire. */
export interface ReleaseApi {
  /** Sends one request with node:http, exactly as given (the default token unless `options.token` says otherwise). */
  send(method: string, path: string, options?: SendOptions): Promise<WireResponse>;
  /** Creates an update config (fails the test unless 201, with `hint` after the body in the message) and returns it. */
  createConfig(body: Record<string, unknown>, token?: string, hint?: string): Promise<UpdateConfigResource>;
  /** Notifies a release asking for the representation (fails the test unless 202), and returns the notification's id. */
  notify(body: unknown, token?: string): Promise<string>;
  /** Polls `GET /release_notifications/:id` until the notification is no longer queued or scanning. */
  finished(id: string, token?: string): Promise<Notification>;
  /**
   * Notifies `body` once and waits until it is finished. No retry: a notification accepted after a config's creation
   * (or change) was answered scans that config as it is then, however late config-svc's events reach release-svc.
   */
  notifyAndFinish(body: unknown, token?: string): Promise<{ id: string; done: Notification }>;
  /** `GET /pull_request_jobs?<query>`: the one page's jobs, parsed (fails the test unless 200 JSON with no next page). */
  jobs(query: string, token?: string): Promise<PullRequestJobResource[]>;
  /**
   * "Bump now" (`POST /update_configs/:id/trigger_update_job`), asked again while release-svc does not know the config
   * yet (404: config-svc's events are on their way), for up to 30 s; fails the test unless 202. Returns the queued run.
   */
  bumpNow(configId: string, token?: string): Promise<UpdateRunResource>;
  /** Polls `GET /update_runs/:id` until the run is `done` or `failed` (for up to `timeoutMs`, default 60 s). */
  finishedRun(runId: string, timeoutMs?: number, token?: string): Promise<UpdateRunResource>;
}

/**
 * A client of the dependency update API at `baseUrl()` (a gateway; read at each request, so a suite may create the
 * client before its server has a port), sending `defaultToken` as `Authorization: Personal`
 * unless a call names another token. Every check it makes is a test assertion.
 */
export function releaseApi(baseUrl: () => string, defaultToken: string, timeouts: ReleaseApiTimeouts = {}): ReleaseApi {
  const { finishedWithinMs = 20_000 } = timeouts;
  const send = (method: string, path: string, options: SendOptions = {}) => sendOnTheWire(baseUrl(), defaultToken, method, path, options);

  const notify = async (body: unknown, token = defaultToken) => {
    const res = await send('POST', '/release_notifications/private', { json: body, token, headers: { prefer: 'return=representation' } });
    expect(res.status, res.text).toBe(202);
    return ReleaseNotificationResource.parse(res.body.data).id;
  };

  const finished = (id: string, token = defaultToken) =>
    waitFor(
      async () => {
        const res = await send('GET', `/release_notifications/${id}`, { token });
        expect(res.status, res.text).toBe(200);
        const attributes = ReleaseNotificationResource.parse(res.body.data).attributes;
        return ['done', 'failed', 'rejected'].includes(attributes.status) ? attributes : undefined;
      },
      finishedWithinMs,
      50,
    );

  return {
    send,
    notify,
    finished,
    async createConfig(body, token = defaultToken, hint = '') {
      const res = await send('POST', '/update_configs', { json: body, token });
      expect(res.status, `${res.text}${hint}`).toBe(201);
      return UpdateConfigDocument.parse(res.body).data;
    },
    async notifyAndFinish(body, token = defaultToken) {
      const id = await notify(body, token);
      return { id, done: await finished(id, token) };
    },
    bumpNow: (configId, token = defaultToken) =>
      waitFor(async () => {
        const res = await send('POST', `/update_configs/${configId}/trigger_update_job`, { token });
        if (res.status === 404) return undefined;
        expect(res.status, res.text).toBe(202);
        return UpdateRunDocument.parse(res.body).data;
      }, 30_000),
    finishedRun: (runId, timeoutMs = 60_000, token = defaultToken) =>
      waitFor(
        async () => {
          const res = await send('GET', `/update_runs/${runId}`, { token });
          expect(res.status, res.text).toBe(200);
          const run = UpdateRunDocument.parse(res.body).data;
          return ['done', 'failed'].includes(run.attributes.status) ? run : undefined;
        },
        timeoutMs,
        250,
      ),
    async jobs(query, token = defaultToken) {
      const res = await send('GET', `/pull_request_jobs${query ? `?${query}` : ''}`, { token });
      expect(res.status, res.text).toBe(200);
      expect(res.headers['content-type']).toBe(JSON_UTF8);
      expect(res.body.meta).toEqual({ pages: { next: null } });
      return PullRequestJobResource.array().parse(res.body.data);
    },
  };
}
