import {
  ACCOUNT_TYPES,
  AUTOMERGE_RULES,
  PACKAGE_MANAGERS,
  PULL_REQUEST_JOB_STATUSES,
  REGISTRY_AUTH_TYPES,
  REGISTRY_CREDENTIAL_PACKAGE_MANAGERS,
  UPDATE_SCHEDULES,
  WEEKDAYS,
} from '@switchyard/contracts';
import fc from 'fast-check';
import { latin1Encode } from '../support/digest-form.ts';
import {
  anyJson,
  authorization,
  awkwardText,
  body,
  headers,
  headerValue,
  hugeText,
  methodOf,
  mutated,
  pathSegment,
  queryString,
  withQuery,
} from './arbitraries.ts';
import type { FuzzRequest } from './raw-request.ts';
import { PEER_CLIENT_PLACE, WEBHOOK_SECRET } from './stack.ts';
import { webhookDeliveries } from './webhook-deliveries.ts';

/** The error format a route's API answers in (the gateway README's table): what the oracle holds its errors to. */
export type ApiKind = 'catalogue' | 'dependency-api' | 'peer' | 'gateway';

/** One route of the system as the fuzzer drives it: where it belongs and how its requests are made. */
export interface FuzzRoute {
  /** The service (or the gateway) that answers it: the unit the run script reports by. */
  group: 'catalog-svc' | 'config-svc' | 'release-svc' | 'peer-svc' | 'gateway';
  /** The path template, e.g. `/books/{id}`. */
  name: string;
  api: ApiKind;
  request: fc.Arbitrary<FuzzRequest>;
}

/** What exists in the running system when the fuzzing starts, so some requests reach past the not-found checks. */
export interface RouteContext {
  /** peer-svc's directory place URL, `http://127.0.0.1:<port>/DirectoryPlace` (the only allow-listed peer). */
  peerSelfUrl: string;
  bookIds: readonly string[];
  updateConfigIds: readonly string[];
  notificationIds: readonly string[];
  /** Registry credentials that exist (alice's, of the organisation acme). */
  registryCredentialIds: readonly string[];
  /** Update runs that exist ("bump now" of the update configs). */
  updateRunIds: readonly string[];
}

/**
 * The paths some service owns, as the gateway's routing table (services/gateway/src/routing/route.policy.ts) has them:
 * a path outside them is the gateway's own.
 */
export const OWNED_PATHS = {
  exact: [
    '/',
    '/books',
    '/accounts',
    '/repos',
    '/update_configs',
    '/registry_credentials',
    '/webhooks/github',
    '/WorkSpaceClientEnqueue.action',
  ],
  prefixes: [
    '/books/',
    '/accounts/',
    '/update_configs/',
    '/registry_credentials/',
    '/release_notifications/',
    '/pull_request_jobs',
    '/update_runs',
    '/emissary/',
  ],
} as const;

/** The peer endpoints peer-svc routes (POST; TransferDirectory GET too); any other request on a peer path is an unknown route there. */
export const PEER_ENDPOINTS: readonly string[] = [
  '/emissary/Heartbeat.action',
  '/emissary/RegisterPeer.action',
  '/emissary/AddChildDirectory.action',
  '/emissary/FailDirectory.action',
  '/emissary/RegisterPlace.action',
  '/emissary/DeregisterPlace.action',
  '/emissary/TransferDirectory.action',
  '/WorkSpaceClientEnqueue.action',
  '/emissary/WorkSpaceClientEnqueue.action',
];

/** A request of `method`, `target`, optional `headerSet` and body. */
const requestOf = (
  method: fc.Arbitrary<string>,
  target: fc.Arbitrary<string>,
  headerSet: fc.Arbitrary<Record<string, string>>,
  bodies: fc.Arbitrary<string | Buffer | undefined>,
  digest: fc.Arbitrary<boolean> = fc.constant(false),
): fc.Arbitrary<FuzzRequest> =>
  fc.record({ method, target, headers: headerSet, body: bodies, digest }).map(({ body: sent, ...rest }) => ({
    ...rest,
    ...(sent === undefined ? {} : { body: sent }),
  }));

/** A nested path under `prefix`: one to three segments. */
const nestedPath = (prefix: string) =>
  fc.array(pathSegment(), { minLength: 1, maxLength: 3 }).map((parts) => `${prefix}${parts.join('/')}`);

// --- the catalogue ---------------------------------------------------------------------------------------------

