import { createHmac } from 'node:crypto';
import fc from 'fast-check';
import { anyJson, awkwardText, body, headers, headerValue, methodOf, mutated, queryString, withQuery } from './arbitraries.ts';
import type { FuzzRequest } from './raw-request.ts';

/*
 * GitHub webhook deliveries to release-svc's `POST /webhooks/github`
 * (https://docs.github.com/webhooks/webhook-events-and-payloads): the events it acts on (`pull_request`, `push`,
 * `status`, `check_run`, `check_suite`) and some it records as ignored, with their payloads' fields mutated now and
 * then, mostly signed as GitHub signs them (`X-Hub-Signature-256: sha256=<HMAC-SHA256 of the body's bytes>`), else
 * unsigned, signed with another secret or with a broken signature.
 */

/** The events release-svc reads, and some it does not. */
const EVENTS = ['pull_request', 'push', 'status', 'check_run', 'check_suite', 'ping', 'issue_comment', 'installation'] as const;

/** GitHub's documented example delivery id: sent again and again, so the later ones are duplicates. */
const REPEATED_DELIVERY = '72d3162e-cc78-11e3-81ab-4c9367dc0958';

/** Repos of the demo seed (the fuzz stack's configs are on 3101 and 3401) and one that does not exist. */
const repoId = mutated(fc.constantFrom(3101, 3401, 3001, 3102, 9999));

/** A login, mostly a demo user's. */
const login = mutated(fc.oneof(fc.constantFrom('alice', 'bob', 'switchyard-bot', 'dependabot[bot]'), awkwardText(15)));

/** A commit SHA: forty hex digits mostly, else short, upper-case or empty. */
const sha = mutated(
  fc.oneof(
    { weight: 4, arbitrary: fc.string({ unit: fc.constantFrom(...'0123456789abcdef'), minLength: 40, maxLength: 40 }) },
    { weight: 1, arbitrary: fc.constantFrom('abc123', 'A'.repeat(40), '', 'g'.repeat(40)) },
  ),
);

/** A ref as a push names it (`refs/heads/<branch>`), or a tag, a bare branch name or awkward text. */
const ref = mutated(
  fc.oneof(
    {
      weight: 4,
      arbitrary: fc.constantFrom('refs/heads/main', 'refs/heads/release/1.x', 'refs/heads/dependabot/npm_and_yarn/lodash-4.17.21'),
    },
    { weight: 1, arbitrary: fc.constantFrom('refs/tags/v1.0.0', 'refs/heads/', 'main', '') },
    { weight: 1, arbitrary: awkwardText(30).map((text) => `refs/heads/${text}`) },
  ),
);

/**
 * When the event happened, as `now` (accepted), minutes ago (accepted), days ago (stale: refused), in the future, or
 * not a time; turned into a time when the request is generated, so a replayed seed is as fresh as the first run.
 */
const when = fc.constantFrom('now', 'minutes-ago', 'days-ago', 'future', 'garbage');

const offsetMs = { now: 0, 'minutes-ago': -5 * 60_000, 'days-ago': -3 * 86_400_000, future: 86_400_000 } as const;

/** `pull_request.updated_at`: an ISO 8601 time, or not one. */
const isoTime = mutated(
  when.map((at) => (at === 'garbage' ? 'yesterday' : new Date(Date.now() + offsetMs[at as keyof typeof offsetMs]).toISOString())),
);

/** `repository.pushed_at` of a push: Unix seconds, or not a number. */
const unixSeconds = mutated(
  when.map((at) => (at === 'garbage' ? 'now' : Math.floor((Date.now() + offsetMs[at as keyof typeof offsetMs]) / 1_000))),
);

const repository = (pushedAt: boolean) =>
  mutated(
    fc.record(
      {
        id: repoId,
        full_name: fc.constantFrom('acme/web-storefront', 'bob/bob-scripts', 'alice/dotfiles'),
        ...(pushedAt ? { pushed_at: unixSeconds } : {}),
      },
      { requiredKeys: ['id'] },
    ),
  );

const sender = mutated(fc.record({ login }));

const pullRequestNumber = mutated(
  fc.oneof(
    { weight: 4, arbitrary: fc.integer({ min: 1, max: 60 }) },
    { weight: 1, arbitrary: fc.constantFrom(0, -1, 1.5, 2_147_483_648, 2 ** 53 + 1, 1e308) },
  ),
);

