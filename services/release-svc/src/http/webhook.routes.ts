import { verify } from '@octokit/webhooks-methods';
import { HttpProblem, methodNotAllowed } from '@switchyard/service-kit';
import express, { Router } from 'express';
import type { Kysely } from 'kysely';
import type { ReleaseDatabase } from '../db/schema.ts';
import { applyDelivery } from '../webhooks/webhook.service.ts';
import { eventTime } from '../webhooks/webhook-delivery.policy.ts';

/** The path GitHub delivers webhooks to; its body is read raw (for the signature), not by the JSON parser. */
export const WEBHOOK_PATH = '/webhooks/github';

/** How webhook deliveries are checked. */
export interface WebhookOptions {
  /** The secret the code host signs deliveries with (`WEBHOOK_SECRET`); none: the route answers 503. */
  secret: string | undefined;
  /** Largest body accepted, bytes (413 above). */
  maxBytes: number;
  /** A delivery whose event happened longer ago than this (ms) is refused as stale; the reconciliation catches up. */
  maxAgeMs: number;
}

/**
 * `POST /webhooks/github`: GitHub's webhook deliveries (https://docs.github.com/webhooks/using-webhooks/validating-webhook-deliveries).
 * The raw body (at most `maxBytes`: 413) must carry `X-Hub-Signature-256: sha256=<HMAC-SHA256 of the body under the
 * secret>`, compared in constant time (`@octokit/webhooks-methods`): a missing or wrong signature is 401. `X-GitHub-Event`
 * and `X-GitHub-Delivery` are required (400), the body must be JSON (400), and an event older than `maxAgeMs` by its
 * payload's own time is refused as stale (400). A valid delivery is applied once by its delivery id
 * (`applyDelivery`) and answered 202 `{"outcome":"applied"|"ignored"|"duplicate"}`.
 */
export function webhookRouter(db: Kysely<ReleaseDatabase>, options: WebhookOptions): Router {
  const router = Router();
  router
    .route(WEBHOOK_PATH)
    .post(express.raw({ type: () => true, limit: options.maxBytes }), async (req, res) => {
      if (!options.secret) throw new HttpProblem(503, 'Webhooks are not configured here (WEBHOOK_SECRET is not set)');
      const body = Buffer.isBuffer(req.body) ? req.body : Buffer.alloc(0);
      const signature = req.get('x-hub-signature-256');
      if (!signature) throw new HttpProblem(401, 'The delivery is not signed: X-Hub-Signature-256 is missing');
      const text = body.toString('utf8');
      if (!(await verify(options.secret, text, signature).catch(() => false))) {
        throw new HttpProblem(401, 'The delivery signature (X-Hub-Signature-256) does not match its body');
      }
      const event = req.get('x-github-event');
      const deliveryId = req.get('x-github-delivery');
      if (!event || !deliveryId || deliveryId.length > 200) {
        throw new HttpProblem(400, 'A delivery needs the X-GitHub-Event and X-GitHub-Delivery headers');
      }
      let payload: unknown;
      try {
        payload = JSON.parse(text);
      } catch {
        throw new HttpProblem(400, 'The delivery body is not JSON');
      }
      const at = eventTime(payload);
      if (at !== undefined && Date.now() - at > options.maxAgeMs) {
        throw new HttpProblem(400, `The delivery is stale: its event is older than ${Math.round(options.maxAgeMs / 60_000)} minutes`);
      }
      res.status(202).json({ outcome: await applyDelivery(db, { event, deliveryId, payload }) });
    })
    .all(methodNotAllowed(['POST']));
  return router;
}