const bookText = fc.oneof(fc.constantFrom('Dune', 'Frank Herbert', 'x'.repeat(501)), awkwardText(40));
const book = (ids: readonly string[]) =>
  fc.record(
    {
      Id: mutated(fc.oneof(fc.constantFrom(...ids.map(Number), 1, 2_147_483_647), fc.integer({ min: 1, max: 60 }))),
      Name: mutated(bookText),
      Author: mutated(bookText),
      Price: mutated(fc.double({ min: 0, max: 1e9, noNaN: true })),
      Year: mutated(fc.integer({ min: -3005, max: 2040 })),
      name: mutated(bookText),
      Extra: anyJson,
    },
    { requiredKeys: [] },
  );

const catalogRoutes = (ctx: RouteContext): FuzzRoute[] => {
  const etag = fc.oneof(headerValue(20), fc.constantFrom('*', '"0"', 'W/"1"', '"abc", *'));
  const catalogHeaders = headers({ 'if-match': etag, 'if-none-match': etag });
  const bookBody = body(book(ctx.bookIds));
  const listQuery = queryString(
    ['limit', 'offset', 'Author', 'Year', 'sort'],
    fc.constantFrom(
      '10',
      '0',
      '1000',
      '1001',
      'Name',
      '-Year,Name',
      'Price,-Id',
      'Frank+Herbert',
      'Frank%20Herbert',
      '2000',
      'Nope',
      '-',
      ',',
    ),
  );
  const route = (name: string, method: fc.Arbitrary<string>, target: fc.Arbitrary<string>): FuzzRoute => ({
    group: 'catalog-svc',
    name,
    api: 'catalogue',
    request: requestOf(method, target, catalogHeaders, bookBody),
  });
  return [
    route('/', methodOf('GET'), withQuery(fc.constant('/'), listQuery)),
    route('/books', methodOf('GET', 'POST', 'PUT'), withQuery(fc.constant('/books'), listQuery)),
    route(
      '/books/{id}',
      methodOf('GET', 'PUT', 'DELETE'),
      withQuery(
        pathSegment(ctx.bookIds).map((id) => `/books/${id}`),
        listQuery,
      ),
    ),
    route('/books/{...}', methodOf('GET', 'PUT', 'DELETE'), nestedPath('/books/')),
  ];
};

// --- the dependency update API ----------------------------------------------------------------------------------

const ACCOUNT_IDS = ['1001', '1002', '2001', '2002', '2003', '1900', '9999'];
const REPO_IDS = [3001, 3002, 3101, 3102, 3103, 3104, 3105, 3201, 3202, 3203, 3301, 3401, 3402, 9999];

/** Repos of the demo seed with their owner: a config body of one of them can be created (by a token that reaches it). */
const OWNED_REPOS = [
  [3001, '1001', 'user'],
  [3002, '1001', 'user'],
  [3101, '2001', 'org'],
  [3102, '2001', 'org'],
  [3103, '2001', 'org'],
  [3104, '2001', 'org'],
  [3201, '2002', 'org'],
  [3202, '2002', 'org'],
  [3301, '2003', 'org'],
  [3401, '1002', 'user'],
] as const;

/** `repo-id`, `account-id` and `account-type` of a create body: mostly a repo with its real owner, else any. */
const configTarget = fc.oneof(
  { weight: 3, arbitrary: fc.constantFrom(...OWNED_REPOS) },
  {
    weight: 1,
    arbitrary: fc.tuple(
      fc.oneof(fc.constantFrom(...REPO_IDS), fc.constantFrom(...REPO_IDS.map(String))),
      fc.oneof(fc.constantFrom(...ACCOUNT_IDS), fc.constantFrom(...ACCOUNT_IDS.map(Number))),
      fc.constantFrom(...ACCOUNT_TYPES),
    ),
  },
);

const configAttributes = fc.record(
  {
    directory: mutated(fc.oneof(fc.constantFrom('/', '/app', 'a/b/', '/../x', '//'), awkwardText(20))),
    'update-schedule': mutated(fc.constantFrom(...UPDATE_SCHEDULES)),
    'package-manager': mutated(fc.constantFrom(...PACKAGE_MANAGERS, 'npm', 'yarn', 'pip-compile', 'cobol')),
    'target-branch': mutated(fc.oneof(fc.constant(null), fc.constantFrom('main', 'release/1.x', '-x', 'a..b', 'x.lock'))),
    'lockfile-only': mutated(fc.boolean()),
    'security-updates-only': mutated(fc.boolean()),
    'automerge-rule-development-deps': mutated(fc.constantFrom(...AUTOMERGE_RULES, 'minor', 'patch')),
    'automerge-rule-runtime-deps': mutated(fc.constantFrom(...AUTOMERGE_RULES, 'minor', 'patch')),
  },
  { requiredKeys: ['directory', 'update-schedule', 'package-manager'] },
);

