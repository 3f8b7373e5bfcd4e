import { randomBytes } from 'node:crypto';
import { Writable } from 'node:stream';
import { NO_TOKEN_DETAIL, RegistryCredentialDocument, RegistryCredentialsDocument, registryCredentialAad } from '@switchyard/contracts';
import { createLogger, openSecret, SecretOpenError, sealSecret } from '@switchyard/service-kit';
import { request, type TestResponse } from '@switchyard/service-kit/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ALICE, BOB, type ConfigHarness, startConfigHarness } from './harness.ts';

/** A member (not an admin) of acme in the demo seed. */
const ACME_MEMBER = 'demo-token-bot';
const ACME = 2001;
const GLOBEX = 2002;
const ALICE_USER = 1001;
const BOB_USER = 1002;

const TOKEN = 'npm_TopSecretToken_4f1c2e9a7b';
const PASSWORD = 'Passw0rd-never-shown-8d3e';
const SECRETS = [TOKEN, PASSWORD, 'rotated-token-5a6b7c'];

const as = (token: string | undefined): Record<string, string> => (token ? { authorization: `Personal ${token}` } : {});

function expectEnvelope(res: TestResponse, status: number, detail?: RegExp) {
  expect(res.status, res.text).toBe(status);
  expect(res.headers.get('content-type')).toBe('application/json; charset=utf-8');
  expect(Array.isArray(res.body.errors) && res.body.errors.length > 0).toBe(true);
  for (const error of res.body.errors) expect(error).toMatchObject({ status, title: expect.any(String) });
  if (detail) expect(res.body.errors.map((e: { detail: string }) => e.detail).join(' | ')).toMatch(detail);
}

