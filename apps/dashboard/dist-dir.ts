import { fileURLToPath } from 'node:url';

/** Absolute path of the dashboard's build output (`pnpm --filter @switchyard/dashboard build` writes it). */
export const dashboardDistDir = fileURLToPath(new URL('./dist/', import.meta.url));
