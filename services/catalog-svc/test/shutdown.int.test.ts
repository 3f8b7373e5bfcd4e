import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { Agent, get } from 'node:http';
import { createTestDatabase, ProcessStack } from '@switchyard/service-kit/testing';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';

/**
 * `node src/main.ts` stopped by a signal while clients keep their keep-alive connections busy: it must exit as soon
 * as the requests in flight are answered, not hold the connections open until the HTTP grace period runs out.
 */

const catalogMain = new URL('../src/main.ts', import.meta.url).pathname;
/** Keep-alive connections of the load. */
const CONNECTIONS = 50;
/** How long the process may take from the signal to its exit (the HTTP grace alone is 5 s). */
const EXIT_BOUND_MS = 3_000;

/** `CONNECTIONS` clients sending `GET /books` back to back on keep-alive connections until `stop()`. */
function keepAliveLoad(url: string) {
  const agent = new Agent({ keepAlive: true, maxSockets: CONNECTIONS });
  let running = true;
  let answered = 0;
  const once = () =>
    new Promise<void>((resolve) => {
      get(`${url}/books`, { agent }, (res) => {
        res.resume();
        res.on('end', () => {
          answered += 1;
          resolve();
        });
        res.on('error', () => resolve());
      }).on('error', () => setTimeout(resolve, 10));
    });
  const clients = Array.from({ length: CONNECTIONS }, async () => {
    while (running) await once();
  });
  return {
    answered: () => answered,
    stop: async () => {
      running = false;
      agent.destroy();
      await Promise.all(clients);
    },
  };
}

describe('catalog-svc stopped by a signal under keep-alive load', () => {
  const processes = new ProcessStack();
  let databaseUrl: string;

  beforeAll(async () => {
    const database = await createTestDatabase(inject('databaseUrl'), 'catalog_shutdown');
    processes.defer(() => database.drop());
    databaseUrl = database.url;
  });
  afterAll(() => processes.disposeAsync());

  for (const signal of ['SIGINT', 'SIGTERM'] as const) {
    it(`exits with status 0 within ${EXIT_BOUND_MS / 1000} s of ${signal}`, { timeout: 40_000 }, async ({ annotate }) => {
      const catalog = await processes.service(catalogMain, { DATABASE_URL: databaseUrl });
      const load = keepAliveLoad(catalog.url);
      try {
        const warm = Date.now() + 10_000;
        while (load.answered() < 500 && Date.now() < warm) await new Promise((resolve) => setTimeout(resolve, 20));
        expect(load.answered(), 'the load never got going').toBeGreaterThanOrEqual(500);
        const sent = performance.now();
        // The SIGKILL fallback waits far longer than the bound, so the exit measured is the process's own.
        const code = await catalog.stop(signal, 20_000);
        const tookMs = Math.round(performance.now() - sent);
        await annotate(`${signal}: exited with ${code} after ${tookMs} ms (${load.answered()} requests answered)`);
        expect(code, catalog.output().slice(-2_000)).toBe(0);
        expect(tookMs).toBeLessThan(EXIT_BOUND_MS);
      } finally {
        await load.stop();
      }
    });
  }

  it('exits with status 1 and the configuration problem in plain words when it cannot start', async () => {
    const child = spawn(process.execPath, [catalogMain], {
      env: { ...process.env, DATABASE_URL: databaseUrl, PORT: 'eighty', LOG_LEVEL: 'silent' },
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    let stderr = '';
    child.stderr.on('data', (chunk) => {
      stderr += chunk;
    });
    const [code] = await once(child, 'exit');
    expect(code).toBe(1);
    expect(stderr).toMatch(/^catalog-svc could not start: catalog-svc: invalid configuration\n {2}PORT: /);
    expect(stderr).not.toContain('    at ');
  });
});
