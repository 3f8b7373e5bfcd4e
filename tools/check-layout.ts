/**
 * What `pnpm boundaries` checks beside dependency-cruiser's import rules, for every service (`services/<name>/src/`):
 * 1. every module says its role in its name (`<name>.<role>.ts`, the roles of `tools/layers.cjs`), except the
 *    composition roots directly in `src/` and `src/db/` (`schema.ts`, `outbox.ts`, `migrations/`);
 * 2. every folder is declared in the service's `LAYERS` (a folder the import rules do not know would escape them);
 * 3. no Kysely statement (`selectFrom`, `insertInto`, `updateTable`, `deleteFrom`, `replaceInto`, `mergeInto`,
 *    `selectNoFrom`, or the `sql` template) outside `*.repository.ts`, migrations excepted.
 * Prints each problem with its file and exits 1 when there is one.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join, relative } from 'node:path';

const root = join(import.meta.dirname, '..');
const { ROLES, LAYERS } = createRequire(import.meta.url)('./layers.cjs') as { ROLES: string[]; LAYERS: Record<string, string[][]> };
const roleName = new RegExp(`\\.(${ROLES.join('|')})\\.ts$`);
const statement =
  /\.(selectFrom|insertInto|updateTable|deleteFrom|replaceInto|mergeInto|selectNoFrom)\s*\(|\bsql\s*(<[^>]*>)?\s*`|\bsql\.(raw|ref|id|lit|val|join|table)\s*\(/;

/** Every `.ts` file below `dir`, as paths relative to it. */
function filesUnder(dir: string): string[] {
  return readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile() && entry.name.endsWith('.ts'))
    .map((entry) => relative(dir, join(entry.parentPath, entry.name)));
}

/** The folders a service's `LAYERS` declare: `notifications`, `pipeline/read`, … */
function declaredFolders(service: string): Set<string> {
  const folders = new Set<string>();
  for (const [key, entries] of Object.entries(LAYERS)) {
    const [name, ...under] = key.split('/');
    if (name !== service) continue;
    for (const folder of entries.flat()) if (folder !== '.') folders.add([...under, folder].join('/'));
  }
  return folders;
}

const problems: string[] = [];
for (const service of readdirSync(join(root, 'services')).sort()) {
  const src = join(root, 'services', service, 'src');
  const declared = declaredFolders(service);
  if (declared.size === 0) problems.push(`services/${service}: no LAYERS entry in tools/layers.cjs`);
  for (const file of filesUnder(src)) {
    const path = `services/${service}/src/${file}`;
    const parts = file.split('/');
    const inDb = parts[0] === 'db';
    if (parts.length > 1 && !inDb) {
      // The file's folder, and its parent folders, as far as LAYERS orders subfolders.
      const folder = parts.slice(0, -1).join('/');
      const top = parts[0] as string;
      const nested = LAYERS[`${service}/${top}`] ? parts.slice(0, 2).join('/') : top;
      const owner = parts.length > 2 && LAYERS[`${service}/${top}`] ? nested : top;
      if (!declared.has(owner)) problems.push(`${path}: its folder ${folder}/ is not declared in tools/layers.cjs (LAYERS['${service}'])`);
      if (!roleName.test(file)) problems.push(`${path}: no role in its name (<name>.<role>.ts, role one of ${ROLES.join(', ')})`);
    }
    if (inDb && !(file === 'db/schema.ts' || file === 'db/outbox.ts' || file.startsWith('db/migrations/'))) {
      problems.push(`${path}: db/ holds schema.ts, outbox.ts and migrations/ only`);
    }
    if (file.endsWith('.repository.ts') || file.startsWith('db/migrations/')) continue;
    readFileSync(join(src, file), 'utf8')
      .split('\n')
      .forEach((line, index) => {
        if (statement.test(line)) problems.push(`${path}:${index + 1}: SQL outside a repository: ${line.trim().slice(0, 100)}`);
      });
  }
}
for (const problem of problems) process.stderr.write(`${problem}\n`);
process.stdout.write(`check-layout: ${problems.length === 0 ? 'ok' : `${problems.length} problem(s)`}\n`);
process.exit(problems.length === 0 ? 0 : 1);
