import type { ScanOutcome } from '@switchyard/contracts';
import type { Generated } from 'kysely';

/** `release.scan_result`: what one notification did with one update config (written once it is final). */
export interface ScanResultTable {
  notification_id: string;
  update_config_id: number;
  repo_id: number;
  account_id: number;
  outcome: ScanOutcome;
  reason: string;
  recorded_at: Generated<Date>;
}

declare module '../../db/schema.ts' {
  interface ReleaseDatabase {
    scan_result: ScanResultTable;
  }
}
