import type { ColumnType } from 'kysely';

/**
 * `release.write_budget`: the token buckets of content-creating code-host requests, one per key (an installation, or the
 * personal token) and limit window, shared by every worker (see `bookWrites`).
 */
export interface WriteBudgetTable {
  key: string;
  window_ms: number;
  tokens: number;
  /** When `tokens` was computed, epoch ms. */
  at_ms: ColumnType<number, number, number>;
}

declare module '../db/schema.ts' {
  interface ReleaseDatabase {
    write_budget: WriteBudgetTable;
  }
}