/** Each event's payload: the fields release-svc reads, each mutated now and then, some left out. */
const PAYLOADS: Record<(typeof EVENTS)[number], fc.Arbitrary<unknown>> = {
  pull_request: fc.record(
    {
      action: mutated(fc.constantFrom('closed', 'reopened', 'opened', 'synchronize', 'edited', '')),
      number: pullRequestNumber,
      pull_request: mutated(
        fc.record(
          {
            number: pullRequestNumber,
            merged: mutated(fc.boolean()),
            merged_by: mutated(fc.option(fc.record({ login }))),
            user: mutated(fc.record({ login })),
            node_id: mutated(fc.oneof(fc.constantFrom('PR_kwDOfuzz1', 'PR_kwDOfuzz2', ''), awkwardText(20))),
            head: mutated(fc.record({ ref: mutated(fc.constantFrom('dependabot/npm_and_yarn/lodash-4.17.21', 'main', '')) })),
            updated_at: isoTime,
          },
          { requiredKeys: ['merged', 'updated_at'] },
        ),
      ),
      repository: repository(false),
      sender,
    },
    { requiredKeys: ['action', 'number', 'pull_request', 'repository'] },
  ),
  push: fc.record(
    { ref, deleted: mutated(fc.boolean()), after: sha, repository: repository(true), sender },
    { requiredKeys: ['ref', 'repository'] },
  ),
  status: fc.record(
    { sha, state: mutated(fc.constantFrom('success', 'failure', 'pending', 'error')), repository: repository(false), sender },
    { requiredKeys: ['sha'] },
  ),
  check_run: fc.record(
    {
      action: mutated(fc.constantFrom('completed', 'created', 'rerequested')),
      check_run: mutated(fc.record({ head_sha: sha, conclusion: mutated(fc.constantFrom('success', 'failure', 'neutral')) })),
      repository: repository(false),
    },
    { requiredKeys: ['action', 'check_run'] },
  ),
  check_suite: fc.record(
    {
      action: mutated(fc.constantFrom('completed', 'requested')),
      check_suite: mutated(fc.record({ head_sha: sha, conclusion: mutated(fc.constantFrom('success', 'failure')) })),
      repository: repository(false),
    },
    { requiredKeys: ['action', 'check_suite'] },
  ),
  ping: fc.record({ zen: fc.constant('Keep it logically awesome.'), hook_id: mutated(fc.integer({ min: 1, max: 1_000 })) }),
  issue_comment: fc.record({
    action: mutated(fc.constantFrom('created', 'edited')),
    comment: mutated(fc.record({ body: mutated(fc.constantFrom('@dependabot rebase', '@dependabot ignore this major version')) })),
    repository: repository(false),
  }),
  installation: fc.record({ action: mutated(fc.constantFrom('created', 'deleted')), installation: anyJson }),
};

/** An event and its body: mostly its payload as JSON, else any body (none, any JSON, not JSON, deeply nested, over 1 MiB). */
const eventAndBody = fc.oneof(
  {
    weight: 16,
    arbitrary: fc.oneof(
      ...EVENTS.map((event) =>
        PAYLOADS[event].map((payload) => ({ event: event as string, sent: JSON.stringify(payload) as string | Buffer | undefined })),
      ),
    ),
  },
  { weight: 5, arbitrary: fc.tuple(fc.constantFrom<string>(...EVENTS), body(anyJson)).map(([event, sent]) => ({ event, sent })) },
);

/** `X-GitHub-Event`: mostly the payload's own event (`own`), else another, none, or any header value. */
const eventHeader = fc.oneof(
  { weight: 8, arbitrary: fc.constant({ own: true as const }) },
  { weight: 1, arbitrary: fc.constantFrom<string | undefined>(...EVENTS, undefined, '').map((value) => ({ own: false as const, value })) },
  { weight: 1, arbitrary: headerValue(30).map((value) => ({ own: false as const, value })) },
);

/** `X-GitHub-Delivery`: mostly a fresh UUID, else a repeated one (a redelivery), none, empty, too long or any value. */
const deliveryHeader = fc.oneof(
  { weight: 6, arbitrary: fc.uuid() },
  { weight: 2, arbitrary: fc.constant(REPEATED_DELIVERY) },
  { weight: 1, arbitrary: fc.constantFrom<string | undefined>(undefined, '', 'd'.repeat(201)) },
  { weight: 1, arbitrary: headerValue(40) },
);

/** The HMAC-SHA256 of `sent`'s bytes under `secret`, as GitHub writes it in `X-Hub-Signature-256`. */
const signatureOf = (secret: string, sent: string | Buffer | undefined) =>
  `sha256=${createHmac('sha256', secret)
    .update(sent ?? '')
    .digest('hex')}`;

/** How a delivery is signed: as GitHub does (mostly), not at all, with another secret, upper-cased, or with garbage. */
const signing = fc.oneof(
  { weight: 8, arbitrary: fc.constant('valid' as const) },
  { weight: 1, arbitrary: fc.constantFrom('none' as const, 'other-secret' as const, 'upper-case' as const) },
  {
    weight: 1,
    arbitrary: fc.oneof(
      fc.constantFrom('sha256=', `sha256=${'0'.repeat(64)}`, 'sha1=0beec7b5ea3f0fdbc95d0dd47f3c5bc275da8a33', 'sha256', ''),
      headerValue(80),
    ),
  },
);

/**
 * Requests of `POST /webhooks/github`: a GitHub event's payload with mutated fields (or any other body), its
 * `X-GitHub-Event` and `X-GitHub-Delivery` (fresh, repeated, missing or garbage), and an `X-Hub-Signature-256` that is
 * mostly the HMAC-SHA256 of the very bytes sent under `secret` (the fuzz stack's `WEBHOOK_SECRET`), else missing,
 * made with another secret, upper-cased or garbage; any other method now and then.
 */
export function webhookDeliveries(secret: string): fc.Arbitrary<FuzzRequest> {
  return fc
    .record({
      method: methodOf('POST'),
      target: withQuery(fc.constant('/webhooks/github'), queryString([])),
      payload: eventAndBody,
      event: eventHeader,
      id: deliveryHeader,
      signing,
      common: headers({ 'user-agent': fc.constantFrom('GitHub-Hookshot/044aadd', 'curl/8.5.0') }),
    })
    .map(({ method, target, payload: { event: own, sent }, event, id, signing: how, common }) => {
      const signature =
        how === 'valid'
          ? signatureOf(secret, sent)
          : how === 'upper-case'
            ? signatureOf(secret, sent).toUpperCase()
            : how === 'other-secret'
              ? signatureOf(`${secret}-not`, sent)
              : how === 'none'
                ? undefined
                : how;
      const eventName = event.own ? own : event.value;
      const set: Record<string, string> = { ...common };
      if (eventName !== undefined) set['x-github-event'] = eventName;
      if (id !== undefined) set['x-github-delivery'] = id;
      if (signature !== undefined) set['x-hub-signature-256'] = signature;
      return { method, target, headers: set, ...(sent === undefined ? {} : { body: sent }) };
    });
}
