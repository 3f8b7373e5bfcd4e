import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  AlreadyExists,
  CodeHostUnavailable,
  Conflict,
  classifyError,
  createServiceApp,
  type DomainError,
  Forbidden,
  HTTP_STATUSES,
  InvalidInput,
  JSON_API_ERRORS,
  type Listening,
  listen,
  NotFound,
  PreconditionFailed,
  RateLimited,
  ServiceUnavailable,
  statusOf,
  Unauthenticated,
  UpstreamFailed,
  UpstreamTimeout,
} from '../src/index.ts';
import { request } from '../src/testing/index.ts';

describe('statusOf', () => {
  it('gives each kind of domain error the status of HTTP semantics, unless the wire format overrides it', () => {
    const cases: Array<[DomainError, number]> = [
      [new InvalidInput('bad'), 400],
      [new Unauthenticated('who?'), 401],
      [new Forbidden('no'), 403],
      [new NotFound('gone'), 404],
      [new AlreadyExists('twice'), 409],
      [new Conflict('the file owns it'), 409],
      [new PreconditionFailed('stale'), 412],
      [new RateLimited('slow down', { retryAfterSeconds: 7 }), 429],
      [new CodeHostUnavailable('host down'), 502],
      [new UpstreamFailed('peer failed'), 502],
      [new ServiceUnavailable('busy'), 503],
      [new UpstreamTimeout('peer timed out'), 504],
    ];
    expect(cases.map(([error]) => statusOf(error))).toEqual(cases.map(([, status]) => status));
    expect(statusOf(new AlreadyExists('twice'), JSON_API_ERRORS.statuses)).toBe(400);
    expect(Object.keys(HTTP_STATUSES)).toHaveLength(11);
  });

  it('classifies a domain error with its message as detail, its field errors and a Retry-After', () => {
    expect(classifyError(new RateLimited('slow down', { retryAfterSeconds: 7 }))).toEqual({
      status: 429,
      title: 'Too Many Requests',
      detail: 'slow down',
      headers: { 'retry-after': '7' },
    });
    const errors = [{ pointer: '#/repo-id', detail: 'does not belong to account 1' }];
    expect(classifyError(new InvalidInput('Repo 2 does not belong to account 1', { errors }))).toMatchObject({ status: 400, errors });
  });
});

describe('domain errors through a service app', () => {
  let problems: Listening;
  let jsonApi: Listening;
  const routes = (app: Parameters<Parameters<typeof createServiceApp>[0]['routes']>[0]) => {
    app.get('/configs/:id', () => {
      throw new NotFound('No update config 9');
    });
    app.post('/configs', () => {
      throw new AlreadyExists('Update config already exists for this repo, package manager, directory and target branch');
    });
  };

  beforeAll(async () => {
    const logger = pino({ level: 'silent' });
    problems = await listen(createServiceApp({ logger, readiness: [], routes }), 0, '127.0.0.1');
    jsonApi = await listen(createServiceApp({ logger, readiness: [], routes, errorFormat: JSON_API_ERRORS }), 0, '127.0.0.1');
  });
  afterAll(async () => {
    await problems?.close();
    await jsonApi?.close();
  });

  it('answers RFC 9457 problem details by default, with HTTP statuses', async () => {
    const missing = await request(problems.url, 'GET', '/configs/9');
    expect(missing.status).toBe(404);
    expect(missing.headers.get('content-type')).toMatch(/^application\/problem\+json/);
    expect(missing.body).toMatchObject({
      type: 'about:blank',
      title: 'Not Found',
      status: 404,
      detail: 'No update config 9',
      instance: '/configs/9',
    });
    expect((await request(problems.url, 'POST', '/configs')).status).toBe(409);
  });

  it('answers JSON:API errors in the dependency API format, a duplicate as 400 as the original did', async () => {
    const duplicate = await request(jsonApi.url, 'POST', '/configs');
    expect(duplicate.status).toBe(400);
    expect(duplicate.headers.get('content-type')).toBe('application/json; charset=utf-8');
    expect(duplicate.body).toEqual({
      errors: [
        {
          status: 400,
          title: 'Bad Request',
          detail: 'Update config already exists for this repo, package manager, directory and target branch',
        },
      ],
    });
  });
});