/** A create (or patch) body: the target repo and its owner, then the attributes, each mutated now and then, some left out. */
const createConfig = fc
  .tuple(configTarget, fc.tuple(mutated(fc.constant(0)), mutated(fc.constant(0)), mutated(fc.constant(0))), configAttributes, fc.boolean())
  .map(([[repo, account, type], [repoNoise, accountNoise, typeNoise], attributes, whole]) => ({
    'repo-id': repoNoise === 0 ? repo : repoNoise,
    'account-id': accountNoise === 0 ? account : accountNoise,
    'account-type': typeNoise === 0 ? type : typeNoise,
    ...(whole ? attributes : Object.fromEntries(Object.entries(attributes).filter((_, i) => i % 2 === 0))),
  }));

/** A `PATCH /accounts/{id}` body: the account's settings, each present or not and mutated now and then, and a member it ignores. */
const accountSettings = fc.record(
  {
    'update-run-time': mutated(fc.constantFrom('04:00', '00:00', '23:59', '24:00', '4:00', '12:60', '0400', '')),
    'weekly-update-run-day': mutated(fc.constantFrom(...WEEKDAYS, 'Monday', 'funday', '')),
    'automatically-rebase-prs': mutated(fc.boolean()),
    'create-merge-commits': mutated(fc.boolean()),
    'limit-initial-update-runs': mutated(fc.boolean()),
    'limit-open-pull-requests': mutated(fc.boolean()),
    'time-zone': mutated(
      fc.oneof(
        fc.constantFrom('Europe/Paris', 'UTC', 'America/New_York', 'Asia/Kolkata', 'Etc/GMT+5', 'europe/paris', 'Mars/Olympus', '+01:00'),
        awkwardText(20),
      ),
    ),
    'current-installation-id': anyJson,
  },
  { requiredKeys: [] },
);

/** A registry's base URL: mostly one a credential may have (hosts that never answer), else credentials, a query, another scheme, too long. */
const registryBaseUrl = fc.oneof(
  { weight: 4, arbitrary: fc.constantFrom('https://npm.acme.invalid/', 'http://127.0.0.1:1/simple/', 'https://registry.invalid/maven2') },
  {
    weight: 2,
    arbitrary: fc.constantFrom(
      'https://user:pass@npm.acme.invalid/',
      'https://npm.acme.invalid/?token=x',
      'https://npm.acme.invalid/#top',
      'ftp://npm.acme.invalid/',
      'https:// npm.acme.invalid/',
      'https://',
      'npm.acme.invalid',
      `https://npm.acme.invalid/${'a'.repeat(2_048)}`,
    ),
  },
  { weight: 1, arbitrary: awkwardText(30) },
);

/** A registry token or password: mostly a plausible one, else empty, too long, or with control characters. */
const registrySecret = fc.oneof(
  { weight: 4, arbitrary: fc.constantFrom('s3cr3t-token', 'npm_0123456789abcdef', 'pässwörd') },
  { weight: 1, arbitrary: fc.constantFrom('', 'a\nb', 'x'.repeat(4_097)) },
  { weight: 1, arbitrary: awkwardText(20) },
);

const registryUsername = fc.oneof(fc.constantFrom('alice', 'ci-bot', 'a:b', '', 'x'.repeat(256)), awkwardText(15));

/**
 * The secret members of a registry credential body: mostly those of its `auth-type` (`token`; `username` and
 * `password`), else any of them with any auth type.
 */
const registrySecretMembers = fc.oneof(
  { weight: 4, arbitrary: fc.record({ 'auth-type': mutated(fc.constant('token')), token: mutated(registrySecret) }) },
  {
    weight: 3,
    arbitrary: fc.record({
      'auth-type': mutated(fc.constant('basic')),
      username: mutated(registryUsername),
      password: mutated(registrySecret),
    }),
  },
  {
    weight: 1,
    arbitrary: fc.record(
      {
        'auth-type': mutated(fc.constantFrom(...REGISTRY_AUTH_TYPES, 'bearer')),
        token: registrySecret,
        username: registryUsername,
        password: registrySecret,
      },
      { requiredKeys: [] },
    ),
  },
);

