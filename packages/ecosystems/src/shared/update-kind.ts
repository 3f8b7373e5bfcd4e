import type { UpdateKind } from '../ecosystem.ts';

/**
 * The kind of update between two `[major, minor, patch]` triples: `major` when the first position differs,
 * `minor` when the second does, `patch` otherwise (also when only a pre-release/qualifier part changed).
 * Positional on purpose, also for 0.x versions: `0.1.0 → 0.2.0` is `minor`.
 */
export function updateKindOf(from: readonly number[], to: readonly number[]): UpdateKind {
  if ((from[0] ?? 0) !== (to[0] ?? 0)) return 'major';
  if ((from[1] ?? 0) !== (to[1] ?? 0)) return 'minor';
  return 'patch';
}

/** The first three numbers of `parts`, padded with 0: `[1, 2]` → `[1, 2, 0]`. */
export function triple(parts: readonly number[]): [number, number, number] {
  return [parts[0] ?? 0, parts[1] ?? 0, parts[2] ?? 0];
}