describe('registry credentials on PostgreSQL and RabbitMQ, with the GitHub emulator', () => {
  const key = randomBytes(32);
  const logLines: string[] = [];
  const responses: TestResponse[] = [];
  let h: ConfigHarness;
  beforeAll(async () => {
    const sink = new Writable({
      write(chunk, _encoding, done) {
        logLines.push(String(chunk));
        done();
      },
    });
    h = await startConfigHarness('config_registry_credentials', {
      env: { SECRETS_KEY: key.toString('base64') },
      logger: createLogger('config-svc', 'trace', sink),
    });
  });
  afterAll(() => h?.close());

  /** Sends a request and keeps its answer, so the last test can check that no answer ever held a secret. */
  async function call(method: string, path: string, token: string | undefined, body?: unknown): Promise<TestResponse> {
    const res = await request(h.url, method, path, { headers: as(token), ...(body === undefined ? {} : { body }) });
    responses.push(res);
    return res;
  }
  const db = () => h.service.database.db.withSchema('config');
  const row = (id: number) => db().selectFrom('registry_credential').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
  const countOf = async (accountId: number) =>
    (await db().selectFrom('registry_credential').select('id').where('account_id', '=', accountId).execute()).length;
  const credentialEvents = (id: number) =>
    h.events.filter((e) => e.type.startsWith('registry_credential.') && (e.data as { id: number }).id === id);

  const tokenBody = (extra: Record<string, unknown> = {}) => ({
    'account-id': ACME,
    'package-manager': 'npm_and_yarn',
    'base-url': 'https://npm.acme.example/registry/',
    'auth-type': 'token',
    token: TOKEN,
    ...extra,
  });

  it('lets an admin create, list, read, change and delete a credential; the secret is sealed and never answered', async () => {
    const created = await call('POST', '/registry_credentials', ALICE, tokenBody());
    expect(created.status, created.text).toBe(201);
    const doc = RegistryCredentialDocument.parse(created.body);
    const id = Number(doc.data.id);
    expect(created.headers.get('location')).toBe(`/registry_credentials/${id}`);
    expect(doc.data).toMatchObject({
      type: 'registry-credentials',
      attributes: {
        'package-manager': 'npm_and_yarn',
        'base-url': 'https://npm.acme.example/registry/',
        'auth-type': 'token',
        username: null,
      },
      relationships: { account: { data: { id: String(ACME), type: 'accounts' } } },
    });
    expect(Object.keys(doc.data.attributes).sort()).toEqual([
      'auth-type',
      'base-url',
      'created-at',
      'package-manager',
      'updated-at',
      'username',
    ]);

    // Stored sealed, bound to its account and package manager.
    const stored = await row(id);
    expect(stored).toMatchObject({ account_id: ACME, auth_type: 'token', username: null, revision: 1 });
    expect(stored.sealed_secret).toMatch(/^v1\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+$/);
    expect(stored.sealed_secret).not.toContain(TOKEN);
    expect(openSecret(key, stored.sealed_secret, registryCredentialAad(ACME, 'npm_and_yarn'))).toBe(TOKEN);
    expect(() => openSecret(key, stored.sealed_secret, registryCredentialAad(GLOBEX, 'npm_and_yarn'))).toThrow(SecretOpenError);
    expect(() => openSecret(key, stored.sealed_secret, registryCredentialAad(ACME, 'pip'))).toThrow(SecretOpenError);

    // The event carries the full state with the secret sealed, on the bus and in the outbox.
    const saved = await h.waitForEvent((e) => e.type === 'registry_credential.saved' && (e.data as { id: number }).id === id);
    expect(saved).toMatchObject({
      source: 'config-svc',
      data: {
        id,
        accountId: ACME,
        packageManager: 'npm_and_yarn',
        baseUrl: 'https://npm.acme.example/registry/',
        authType: 'token',
        username: null,
        sealedSecret: stored.sealed_secret,
        revision: 1,
      },
    });
    const outbox = await db().selectFrom('outbox').selectAll().where('type', 'like', 'registry_credential.%').execute();
    expect(outbox.length).toBeGreaterThan(0);
    expect(JSON.stringify(outbox)).not.toContain(TOKEN);

    const listed = await call('GET', `/registry_credentials?account-id=${ACME}`, ALICE);
    expect(listed.status, listed.text).toBe(200);
    expect(RegistryCredentialsDocument.parse(listed.body).data.map((c) => c.id)).toContain(String(id));
    const read = await call('GET', `/registry_credentials/${id}`, ALICE);
    expect(read.status, read.text).toBe(200);
    expect(read.body).toEqual(created.body);

    // A new base URL needs the secret again; a change of auth type needs the new type's members.
    expectEnvelope(
      await call('PATCH', `/registry_credentials/${id}`, ALICE, { 'base-url': 'https://elsewhere.example/' }),
      400,
      /token is required when base-url changes/,
    );
    const badSwitch = await call('PATCH', `/registry_credentials/${id}`, ALICE, { 'auth-type': 'basic', username: 'ci' });
    expectEnvelope(badSwitch, 400, /password is required with auth-type basic/);
    expect(badSwitch.body.errors[0].source).toEqual({ pointer: '/password' });
    expectEnvelope(
      await call('PATCH', `/registry_credentials/${id}`, ALICE, { username: 'ci' }),
      400,
      /username is only for auth-type basic/,
    );
    expect((await row(id)).revision).toBe(1);

    const patched = await call('PATCH', `/registry_credentials/${id}`, ALICE, {
      'auth-type': 'basic',
      username: 'ci-bot',
      password: PASSWORD,
      'base-url': 'https://nexus.acme.example/repository/npm/',
      'account-id': GLOBEX,
    });
    expect(patched.status, patched.text).toBe(200);
    expect(RegistryCredentialDocument.parse(patched.body).data.attributes).toMatchObject({
      'auth-type': 'basic',
      username: 'ci-bot',
      'base-url': 'https://nexus.acme.example/repository/npm/',
    });
    const changed = await row(id);
    expect(changed).toMatchObject({ account_id: ACME, revision: 2, username: 'ci-bot' });
    expect(openSecret(key, changed.sealed_secret, registryCredentialAad(ACME, 'npm_and_yarn'))).toBe(PASSWORD);
    await h.waitForEvent((e) => e.type === 'registry_credential.saved' && (e.data as { revision: number }).revision === 2);

    // The username alone may change (the password stays); an empty PATCH changes and publishes nothing.
    const renamed = await call('PATCH', `/registry_credentials/${id}`, ALICE, { username: 'ci-robot' });
    expect(renamed.body.data.attributes.username).toBe('ci-robot');
    expect((await row(id)).sealed_secret).toBe(changed.sealed_secret);
    expect((await call('PATCH', `/registry_credentials/${id}`, ALICE, {})).status).toBe(200);
    expect((await row(id)).revision).toBe(3);

    expect((await call('DELETE', `/registry_credentials/${id}`, ALICE)).status).toBe(204);
    expectEnvelope(await call('GET', `/registry_credentials/${id}`, ALICE), 404);
    const deleted = await h.waitForEvent((e) => e.type === 'registry_credential.deleted' && (e.data as { id: number }).id === id);
    expect(deleted.data).toMatchObject({ id, accountId: ACME, revision: 3, username: 'ci-robot' });
    expect(credentialEvents(id).map((e) => [e.type, (e.data as { revision: number }).revision])).toEqual([
      ['registry_credential.saved', 1],
      ['registry_credential.saved', 2],
      ['registry_credential.saved', 3],
      ['registry_credential.deleted', 3],
    ]);
  });

  it('answers a second credential for the same account and package manager 409, naming the existing one', async () => {
    const first = await call(
      'POST',
      '/registry_credentials',
      ALICE,
      tokenBody({ 'package-manager': 'pip', 'base-url': 'https://pypi.acme.example/simple' }),
    );
    expect(first.status, first.text).toBe(201);
    const again = await call('POST', '/registry_credentials', ALICE, tokenBody({ 'package-manager': 'pip', token: 'another' }));
    expectEnvelope(
      again,
      409,
      new RegExp(`already has a registry credential for pip: change it with PATCH /registry_credentials/${first.body.data.id}`),
    );
    expect(await db().selectFrom('registry_credential').select('id').where('package_manager', '=', 'pip').execute()).toHaveLength(1);
    // Another package manager of the same account, and the caller's own user account, are fine.
    const maven = await call('POST', '/registry_credentials', ALICE, {
      'account-id': String(ACME),
      'package-manager': 'maven',
      'base-url': 'http://maven.acme.internal:8081/releases',
      'auth-type': 'basic',
      username: 'deployer',
      password: PASSWORD,
    });
    expect(maven.status, maven.text).toBe(201);
    expect(maven.body.data.attributes).toMatchObject({ 'auth-type': 'basic', username: 'deployer' });
    const own = await call('POST', '/registry_credentials', ALICE, tokenBody({ 'account-id': ALICE_USER, 'package-manager': 'cargo' }));
    expect(own.status, own.text).toBe(201);
    const listed = RegistryCredentialsDocument.parse((await call('GET', `/registry_credentials?account-id=${ACME}`, ALICE)).body);
    expect(listed.data.map((c) => c.attributes['package-manager'])).toEqual(['maven', 'pip']);
  });

  it('lets only admins manage: a member gets 403, an outsider 404, whatever the method', async () => {
    const created = await call(
      'POST',
      '/registry_credentials',
      ALICE,
      tokenBody({ 'package-manager': 'bundler', 'base-url': 'https://gems.acme.example' }),
    );
    expect(created.status, created.text).toBe(201);
    const path = `/registry_credentials/${created.body.data.id}`;

    // alice is a member, not an admin, of globex; the bot is a member of acme.
    expectEnvelope(
      await call('POST', '/registry_credentials', ALICE, tokenBody({ 'account-id': GLOBEX })),
      403,
      /Only admins of the organisation globex may manage its registry credentials/,
    );
    expectEnvelope(await call('GET', `/registry_credentials?account-id=${GLOBEX}`, ALICE), 403, /globex/);
    expectEnvelope(await call('GET', `/registry_credentials?account-id=${ACME}`, ACME_MEMBER), 403, /Only admins of the organisation acme/);
    expectEnvelope(await call('GET', path, ACME_MEMBER), 403);
    expectEnvelope(await call('PATCH', path, ACME_MEMBER, { token: 'stolen' }), 403);
    expectEnvelope(await call('DELETE', path, ACME_MEMBER), 403);
    expectEnvelope(await call('POST', '/registry_credentials', ACME_MEMBER, tokenBody({ 'package-manager': 'composer' })), 403);

    // bob reaches neither acme nor alice's account: 404, never a hint that they exist.
    expectEnvelope(await call('GET', `/registry_credentials?account-id=${ACME}`, BOB), 404, /No account 2001 is reachable/);
    expectEnvelope(await call('GET', path, BOB), 404, /No registry credential/);
    expectEnvelope(await call('PATCH', path, BOB, { token: 'stolen' }), 404);
    expectEnvelope(await call('DELETE', path, BOB), 404);
    expectEnvelope(await call('POST', '/registry_credentials', BOB, tokenBody({ 'package-manager': 'composer' })), 404);
    expect((await call('GET', path, ALICE)).status).toBe(200);
    expect(openSecret(key, (await row(Number(created.body.data.id))).sealed_secret, registryCredentialAad(ACME, 'bundler'))).toBe(TOKEN);
    expect(await countOf(GLOBEX)).toBe(0);

    // bob administers his own user account, which alice cannot see.
    const bobs = await call('POST', '/registry_credentials', BOB, tokenBody({ 'account-id': BOB_USER }));
    expect(bobs.status, bobs.text).toBe(201);
    expectEnvelope(await call('GET', `/registry_credentials/${bobs.body.data.id}`, ALICE), 404);
    expectEnvelope(await call('GET', `/registry_credentials?account-id=${BOB_USER}`, ALICE), 404);

    const anonymous = await call('GET', `/registry_credentials?account-id=${ACME}`, undefined);
    expect(anonymous.status).toBe(403);
    expect(anonymous.body).toEqual({ errors: [{ status: 403, title: 'Forbidden', detail: NO_TOKEN_DETAIL }] });
  });

  it('names each invalid member with 400 and stores nothing', async () => {
    const before = await countOf(ACME);
    const cases: Array<[Record<string, unknown>, RegExp, string]> = [
      [tokenBody({ 'base-url': 'not a url' }), /base-url must not contain spaces/, '/base-url'],
      [tokenBody({ 'base-url': 'ftp://files.acme.example/' }), /base-url must be an http:\/\/ or https:\/\/ URL/, '/base-url'],
      [tokenBody({ 'base-url': 'https://user:pw@npm.acme.example/' }), /base-url must not contain credentials/, '/base-url'],
      [tokenBody({ 'base-url': 'https://npm.acme.example/?token=x' }), /base-url must not have a query or a fragment/, '/base-url'],
      [
        tokenBody({ 'package-manager': 'github_actions' }),
        /package-manager must be one of npm_and_yarn, pip, maven, bundler, cargo, composer, docker, hex, gradle, nuget, go_modules, terraform/,
        '/package-manager',
      ],
      [tokenBody({ 'package-manager': 'npm' }), /package-manager must be one of/, '/package-manager'],
      [tokenBody({ 'auth-type': 'basic', username: 'ci', password: PASSWORD }), /token is only for auth-type token/, '/token'],
      [tokenBody({ 'auth-type': 'basic', token: undefined, username: 'ci' }), /password is required with auth-type basic/, '/password'],
      [tokenBody({ token: undefined }), /token is required with auth-type token/, '/token'],
      [tokenBody({ token: 'line\nbreak' }), /token must not contain control characters/, '/token'],
      [tokenBody({ 'auth-type': 'oauth' }), /auth-type must be one of token, basic/, '/auth-type'],
      [tokenBody({ 'account-id': undefined }), /account-id is required/, '/account-id'],
    ];
    for (const [body, detail, pointer] of cases) {
      const res = await call('POST', '/registry_credentials', ALICE, body);
      expectEnvelope(res, 400, detail);
      expect(res.body.errors.map((e: { source?: { pointer?: string } }) => e.source?.pointer)).toContain(pointer);
    }
    expectEnvelope(await call('POST', '/registry_credentials', ALICE, '{"token": "npm_TopSecretToken_4f1c2e9a7b"'), 400, /not valid JSON/);
    expectEnvelope(await call('GET', '/registry_credentials', ALICE), 400, /account-id is required/);
    expectEnvelope(await call('GET', '/registry_credentials/abc', ALICE), 400, /id/);
    expectEnvelope(await call('GET', '/registry_credentials/999999', ALICE), 404);
    const put = await call('PUT', '/registry_credentials', ALICE, tokenBody());
    expectEnvelope(put, 405);
    expect(put.headers.get('allow')).toBe('GET, POST, HEAD');
    expect(await countOf(ACME)).toBe(before);

    const created = await call('POST', '/registry_credentials', ALICE, tokenBody({ 'package-manager': 'composer' }));
    const path = `/registry_credentials/${created.body.data.id}`;
    expectEnvelope(await call('PATCH', path, ALICE, { 'package-manager': 'pip' }), 400, /package-manager cannot be changed/);
    expectEnvelope(
      await call('PATCH', path, ALICE, { 'base-url': 'https://a:b@x.example/', token: 'x' }),
      400,
      /base-url must not contain credentials/,
    );
    expectEnvelope(await call('PATCH', path, ALICE, { 'auth-type': 'token', password: 'x' }), 400, /password is only for auth-type basic/);
    expect((await row(Number(created.body.data.id))).revision).toBe(1);
  });

  it('never puts a secret in an answer or a log line (bodies are not logged, only the request line)', () => {
    expect(responses.length).toBeGreaterThan(40);
    for (const res of responses) for (const secret of SECRETS) expect(res.text).not.toContain(secret);
    const log = logLines.join('');
    expect(log).toContain('/registry_credentials');
    for (const secret of SECRETS) expect(log).not.toContain(secret);
    expect(log).not.toContain(ALICE);
  });
});