/**
 * A `POST /registry_credentials` body: an account (mostly one of the demo seed's), a package manager, a base URL and
 * the secret members, each mutated now and then; now and then half the members left out.
 */
const createRegistryCredential = fc
  .tuple(
    fc.record({
      'account-id': mutated(fc.oneof(fc.constantFrom(...ACCOUNT_IDS), fc.constantFrom(...ACCOUNT_IDS.map(Number)))),
      'package-manager': mutated(fc.constantFrom(...REGISTRY_CREDENTIAL_PACKAGE_MANAGERS, 'elm', 'npm', 'cobol')),
      'base-url': mutated(registryBaseUrl),
    }),
    registrySecretMembers,
    fc.boolean(),
  )
  .map(([target, secret, whole]) => {
    const members = { ...target, ...secret };
    return whole ? members : Object.fromEntries(Object.entries(members).filter((_, i) => i % 2 === 0));
  });

/**
 * A `PATCH /registry_credentials/{id}` body: any of the base URL, the auth type and the secret members, mutated now and
 * then, and now and then the package manager (which cannot change) or the account (ignored).
 */
const patchRegistryCredential = fc
  .tuple(
    fc.record({ 'base-url': mutated(registryBaseUrl) }, { requiredKeys: [] }),
    fc.option(registrySecretMembers),
    fc.record(
      { 'package-manager': mutated(fc.constantFrom(...REGISTRY_CREDENTIAL_PACKAGE_MANAGERS)), 'account-id': anyJson },
      { requiredKeys: [] },
    ),
    fc.nat(9),
  )
  .map(([url, secret, stray, dice]) => ({ ...url, ...(secret ?? {}), ...(dice === 0 ? stray : {}) }));

/** The dependency update API's headers: an `Authorization` header (mostly one that authenticates) and the route's own. */
const dependencyHeaders = (extra: Record<string, fc.Arbitrary<string>> = {}) =>
  fc.tuple(headers(extra), authorization).map(([set, auth]) => (auth === undefined ? set : { ...set, authorization: auth }));

const configRoutes = (ctx: RouteContext): FuzzRoute[] => {
  const route = (name: string, method: fc.Arbitrary<string>, target: fc.Arbitrary<string>, shaped: fc.Arbitrary<unknown>): FuzzRoute => ({
    group: 'config-svc',
    name,
    api: 'dependency-api',
    request: requestOf(method, target, dependencyHeaders(), body(shaped)),
  });
  const reposQuery = queryString(
    ['account-id', 'account-type', 'installation-state', 'page'],
    fc.constantFrom(
      ...ACCOUNT_IDS,
      ...ACCOUNT_TYPES,
      'active',
      'inactive',
      'Active',
      '1',
      '2',
      '0',
      '-1',
      '1.5',
      '1e2',
      '99999999999999999999',
    ),
  );
  const typicalRepos = fc
    .tuple(
      fc.constantFrom(...ACCOUNT_IDS),
      fc.constantFrom(...ACCOUNT_TYPES),
      fc.constantFrom('active', 'inactive'),
      fc.option(fc.oneof({ weight: 3, arbitrary: fc.constantFrom('1', '2') }, { weight: 1, arbitrary: pathSegment() })),
    )
    .map(
      ([id, type, state, page]) =>
        `account-id=${id}&account-type=${type}&installation-state=${state}${page === null ? '' : `&page=${page}`}`,
    );
  const reposTarget = fc.oneof(
    { weight: 3, arbitrary: typicalRepos.map((query) => `/repos?${query}`) },
    { weight: 1, arbitrary: withQuery(fc.constant('/repos'), reposQuery) },
  );
  const credentialsTarget = fc.oneof(
    { weight: 3, arbitrary: fc.constantFrom(...ACCOUNT_IDS).map((id) => `/registry_credentials?account-id=${id}`) },
    {
      weight: 1,
      arbitrary: withQuery(fc.constant('/registry_credentials'), queryString(['account-id'], fc.constantFrom(...ACCOUNT_IDS, '0', '-1'))),
    },
  );
  return [
    route('/accounts', methodOf('GET'), withQuery(fc.constant('/accounts'), queryString(['page'])), anyJson),
    // Only PATCH is served (an account is read in GET /accounts); GET is tried as often, for its 405.
    route(
      '/accounts/{id}',
      methodOf('PATCH', 'PATCH', 'GET'),
      fc.oneof(
        pathSegment(ACCOUNT_IDS).map((id) => `/accounts/${id}`),
        nestedPath('/accounts/'),
      ),
      accountSettings,
    ),
    route('/repos', methodOf('GET'), reposTarget, anyJson),
    route('/update_configs', methodOf('POST'), withQuery(fc.constant('/update_configs'), queryString([])), createConfig),
    route(
      '/update_configs/{id}',
      methodOf('GET', 'PATCH', 'DELETE'),
      fc.oneof(
        pathSegment(ctx.updateConfigIds).map((id) => `/update_configs/${id}`),
        nestedPath('/update_configs/'),
      ),
      createConfig,
    ),
    route('/registry_credentials', methodOf('GET', 'POST'), credentialsTarget, createRegistryCredential),
    route(
      '/registry_credentials/{id}',
      methodOf('GET', 'PATCH', 'DELETE'),
      fc.oneof(
        pathSegment(ctx.registryCredentialIds).map((id) => `/registry_credentials/${id}`),
        nestedPath('/registry_credentials/'),
      ),
      patchRegistryCredential,
    ),
  ];
};

