import type { ColumnType, Generated } from 'kysely';

/** `release.repo_label`: a label this service made in a repository (or found there), by lower-cased name. */
export interface RepoLabelTable {
  repo_id: ColumnType<number, number, never>;
  name: string;
  made_at: Generated<Date>;
}

/** `release.repo_label_claim`: a worker making a repository's missing labels now (one at a time per repository). */
export interface RepoLabelClaimTable {
  repo_id: ColumnType<number, number, never>;
  claimed_at: Generated<Date>;
}

declare module '../db/schema.ts' {
  interface ReleaseDatabase {
    repo_label: RepoLabelTable;
    repo_label_claim: RepoLabelClaimTable;
  }
}
