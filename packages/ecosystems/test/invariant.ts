import { expect } from 'vitest';
import type { DependencyUse, Ecosystem } from '../src/index.ts';

/**
 * `ecosystem.listDependencies(files)`, after asserting its two guarantees: every listed use is exactly what
 * `findDependency(files, use.name)` returns, and no name (after `normaliseName`) is listed twice.
 */
export function listChecked(ecosystem: Ecosystem, files: Readonly<Record<string, string>>): DependencyUse[] {
  const list = ecosystem.listDependencies(files);
  for (const use of list) expect(ecosystem.findDependency(files, use.name), use.name).toEqual(use);
  const names = list.map((use) => ecosystem.normaliseName(use.name));
  expect(new Set(names).size, 'names listed once').toBe(names.length);
  return list;
}

/** `[name, type, requirement, version]` of each use, a compact form for order-sensitive expectations. */
export const rows = (list: readonly DependencyUse[]) => list.map((use) => [use.name, use.type, use.requirement, use.version]);