const notification = fc.record(
  {
    name: mutated(fc.oneof(fc.constantFrom('lodash', 'stripe', 'requests', 'com.acme:lib', ' lodash ', '@scope/pkg', ''), awkwardText(30))),
    version: mutated(
      fc.oneof(fc.constantFrom('4.17.21', '5.23.0', '1.0.0-rc.1', 'v2', '', ' 1.0 ', '99999999999999999999.0.0'), awkwardText(15)),
    ),
    'package-manager': mutated(fc.constantFrom(...PACKAGE_MANAGERS, 'npm', 'yarn', 'pip', 'maven', 'cobol', ' Bundler ')),
  },
  { requiredKeys: [] },
);

const releaseRoutes = (ctx: RouteContext): FuzzRoute[] => {
  const route = (
    name: string,
    method: fc.Arbitrary<string>,
    target: fc.Arbitrary<string>,
    { extra = {}, shaped = notification }: { extra?: Record<string, fc.Arbitrary<string>>; shaped?: fc.Arbitrary<unknown> } = {},
  ): FuzzRoute => ({
    group: 'release-svc',
    name,
    api: 'dependency-api',
    request: requestOf(method, target, dependencyHeaders(extra), body(shaped)),
  });
  const jobsQuery = queryString(
    ['repo-id', 'dependency-name', 'notification-id', 'status', 'page'],
    fc.constantFrom(
      '3101',
      '3102',
      'lodash',
      'stripe',
      '1',
      '2',
      ...ctx.notificationIds,
      'not-a-uuid',
      '00000000-0000-0000-0000-000000000000',
      ...PULL_REQUEST_JOB_STATUSES,
      'Open',
      'opened',
    ),
  );
  const runsQuery = queryString(
    ['update-config-id', 'page'],
    fc.constantFrom(...ctx.updateConfigIds, '1', '2', '3', '0', '-1', '1.5', '9999999999999999', '99999999999999999'),
  );
  const typicalRuns = fc
    .tuple(
      fc.oneof({ weight: 3, arbitrary: fc.constantFrom(...ctx.updateConfigIds, '1', '2') }, { weight: 1, arbitrary: pathSegment() }),
      fc.option(fc.oneof({ weight: 3, arbitrary: fc.constantFrom('1', '2') }, { weight: 1, arbitrary: pathSegment() })),
    )
    .map(([id, page]) => `update-config-id=${id}${page === null ? '' : `&page=${page}`}`);
  const runsTarget = fc.oneof(
    { weight: 3, arbitrary: typicalRuns.map((query) => `/update_runs?${query}`) },
    {
      weight: 1,
      arbitrary: withQuery(fc.constantFrom('/update_runs', '/update_runs/', '/update_runsx', '/update_runs.json'), runsQuery),
    },
  );
  return [
    route('/release_notifications/private', methodOf('POST'), withQuery(fc.constant('/release_notifications/private'), queryString([])), {
      extra: {
        prefer: fc.constantFrom(
          'return=representation',
          'return=minimal',
          'RETURN=REPRESENTATION',
          'respond-async, return=representation',
          'x',
        ),
      },
    }),
    route(
      '/release_notifications/{id}',
      methodOf('GET'),
      fc.oneof(
        pathSegment(ctx.notificationIds).map((id) => `/release_notifications/${id}`),
        nestedPath('/release_notifications/'),
      ),
    ),
    route(
      '/pull_request_jobs',
      methodOf('GET'),
      withQuery(
        fc.constantFrom(
          '/pull_request_jobs',
          '/pull_request_jobs/',
          '/pull_request_jobs/1',
          '/pull_request_jobsx',
          '/pull_request_jobs.json',
        ),
        jobsQuery,
      ),
    ),
    route(
      '/update_configs/{id}/trigger_update_job',
      methodOf('POST'),
      withQuery(
        pathSegment(ctx.updateConfigIds).map((id) => `/update_configs/${id}/trigger_update_job`),
        queryString([]),
      ),
      { shaped: anyJson },
    ),
    route('/update_runs', methodOf('GET'), runsTarget, { shaped: anyJson }),
    route(
      '/update_runs/{id}',
      methodOf('GET'),
      fc.oneof(
        pathSegment(ctx.updateRunIds).map((id) => `/update_runs/${id}`),
        nestedPath('/update_runs/'),
      ),
      { shaped: anyJson },
    ),
    { group: 'release-svc', name: '/webhooks/github', api: 'dependency-api', request: webhookDeliveries(WEBHOOK_SECRET) },
  ];
};

