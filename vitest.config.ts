import { defineConfig } from 'vitest/config';

const globalSetup = ['./packages/service-kit/src/testing/global-setup.ts'];

/**
 * Three projects: `unit` needs nothing running; `integration` (real PostgreSQL) and `e2e` (services as
 * real processes, driven over HTTP) take the server from TEST_DATABASE_URL (see the global setup).
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
          include: ['{packages,services,apps}/*/test/**/*.test.ts'],
          exclude: ['**/*.int.test.ts', '**/node_modules/**'],
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
    ],
  },
});
