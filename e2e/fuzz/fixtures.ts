import { sendRaw } from './raw-request.ts';
import type { RouteContext } from './route-table.ts';
import { DEMO_TOKENS, type FuzzStack } from './stack.ts';

/** POSTs `json` through the gateway and returns the parsed answer. @throws Error unless it answered `status` */
async function create(stack: FuzzStack, path: string, json: unknown, status: number, headers: Record<string, string> = {}) {
  const res = await sendRaw(stack.gatewayUrl, {
    method: 'POST',
    target: path,
    headers: { 'content-type': 'application/json', ...headers },
    body: JSON.stringify(json),
  });
  if (res.status !== status) throw new Error(`POST ${path} answered ${res.status}, not ${status}: ${res.text}`);
  return JSON.parse(res.text);
}

/** How long "bump now" of a new update config may answer 404, while release-svc's read model has not heard of it yet. */
const READ_MODEL_WAIT_MS = 30_000;

/**
 * Starts an update run of config `id` with "bump now" as `token`, again while release-svc answers 404 (its read
 * model learns of a new config from config-svc's events).
 * @returns the run's id
 * @throws Error when it is not answered 202 within {@link READ_MODEL_WAIT_MS}
 */
async function bumpNow(stack: FuzzStack, id: string, token: string): Promise<string> {
  const target = `/update_configs/${id}/trigger_update_job`;
  const deadline = Date.now() + READ_MODEL_WAIT_MS;
  for (;;) {
    const res = await sendRaw(stack.gatewayUrl, { method: 'POST', target, headers: { authorization: `Personal ${token}` } });
    if (res.status === 202) return String(JSON.parse(res.text).data.id);
    if (res.status !== 404 || Date.now() > deadline) throw new Error(`POST ${target} answered ${res.status}, not 202: ${res.text}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/**
 * Creates, through the gateway, what the fuzzed requests can then find: three books, two update configs (alice's on
 * acme's web-storefront, bob's on his own bob-scripts), a release notification, a registry credential (alice's, for
 * acme's pip registry) and an update run of each config ("bump now" by its owner), and returns their ids with
 * peer-svc's directory place URL.
 * @throws Error when one of them is not created
 */
export async function seedFixtures(stack: FuzzStack): Promise<RouteContext> {
  const bookIds: string[] = [];
  for (const [Name, Author, Year] of [
    ['Dune', 'Frank Herbert', 1965],
    ['Émile', 'Jean-Jacques Rousseau', 1762],
    ['Neuromancer', 'William Gibson', 1984],
  ] as const) {
    bookIds.push(String((await create(stack, '/books', { Name, Author, Price: 9.5, Year }, 201)).Id));
  }
  const config = (token: string, repoId: number, accountId: string, accountType: string, packageManager: string) =>
    create(
      stack,
      '/update_configs',
      {
        'repo-id': repoId,
        'account-id': accountId,
        'account-type': accountType,
        directory: '/',
        'update-schedule': 'daily',
        'package-manager': packageManager,
      },
      201,
      { authorization: `Personal ${token}` },
    );
  const updateConfigIds = [
    String((await config(DEMO_TOKENS.alice, 3101, '2001', 'org', 'npm_and_yarn')).data.id),
    String((await config(DEMO_TOKENS.bob, 3401, '1002', 'user', 'pip')).data.id),
  ];
  const notification = await create(
    stack,
    '/release_notifications/private',
    { name: 'lodash', version: '4.17.21', 'package-manager': 'npm_and_yarn' },
    202,
    {
      authorization: `Personal ${DEMO_TOKENS.alice}`,
      prefer: 'return=representation',
    },
  );
  const credential = await create(
    stack,
    '/registry_credentials',
    {
      'account-id': 2001,
      'package-manager': 'pip',
      'base-url': 'https://pypi.acme.invalid/simple/',
      'auth-type': 'token',
      token: 'fuzz-fixture-token',
    },
    201,
    { authorization: `Personal ${DEMO_TOKENS.alice}` },
  );
  const updateRunIds = [
    await bumpNow(stack, updateConfigIds[0] as string, DEMO_TOKENS.alice),
    await bumpNow(stack, updateConfigIds[1] as string, DEMO_TOKENS.bob),
  ];
  return {
    peerSelfUrl: stack.peerSelfUrl,
    bookIds,
    updateConfigIds,
    notificationIds: [String(notification.data.id)],
    registryCredentialIds: [String(credential.data.id)],
    updateRunIds,
  };
}