// --- the peer endpoints -----------------------------------------------------------------------------------------

/** Percent-encodes a form field as ISO-8859-1 when it fits, else as UTF-8 (which peer-svc reads as Latin-1 bytes). */
const formEncode = (text: string) => {
  try {
    return latin1Encode(text);
  } catch {
    return encodeURIComponent(text.toWellFormed());
  }
};

const peerRoutes = (ctx: RouteContext): FuzzRoute[] => {
  const self = ctx.peerSelfUrl;
  const selfHost = new URL(self).host;
  // `https://<our host:port>/…`: the allow-list names whole directory URLs, so our own host:port under another scheme is
  // not allowed (403), never contacted.
  const url = fc.oneof(
    {
      weight: 4,
      arbitrary: fc.constantFrom(
        self,
        `http://${selfHost}/DirectoryPlace/`,
        `http://${selfHost}/OtherPlace`,
        `https://${selfHost}/DirectoryPlace`,
      ),
    },
    {
      weight: 2,
      arbitrary: fc.constantFrom(
        'http://10.0.0.1:8001/DirectoryPlace',
        'http://169.254.169.254/latest/meta-data/',
        'http://localhost:1/DirectoryPlace',
        'file:///etc/passwd',
        'gopher://127.0.0.1:25/',
        `http://user:pass@${selfHost}/DirectoryPlace`,
        'http://[::1]:1/DirectoryPlace',
        'http://127.0.0.1:99999/DirectoryPlace',
      ),
    },
    { weight: 1, arbitrary: awkwardText(30) },
  );
  const dotted = fc.oneof(
    fc.constantFrom('EMISSARY_DIRECTORY_SERVICES.DIRECTORY.STUDY', '*.*.*', 'A.B.C', 'a.b', '....', ''),
    awkwardText(20),
  );
  const directoryName = fc.oneof(
    fc.tuple(dotted, url).map(([d, u]) => `${d}.${u}`),
    awkwardText(40),
  );
  const bundle = fc.record(
    {
      bundleId: mutated(fc.oneof(fc.constantFrom('fuzz-1', 'a:b.c-d_e', '../x', ''), awkwardText(10))),
      outputRoot: mutated(fc.constantFrom('/data/out', 'é', '../../etc')),
      priority: mutated(fc.integer({ min: -10, max: 100 })),
      workUnits: mutated(
        fc.array(
          fc.record({
            fileName: mutated(fc.constantFrom('a.txt', '../a', 'dossier/façade.txt')),
            transactionId: mutated(fc.constant(null)),
          }),
          { maxLength: 3 },
        ),
      ),
    },
    { requiredKeys: [] },
  );
  const tpObj = fc.oneof(
    { weight: 4, arbitrary: bundle.map((value) => JSON.stringify(value)) },
    { weight: 1, arbitrary: fc.constantFrom('\u00ac\u00ed\u0000\u0005sr\u0000\u0013emissary.WorkBundle', 'rO0ABXNy', '{}', 'null', '') },
    { weight: 1, arbitrary: awkwardText(60) },
    { weight: 1, arbitrary: hugeText },
  );
  const clientName = fc.oneof(
    fc.constantFrom(PEER_CLIENT_PLACE, `*.*.*.${self}`, `${PEER_CLIENT_PLACE}.${self}`, 'no-such-place', ''),
    awkwardText(20),
  );
  const fields: Record<string, fc.Arbitrary<string>> = {
    hbf: directoryName,
    hbt: url,
    directoryName,
    targetDir: url,
    pickUpClientName: clientName,
    tpObj,
    dirFailName: directoryName,
    dirAddPropFlag: fc.constantFrom('true', 'false', ''),
    dirAddKey0: directoryName,
    dirAddKey1: directoryName,
    dirAddDesc0: awkwardText(30),
    dirAddCost0: fc.oneof(fc.constantFrom('0', '10', '21474835', '21474836', '-1', '1e3', ''), awkwardText(6)),
    dirAddQual0: fc.oneof(fc.constantFrom('0', '90', '100', '101', '-1', ''), awkwardText(6)),
  };
  /** A form of the endpoint's `names` (each present or not, now and then twice) and now and then a stray field. */
  const form = (names: string[]) =>
    fc
      .tuple(
        fc.oneof(
          { weight: 3, arbitrary: fc.record(Object.fromEntries(names.map((name) => [name, fields[name] as fc.Arbitrary<string>]))) },
          {
            weight: 1,
            arbitrary: fc.record(Object.fromEntries(names.map((name) => [name, fields[name] as fc.Arbitrary<string>])), {
              requiredKeys: [],
            }),
          },
        ),
        fc.array(fc.tuple(fc.constantFrom(...names, 'x', 'hbf', 'tpObj', ''), awkwardText(10)), { maxLength: 2 }),
        fc.integer({ min: 0, max: 20 }),
      )
      .map(([values, extra, padding]) =>
        [...Object.entries(values), ...extra, ...(padding > 15 ? Array.from({ length: padding }, (_, i) => [`f${i}`, 'v'] as const) : [])]
          .map(([name, value]) => `${formEncode(name)}=${formEncode(value as string)}`)
          .join('&'),
      );
  const formBodies = (names: string[]) =>
    fc.oneof(
      { weight: 16, arbitrary: form(names) },
      { weight: 1, arbitrary: fc.constantFrom(undefined, '', '&&&', '=', '%', '%zz=1', 'a=%E9%', 'hbf', '{"hbf":"x"}') },
      { weight: 1, arbitrary: fc.uint8Array({ maxLength: 64 }).map((bytes) => Buffer.from(bytes)) },
      { weight: 1, arbitrary: fc.constant(undefined).map(() => `tpObj=${'z'.repeat(1_048_577)}`) },
    );
  // Mostly with X-Requested-By, so the checks after it run; a garbage Authorization now and then (Digest is answered apart).
  const peerHeaders = fc
    .tuple(
      headers(
        { authorization: fc.oneof(headerValue(40), fc.constantFrom('Digest username="emissary"', 'Basic ZW1pc3Nhcnk6eA==')) },
        'application/x-www-form-urlencoded',
      ),
      fc.oneof({ weight: 8, arbitrary: fc.constantFrom('fuzz', '', 'XMLHttpRequest') }, { weight: 1, arbitrary: fc.constant(undefined) }),
    )
    .map(([set, requestedBy]) => (requestedBy === undefined ? set : { ...set, 'x-requested-by': requestedBy }));
  const digest = fc.oneof({ weight: 3, arbitrary: fc.constant(true) }, { weight: 1, arbitrary: fc.constant(false) });
  const route = (path: string, names: string[], authenticated: boolean): FuzzRoute => ({
    group: 'peer-svc',
    name: path,
    api: 'peer',
    request: requestOf(
      methodOf('POST'),
      withQuery(fc.constant(path), queryString(names)),
      peerHeaders,
      formBodies(names),
      authenticated ? digest : fc.constant(false),
    ),
  });
  return [
    route('/emissary/Heartbeat.action', ['hbf', 'hbt'], false),
    route('/emissary/RegisterPeer.action', ['directoryName', 'targetDir'], true),
    route('/emissary/AddChildDirectory.action', ['directoryName', 'targetDir'], true),
    route('/emissary/FailDirectory.action', ['targetDir', 'dirFailName', 'dirAddPropFlag'], true),
    route('/WorkSpaceClientEnqueue.action', ['pickUpClientName', 'tpObj'], true),
    route('/emissary/WorkSpaceClientEnqueue.action', ['pickUpClientName', 'tpObj'], true),
    route(
      '/emissary/RegisterPlace.action',
      ['targetDir', 'dirAddKey0', 'dirAddDesc0', 'dirAddCost0', 'dirAddQual0', 'dirAddPropFlag'],
      true,
    ),
    route('/emissary/DeregisterPlace.action', ['targetDir', 'dirAddKey0', 'dirAddKey1', 'dirAddPropFlag'], true),
    route('/emissary/TransferDirectory.action', ['targetDir', 'directoryName'], true),
    {
      group: 'peer-svc',
      name: 'GET /emissary/TransferDirectory.action',
      api: 'peer',
      request: requestOf(
        methodOf('GET', 'HEAD'),
        withQuery(
          fc.constant('/emissary/TransferDirectory.action'),
          queryString(
            ['targetDir'],
            url.map((text) => encodeURIComponent(text.toWellFormed())),
          ),
        ),
        peerHeaders,
        fc.constant(undefined),
        digest,
      ),
    },
    {
      group: 'peer-svc',
      name: '/emissary/client-places/{name}/bundles',
      api: 'peer',
      request: requestOf(
        methodOf('GET'),
        withQuery(
          fc
            .oneof({ weight: 3, arbitrary: fc.constantFrom(PEER_CLIENT_PLACE, 'no-such-place') }, { weight: 2, arbitrary: pathSegment() })
            .map((name) => `/emissary/client-places/${name}/bundles`),
          queryString(['take'], fc.constantFrom('1', '10', '100', '0', '101', '1.5', '-1')),
        ),
        peerHeaders,
        fc.constant(undefined),
        digest,
      ),
    },
    {
      group: 'peer-svc',
      name: '/emissary/directory',
      api: 'peer',
      request: requestOf(
        methodOf('GET', 'HEAD'),
        withQuery(fc.constant('/emissary/directory'), queryString(['dataId'])),
        peerHeaders,
        fc.constant(undefined),
        digest,
      ),
    },
    {
      group: 'peer-svc',
      name: '/emissary/{...}',
      api: 'peer',
      request: requestOf(methodOf('POST', 'GET'), nestedPath('/emissary/'), peerHeaders, formBodies(['hbf', 'hbt'])),
    },
  ];
};

