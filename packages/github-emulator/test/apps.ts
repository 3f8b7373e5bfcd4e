import { request, type TestResponse } from '@switchyard/service-kit/testing';
import { type AppJwtClaims, DEMO_APP, loadDemoSeed, signAppJwt } from '../src/index.ts';

/** The demo App's private key (a demo key, committed in `demo-seed.json`). */
export const DEMO_APP_KEY = (() => {
  const key = loadDemoSeed().apps.find((app) => app.id === DEMO_APP.id)?.privateKey;
  if (key === undefined) throw new Error('the demo seed has no private key for its App');
  return key;
})();

/** A JWT of the demo App at `nowMs` as an App makes one (iat 60 s back, exp 9 minutes on), with `claims` overriding. */
export function demoJwt(nowMs: number, claims: Partial<AppJwtClaims> = {}, key: string = DEMO_APP_KEY): string {
  const now = Math.floor(nowMs / 1000);
  return signAppJwt(key, { iss: DEMO_APP.id, iat: now - 60, exp: now + 540, ...claims });
}

/** Requests to the emulator at `baseUrl` with `Authorization: Bearer <token>` (JSON bodies). */
export function bearer(baseUrl: string, token: string) {
  const send = (method: string, path: string, body?: unknown): Promise<TestResponse> =>
    request(baseUrl, method, path, { headers: { authorization: `Bearer ${token}` }, ...(body === undefined ? {} : { body }) });
  return {
    get: (path: string) => send('GET', path),
    post: (path: string, body?: unknown) => send('POST', path, body),
    put: (path: string, body?: unknown) => send('PUT', path, body),
    patch: (path: string, body?: unknown) => send('PATCH', path, body),
    del: (path: string, body?: unknown) => send('DELETE', path, body),
  };
}

/** Mints an installation access token of the demo App at `nowMs` (asserting 201); `body` narrows it. */
export async function mintToken(baseUrl: string, nowMs: number, installationId: number, body?: unknown): Promise<TestResponse['body']> {
  const res = await bearer(baseUrl, demoJwt(nowMs)).post(`/app/installations/${installationId}/access_tokens`, body);
  if (res.status !== 201) throw new Error(`access_tokens ${installationId}: ${res.status} ${res.text}`);
  return res.body;
}
