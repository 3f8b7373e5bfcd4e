import { defineConfig } from 'vitest/config';

const globalSetup = ['./packages/service-kit/src/testing/global-setup.ts'];

/**
 * `compose`: the smoke suite of the running compose stack (`e2e/compose/`), driven through its gateway at
 * COMPOSE_GATEWAY_URL. It exists only when that variable is set, so `pnpm test` never expects a stack.
 */
const composeProject = process.env.COMPOSE_GATEWAY_URL
  ? [
      {
        extends: true,
        test: { name: 'compose', include: ['e2e/compose/**/*.compose.test.ts'], testTimeout: 60_000, hookTimeout: 120_000 },
      },
    ]
  : [];

/**
 * Four projects, and `compose` above: `unit` needs nothing running; `integration` (real PostgreSQL) and `e2e` (services as
 * real processes, driven over HTTP) take the server from TEST_DATABASE_URL (see the global setup); `browser` drives the
 * dashboard in Debian's Chromium against the one-process launcher on its embedded defaults.
 * Two workers: the machines this runs on have two cores.
 */
export default defineConfig({
  test: {
    maxWorkers: 2,
    projects: [
      {
        extends: true,
        test: {
          name: 'unit',
          include: ['{packages,services,apps}/*/test/**/*.test.ts', 'deploy/*/test/**/*.test.ts'],
          exclude: ['**/*.int.test.ts', '**/node_modules/**'],
          // Embedded PGlite takes seconds to start on a busy two-core machine.
          testTimeout: 15_000,
        },
      },
      {
        extends: true,
        test: {
          name: 'integration',
          include: ['{packages,services,apps}/*/test/**/*.int.test.ts'],
          globalSetup,
          testTimeout: 20_000,
          hookTimeout: 30_000,
        },
      },
      {
        extends: true,
        test: {
          name: 'e2e',
          include: ['e2e/**/*.e2e.test.ts'],
          globalSetup,
          testTimeout: 30_000,
          hookTimeout: 90_000,
        },
      },
      {
        extends: true,
        test: {
          name: 'browser',
          include: ['e2e/browser/**/*.browser.test.ts'],
          // One launcher and one Chromium for the file; its flows wait for runs and pull requests.
          testTimeout: 90_000,
          hookTimeout: 240_000,
        },
      },
      ...composeProject,
    ],
  },
});
