import { request } from '@switchyard/service-kit/testing';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ALICE, BIGCO, type ConfigHarness, startConfigHarness } from './harness.ts';

/**
 * Property: whatever a client sends, config-svc answers below 500 (a code-host outage aside, which the
 * emulator never has here) and every 4xx is the API's error envelope.
 */
describe('config-svc under arbitrary input', () => {
  let h: ConfigHarness;
  beforeAll(async () => {
    // The failed-authentication limit is off: the fuzzer sends many bad headers from one address on purpose.
    h = await startConfigHarness('config_fuzz', { env: { AUTH_FAILURE_LIMIT: '0' } });
  });
  afterAll(() => h?.close());

  const awkward = fc.constantFrom('\u0000', '\ud800', '\n', '"', '\\', '%', '..', '/', ' ', 'minor', 'org', '2001', '3101');
  const text = fc.string({ unit: fc.oneof(awkward, fc.string({ unit: 'binary', minLength: 1, maxLength: 1 })), maxLength: 30 });
  const anyValue = fc.oneof(fc.jsonValue(), text, fc.integer(), fc.double(), fc.boolean(), fc.constant(null));
  const plausible = fc.record(
    {
      'repo-id': fc.oneof(fc.constantFrom(3101, '3102', BIGCO.firstRepoId + 3, 3203, 3301, 0, -1), anyValue),
      'account-id': fc.oneof(fc.constantFrom(2001, '2002', BIGCO.id, 1001, 2003), anyValue),
      'account-type': fc.oneof(fc.constantFrom('org', 'user'), anyValue),
      directory: fc.oneof(fc.constantFrom('/', 'a/b/', '/../x'), text, anyValue),
      'update-schedule': fc.oneof(fc.constantFrom('live', 'daily', 'weekly', 'monthly'), anyValue),
      'package-manager': fc.oneof(fc.constantFrom('npm_and_yarn', 'pip', 'bundler', 'docker'), anyValue),
      'target-branch': fc.oneof(fc.constant(null), fc.constantFrom('main', 'release/1.x'), text, anyValue),
      'lockfile-only': fc.oneof(fc.boolean(), anyValue),
      'automerge-rule-runtime-deps': fc.oneof(fc.constantFrom('never', 'minor', 'in_range', 'all'), anyValue),
    },
    { requiredKeys: [] },
  );
  const body = fc.oneof(fc.jsonValue(), plausible);

  async function expectNoServerError(method: string, path: string, options: Parameters<typeof request>[3]) {
    const res = await request(h.url, method, path, options);
    expect(res.status, `${method} ${path} ${JSON.stringify(options)} -> ${res.text}`).toBeLessThan(500);
    if (res.status >= 400) {
      expect(res.headers.get('content-type')).toBe('application/json; charset=utf-8');
      expect(res.body.errors[0].status).toBe(res.status);
    }
    return res.status;
  }

  it('never answers 5xx to arbitrary create and patch bodies', async () => {
    const auth = { authorization: `Personal ${ALICE}`, 'content-type': 'application/json' };
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom('POST /update_configs', 'PATCH /update_configs/1', 'PATCH /update_configs/2'),
        body,
        async (route, value) => {
          const [method = 'POST', path = '/update_configs'] = route.split(' ');
          await expectNoServerError(method, path, { body: JSON.stringify(value), headers: auth });
        },
      ),
      { numRuns: 250 },
    );
  });

  it('never answers 5xx to arbitrary queries, ids and Authorization headers', async () => {
    const part = fc
      .string({
        unit: fc.oneof(
          awkward.filter((c) => c !== '\ud800'),
          fc.string({ unit: 'binary', minLength: 1, maxLength: 1 }),
        ),
        maxLength: 20,
      })
      .map(encodeURIComponent);
    const header = fc.oneof(
      fc.constantFrom(`Personal ${ALICE}`, `Bearer ${ALICE}`, 'Personal', 'Basic x', 'Personal a b', `personal ${ALICE}`),
      fc.string({ unit: 'grapheme-ascii', maxLength: 40 }),
    );
    await fc.assert(
      fc.asyncProperty(header, part, part, part, async (authorization, id, key, value) => {
        const headers = { authorization };
        await expectNoServerError('GET', `/repos?account-id=${id}&account-type=${value}&installation-state=${key}&page=${value}`, {
          headers,
        });
        await expectNoServerError('GET', `/repos?account-id=2001&account-type=org&installation-state=inactive&page=${id}`, { headers });
        await expectNoServerError('GET', `/update_configs/${id}`, { headers });
        await expectNoServerError('DELETE', `/update_configs/${id}x`, { headers });
        await expectNoServerError('GET', `/accounts?${key}=${value}`, { headers });
      }),
      { numRuns: 150 },
    );
  });
});
