import { authenticate, type CodeHostView, callerOf } from '@switchyard/code-host';
import { PullRequestJobsQuery, ReleaseNotificationBody, UpdateConfigId, UpdateRunsQuery } from '@switchyard/contracts';
import { methodNotAllowed, parseInput } from '@switchyard/service-kit';
import { Router } from 'express';
import type { Kysely } from 'kysely';
import { z } from 'zod';
import type { ReleaseDatabase } from '../db/schema.ts';
import { listCallerJobs } from '../jobs/job.service.ts';
import { receiveNotification, viewNotification } from '../notifications/notification.service.ts';
import { listUpdateRuns, triggerUpdateRun, viewUpdateRun } from '../update-runs/update-run.service.ts';
import { jobResource, notificationResource, updateRunResource } from './resources.mapper.ts';

const NotificationId = z.uuid({ error: 'must be a release notification id (a UUID)' });
const UpdateRunId = z.uuid({ error: 'must be an update run id (a UUID)' });

/**
 * release-svc's routes: `POST /release_notifications/private` (the dependency update API's,
 * https://github.com/dependabot/api-docs), `GET /release_notifications/:id`, `GET /pull_request_jobs`, "bump now"
 * (`POST /update_configs/:id/trigger_update_job`, the original's undocumented endpoint) and the update runs
 * (`GET /update_runs?update-config-id=`, `GET /update_runs/:id`, this service's extension). Every one
 * authenticates first, as config-svc does; the services' domain errors become the API's error envelope in the app's
 * error handler (`NotFound` a 404).
 */
export function releaseRouter(db: Kysely<ReleaseDatabase>, view: CodeHostView): Router {
  const router = Router();
  const auth = authenticate(view);

  router
    .route('/release_notifications/private')
    .post(auth, async (req, res) => {
      // Only the shape is refused here (a JSON object with three strings, trimmed); the service records a notification
      // it cannot use as `rejected`, and that is answered as any other.
      const body = parseInput(ReleaseNotificationBody, req.body === undefined ? {} : req.body, 'body');
      const row = await receiveNotification(db, callerOf(res), body);
      // The original answered 204 with no body to any well-formed notification, and its clients check for exactly that
      // (https://github.com/dependabot/api-docs/issues/18). `Prefer: return=representation` (RFC 7240) asks for the
      // notification instead: 202, it is processed later (or, `rejected`, not at all: the resource says why).
      if (/\breturn=representation\b/i.test(req.get('prefer') ?? '')) {
        res
          .status(202)
          .location(`/release_notifications/${row.id}`)
          .setHeader('preference-applied', 'return=representation')
          .json({ data: notificationResource({ notification: row, configsTotal: null, counts: {}, problems: [], pullRequests: [] }) });
        return;
      }
      res.status(204).end();
    })
    .all(methodNotAllowed(['POST']));

  router
    .route('/release_notifications/:id')
    .get(auth, async (req, res) => {
      const id = parseInput(NotificationId, req.params.id, 'path', 'id');
      res.json({ data: notificationResource(await viewNotification(db, view, callerOf(res), id)) });
    })
    .all(methodNotAllowed(['GET']));

  router
    .route('/pull_request_jobs')
    .get(auth, async (req, res) => {
      const query = parseInput(PullRequestJobsQuery, req.query, 'query');
      const page = await listCallerJobs(db, view, callerOf(res), {
        repoId: query['repo-id'],
        dependencyName: query['dependency-name'],
        notificationId: query['notification-id'],
        status: query.status,
        page: query.page,
      });
      res.json({ data: page.jobs.map((job) => jobResource(job, page.updates.get(job.id))), meta: { pages: { next: page.next } } });
    })
    .all(methodNotAllowed(['GET']));

  router
    .route('/update_configs/:id/trigger_update_job')
    .post(auth, async (req, res) => {
      const id = parseInput(UpdateConfigId, req.params.id, 'path', 'id');
      const run = updateRunResource(await triggerUpdateRun(db, view, callerOf(res), id));
      res.status(202).location(`/update_runs/${run.id}`).json({ data: run });
    })
    .all(methodNotAllowed(['POST']));

  router
    .route('/update_runs')
    .get(auth, async (req, res) => {
      const query = parseInput(UpdateRunsQuery, req.query, 'query');
      const page = await listUpdateRuns(db, view, callerOf(res), query['update-config-id'], query.page);
      res.json({ data: page.runs.map(updateRunResource), meta: { pages: { next: page.next } } });
    })
    .all(methodNotAllowed(['GET']));

  router
    .route('/update_runs/:id')
    .get(auth, async (req, res) => {
      const id = parseInput(UpdateRunId, req.params.id, 'path', 'id');
      res.json({ data: updateRunResource(await viewUpdateRun(db, view, callerOf(res), id)) });
    })
    .all(methodNotAllowed(['GET']));

  return router;
}
