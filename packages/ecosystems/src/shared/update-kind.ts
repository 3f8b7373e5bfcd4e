import type { UpdateKind } from '../ecosystem.ts';

/**
 * The kind of an update between two `[major, minor, patch]` triples by position alone: `major` when the first position
 * differs, `minor` when the second does, `patch` otherwise (also when only a pre-release/qualifier part changed).
 * Schemes whose ecosystem treats a 0.x bump as breaking refine it with {@link kindWithin}.
 */
export function updateKindOf(from: readonly number[], to: readonly number[]): UpdateKind {
  if ((from[0] ?? 0) !== (to[0] ?? 0)) return 'major';
  if ((from[1] ?? 0) !== (to[1] ?? 0)) return 'minor';
  return 'patch';
}

/**
 * The kind of an update under an ecosystem's compatibility rule: `major` (breaking) when `compatible` is false, i.e. the
 * ecosystem does not promise `to` works where `from` did (outside the requirement it writes by default for `from`, as
 * npm's `^0.7.3` does not allow 0.8.5, or Go's unstable v0); otherwise the positional kind of {@link updateKindOf}.
 */
export function kindWithin(from: readonly number[], to: readonly number[], compatible: boolean): UpdateKind {
  return compatible ? updateKindOf(from, to) : 'major';
}

/** The first three numbers of `parts`, padded with 0: `[1, 2]` → `[1, 2, 0]`. */
export function triple(parts: readonly number[]): [number, number, number] {
  return [parts[0] ?? 0, parts[1] ?? 0, parts[2] ?? 0];
}
