import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

const ROOT = join(import.meta.dirname, 'fixtures');

/** The files of `test/fixtures/<dir>` as the worker passes them: file name → text (optionally only `only`). */
export function fixture(dir: string, only?: readonly string[]): Record<string, string> {
  const names = readdirSync(join(ROOT, dir)).filter((name) => !only || only.includes(name));
  return Object.fromEntries(names.map((name) => [name, readFileSync(join(ROOT, dir, name), 'utf8')]));
}

/** Sorts a shuffled copy of `versions` with `compare` (a reversed copy is a good worst case for ordering tables). */
export function sorted(versions: readonly string[], compare: (a: string, b: string) => number): string[] {
  return [...versions].reverse().sort(compare);
}
