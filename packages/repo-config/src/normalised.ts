/** What reading one file version's document gives: its configs, the problems beyond its schema, what was skipped. */
import type { ConfigProblem, FileUpdateConfig, SkippedEntry } from './model.ts';

/** The outcome of `normaliseV1` / `normaliseV2`; the file is invalid when `problems` is not empty. */
export interface Normalised {
  configs: FileUpdateConfig[];
  problems: ConfigProblem[];
  skipped: SkippedEntry[];
}