// --- the gateway's own paths ------------------------------------------------------------------------------------

/** Whether the gateway forwards `path` (no query) to a service, by the gateway README's table. */
export function ownedByAService(path: string): boolean {
  return (OWNED_PATHS.exact as readonly string[]).includes(path) || OWNED_PATHS.prefixes.some((prefix) => path.startsWith(prefix));
}

const gatewayRoutes = (): FuzzRoute[] => {
  const own = (name: string, target: fc.Arbitrary<string>): FuzzRoute => ({
    group: 'gateway',
    name,
    api: 'gateway',
    request: requestOf(methodOf('GET', 'HEAD'), withQuery(target, queryString(['x'])), headers(), body(anyJson)),
  });
  const unknown = fc
    .array(fc.oneof(pathSegment(), fc.constantFrom('books', 'emissary', 'docs', 'metrics', 'Books', 'BOOKS')), {
      minLength: 1,
      maxLength: 3,
    })
    .map((parts) => `/${parts.join('/')}`)
    .filter((path) => !ownedByAService(path));
  return [
    own('/healthz', fc.constant('/healthz')),
    own('/readyz', fc.constant('/readyz')),
    own('/metrics', fc.constant('/metrics')),
    own('/openapi.json', fc.constant('/openapi.json')),
    own('/docs', fc.constantFrom('/docs', '/docs/', '/docs/init.js')),
    own(
      '/docs/assets/{file}',
      fc
        .oneof(
          fc.constantFrom('swagger-ui.css', 'swagger-ui-bundle.js', 'index.html', 'package.json', '', '.', '..%2Fpackage.json'),
          pathSegment(),
        )
        .map((file) => `/docs/assets/${file}`),
    ),
    own('/{unknown}', unknown),
  ];
};

/**
 * Every route of the system behind the gateway, each with the arbitrary of its requests: the catalogue
 * (catalog-svc), the dependency update API (config-svc and release-svc), the peer endpoints (peer-svc) and the
 * gateway's own paths. Requests try each route's documented methods most of the time and any other method now
 * and then; path parameters are `ctx`'s ids, numbers of every size, unicode, dot segments and broken escapes.
 */
export function fuzzRoutes(ctx: RouteContext): FuzzRoute[] {
  return [...catalogRoutes(ctx), ...configRoutes(ctx), ...releaseRoutes(ctx), ...peerRoutes(ctx), ...gatewayRoutes()];
}
