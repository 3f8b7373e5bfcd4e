import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';

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

/**
 * The files of `test/fixtures/<dir>` and its subdirectories, keyed by their path inside it (`.github/workflows/ci.yml`,
 * `vendor/lib`) as the worker gives them; READMEs left out.
 */
export function fixtureTree(dir: string): Record<string, string> {
  const root = join(ROOT, dir);
  const out: Record<string, string> = {};
  const walk = (at: string) => {
    for (const entry of readdirSync(at, { withFileTypes: true })) {
      const path = join(at, entry.name);
      if (entry.isDirectory()) walk(path);
      else if (entry.name !== 'README.md') out[relative(root, path).split('\\').join('/')] = readFileSync(path, 'utf8');
    }
  };
  walk(root);
  return out;
}