describe('registry credentials without SECRETS_KEY', () => {
  let h: ConfigHarness;
  beforeAll(async () => {
    h = await startConfigHarness('config_registry_no_key');
  });
  afterAll(() => h?.close());

  const call = (method: string, path: string, body?: unknown) =>
    request(h.url, method, path, { headers: as(ALICE), ...(body === undefined ? {} : { body }) });
  const db = () => h.service.database.db.withSchema('config');

  it('refuses to store a secret (503, nothing stored or published) but lists, reads, changes the rest and deletes', async () => {
    const refused = await call('POST', '/registry_credentials', {
      'account-id': ACME,
      'package-manager': 'npm_and_yarn',
      'base-url': 'https://npm.acme.example/',
      'auth-type': 'token',
      token: TOKEN,
    });
    expectEnvelope(refused, 503, /no SECRETS_KEY configured.*nothing was stored/);
    expect(refused.text).not.toContain(TOKEN);
    expect(await db().selectFrom('registry_credential').selectAll().execute()).toEqual([]);
    expect(await db().selectFrom('outbox').selectAll().where('type', 'like', 'registry_credential.%').execute()).toEqual([]);
    expect((await call('GET', `/registry_credentials?account-id=${ACME}`)).body).toEqual({ data: [] });

    // A credential stored while a key was configured: its secret cannot be replaced, the rest still works.
    expect((await call('GET', '/accounts')).status).toBe(200);
    const sealed = sealSecret(randomBytes(32), TOKEN, registryCredentialAad(ACME, 'pip'));
    const { id } = await db()
      .insertInto('registry_credential')
      .values({
        account_id: ACME,
        package_manager: 'pip',
        base_url: 'https://pypi.acme.example/',
        auth_type: 'token',
        username: null,
        sealed_secret: sealed,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    expectEnvelope(await call('PATCH', `/registry_credentials/${id}`, { token: 'rotated-token-5a6b7c' }), 503, /SECRETS_KEY/);
    expect(
      await db().selectFrom('registry_credential').select(['sealed_secret', 'revision']).where('id', '=', id).executeTakeFirst(),
    ).toEqual({
      sealed_secret: sealed,
      revision: 1,
    });
    expect((await call('GET', `/registry_credentials/${id}`)).status).toBe(200);
    expect((await call('DELETE', `/registry_credentials/${id}`)).status).toBe(204);
  });
});

describe('registry credentials at addresses the operator does not allow (OWASP API7:2023, REGISTRY_ALLOWED_HOSTS)', () => {
  let h: ConfigHarness;
  beforeAll(async () => {
    h = await startConfigHarness('config_registry_guard', {
      env: { SECRETS_KEY: randomBytes(32).toString('base64'), REGISTRY_ALLOWED_HOSTS: '127.0.0.1:4873, registry.corp, 10.20.0.0/16' },
      // Names this test makes resolve (the system resolver answers localhost only).
      resolveRegistryHost: async (hostname) => {
        const records: Record<string, string[]> = {
          'npm.evil.example': ['127.0.0.1'],
          'metadata.evil.example': ['93.184.216.34', '169.254.169.254'],
          'registry.corp': ['10.1.2.3'],
          'nexus.acme.example': ['10.20.3.4'],
          'npm.acme.example': ['93.184.216.34'],
        };
        const addresses = records[hostname];
        if (!addresses) throw Object.assign(new Error(`getaddrinfo ENOTFOUND ${hostname}`), { code: 'ENOTFOUND' });
        return addresses.map((address) => ({ address, family: 4 }));
      },
    });
  });
  afterAll(() => h?.close());

  const call = (method: string, path: string, body?: unknown, token = ALICE) =>
    request(h.url, method, path, { headers: as(token), ...(body === undefined ? {} : { body }) });
  const db = () => h.service.database.db.withSchema('config');
  const body = (packageManager: string, baseUrl: string) => ({
    'account-id': ACME,
    'package-manager': packageManager,
    'base-url': baseUrl,
    'auth-type': 'token',
    token: TOKEN,
  });
  /** The answer is 422 in the API's envelope, on /base-url, its detail saying why. */
  function expectRefused(res: TestResponse, detail: string) {
    expectEnvelope(res, 422);
    expect(res.body).toEqual({
      errors: [{ status: 422, title: 'Unprocessable Entity', detail: `base-url is refused: ${detail}`, source: { pointer: '/base-url' } }],
    });
    expect(res.text).not.toContain(TOKEN);
  }
  const NOT_ALLOWED = 'which the operator does not allow (REGISTRY_ALLOWED_HOSTS)';

  it('refuses a base-url at a loopback, link-local, private or mapped address, or a name resolving to one, with 422 and stores nothing', async () => {
    expectRefused(
      await call('POST', '/registry_credentials', body('npm_and_yarn', 'http://127.0.0.1:9999/')),
      `127.0.0.1 is a loopback address, ${NOT_ALLOWED}`,
    );
    expectRefused(
      await call('POST', '/registry_credentials', body('npm_and_yarn', 'http://169.254.169.254/latest/meta-data/')),
      `169.254.169.254 is a link-local address, ${NOT_ALLOWED}`,
    );
    expectRefused(
      await call('POST', '/registry_credentials', body('pip', 'http://192.168.0.10/simple/')),
      `192.168.0.10 is a private address, ${NOT_ALLOWED}`,
    );
    expectRefused(
      await call('POST', '/registry_credentials', body('pip', 'http://[::ffff:7f00:1]:15672/api/')),
      `::ffff:7f00:1 (127.0.0.1) is a loopback address, ${NOT_ALLOWED}`,
    );
    expectRefused(
      await call('POST', '/registry_credentials', body('maven', 'http://[fd00::1]/')),
      `fd00::1 is a unique-local address, ${NOT_ALLOWED}`,
    );
    expectRefused(
      await call('POST', '/registry_credentials', body('cargo', 'http://localhost:15672/')),
      `localhost is a loopback name, ${NOT_ALLOWED}`,
    );
    expectRefused(
      await call('POST', '/registry_credentials', body('npm_and_yarn', 'http://npm.evil.example:9999/')),
      `npm.evil.example resolves to 127.0.0.1, a loopback address, ${NOT_ALLOWED}`,
    );
    expectRefused(
      await call('POST', '/registry_credentials', body('npm_and_yarn', 'https://metadata.evil.example/')),
      `metadata.evil.example resolves to 169.254.169.254, a link-local address, ${NOT_ALLOWED}`,
    );
    expect(await db().selectFrom('registry_credential').selectAll().execute()).toEqual([]);
    expect(h.events.filter((e) => e.type.startsWith('registry_credential.'))).toEqual([]);
  });

  it('checks only for an admin of the account: anyone else gets 403/404 as before, nothing resolved for them', async () => {
    expectEnvelope(await call('POST', '/registry_credentials', body('npm_and_yarn', 'http://127.0.0.1:9999/'), 'demo-token-bot'), 403);
  });

  it('allows public addresses, the hosts, addresses and ranges the operator lists, and names that do not resolve', async () => {
    const allowed: Array<[string, string]> = [
      ['npm_and_yarn', 'https://npm.acme.example/'],
      ['pip', 'http://127.0.0.1:4873/pypi/'],
      ['maven', 'https://registry.corp/maven2/'],
      ['bundler', 'https://nexus.acme.example/gems/'],
      ['composer', 'https://packagist.unresolvable.example/'],
      ['cargo', 'https://93.184.216.34/index/'],
    ];
    for (const [packageManager, baseUrl] of allowed) {
      const res = await call('POST', '/registry_credentials', body(packageManager, baseUrl));
      expect(res.status, `${baseUrl}: ${res.text}`).toBe(201);
    }
  });

  it('refuses a PATCH that moves the base-url to a refused address, and keeps the stored one', async () => {
    const created = await call('POST', '/registry_credentials', body('nuget', 'https://npm.acme.example/nuget/v3/index.json'));
    expect(created.status, created.text).toBe(201);
    const path = `/registry_credentials/${created.body.data.id}`;
    expectRefused(
      await call('PATCH', path, { 'base-url': 'http://npm.evil.example/', token: 'another-token' }),
      `npm.evil.example resolves to 127.0.0.1, a loopback address, ${NOT_ALLOWED}`,
    );
    expectRefused(
      await call('PATCH', path, { 'base-url': 'http://10.0.0.1/', token: 'another-token' }),
      `10.0.0.1 is a private address, ${NOT_ALLOWED}`,
    );
    const row = await db()
      .selectFrom('registry_credential')
      .select(['base_url', 'revision'])
      .where('id', '=', Number(created.body.data.id))
      .executeTakeFirst();
    expect(row).toEqual({ base_url: 'https://npm.acme.example/nuget/v3/index.json', revision: 1 });
    const moved = await call('PATCH', path, { 'base-url': 'http://10.20.0.9/nuget/v3/index.json', token: 'another-token' });
    expect(moved.status, moved.text).toBe(200);
    expect(moved.body.data.attributes['base-url']).toBe('http://10.20.0.9/nuget/v3/index.json');
  });
});
