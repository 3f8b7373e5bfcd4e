import { authenticate, type CodeHostView, callerOf } from '@switchyard/code-host';
import { PullRequestJobsQuery, ReleaseNotificationBody } from '@switchyard/contracts';
import { methodNotAllowed, parseInput } from '@switchyard/service-kit';
import { Router } from 'express';
import type { Kysely } from 'kysely';
import { z } from 'zod';
import type { ReleaseDatabase } from '../db/schema.ts';
import { listCallerJobs } from '../jobs/job.service.ts';
import { notificationResource, receiveNotification, viewNotification } from '../notifications/notification.service.ts';

const NotificationId = z.uuid({ error: 'must be a release notification id (a UUID)' });

/**
 * release-svc's routes: `POST /release_notifications/private` (seeds/000), `GET /release_notifications/:id`
 * and `GET /pull_request_jobs`. Every one authenticates first, as config-svc does.
 */
export function releaseRouter(db: Kysely<ReleaseDatabase>, view: CodeHostView): Router {
  const router = Router();
  const auth = authenticate(view);

  router
    .route('/release_notifications/private')
    .post(auth, async (req, res) => {
      const body = parseInput(ReleaseNotificationBody, req.body === undefined ? {} : req.body, 'body');
      const row = await receiveNotification(db, callerOf(res), body);
      // The original answered 204 with no body, and its clients check for exactly that (reference/dependabot.md 1.3).
      // `Prefer: return=representation` (RFC 7240) asks for the notification instead: 202, it is processed later.
      if (/\breturn=representation\b/i.test(req.get('prefer') ?? '')) {
        res
          .status(202)
          .location(`/release_notifications/${row.id}`)
          .setHeader('preference-applied', 'return=representation')
          .json({ data: notificationResource(row, {}, []) });
        return;
      }
      res.status(204).end();
    })
    .all(methodNotAllowed(['POST']));

  router
    .route('/release_notifications/:id')
    .get(auth, async (req, res) => {
      const id = parseInput(NotificationId, req.params.id, 'path', 'id');
      res.json({ data: await viewNotification(db, callerOf(res), id) });
    })
    .all(methodNotAllowed(['GET']));

  router
    .route('/pull_request_jobs')
    .get(auth, async (req, res) => {
      const query = parseInput(PullRequestJobsQuery, req.query, 'query');
      const page = await listCallerJobs(db, callerOf(res), query);
      res.json({ data: page.data, meta: { pages: { next: page.next } } });
    })
    .all(methodNotAllowed(['GET']));

  return router;
}
