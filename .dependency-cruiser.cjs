/**
 * Import boundaries: services never import each other; packages never import services or apps; only apps (the
 * standalone launcher), the end-to-end suite and the benchmarks may import services; the GitHub emulator
 * (packages/github-emulator) and the package-registry emulator (packages/registry-emulator) are for tests, the
 * standalone launcher, the end-to-end suite and the benchmarks only. Inside a service, the rules of `tools/layers.cjs`:
 * each module's role (routes → services → repositories, and nothing upward) and each folder's layer (no sibling
 * folders, nothing upward). `tools/check-layout.ts` checks what imports cannot show: that every file has a role and a
 * declared folder, and that SQL is only in repositories. Run both with `pnpm boundaries`.
 */
const { LAYERS } = require('./tools/layers.cjs');

const SERVICE_SRC = '^services/[^/]+/src/';
/** Files of these roles, anywhere in a service's sources. */
const role = (...roles) => `${SERVICE_SRC}.*\\.(${roles.join('|')})\\.ts$`;
const escapeRegExp = (text) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/**
 * What each role may not import (by the imported module's role). Composition roots (`src/*.ts`) and `src/db/` import
 * what they wire; tests are outside these rules.
 */
const ROLE_RULES = [
  [
    'routes',
    ['repository', 'consumer', 'loop'],
    'Routes parse, call a service and map its answer: SQL, handlers and loops are below them.',
  ],
  ['middleware', ['routes', 'repository', 'consumer', 'loop'], 'A middleware stands in front of routes and calls services only.'],
  ['mapper', ['routes', 'middleware', 'repository', 'consumer', 'loop', 'client'], 'A mapper is pure: shapes in, shapes out.'],
  ['consumer', ['routes', 'middleware', 'repository', 'loop'], 'A consumer parses a message and calls a service.'],
  ['loop', ['routes', 'middleware', 'repository', 'consumer'], 'A loop calls a service each round.'],
  ['service', ['routes', 'middleware', 'consumer', 'loop'], 'A service knows nothing of HTTP, messages or timers: those call it.'],
  ['policy', ['routes', 'middleware', 'consumer', 'loop', 'service', 'repository', 'client'], 'A policy is pure: no I/O.'],
  ['repository', ['routes', 'middleware', 'consumer', 'loop', 'service', 'mapper', 'client'], 'A repository holds SQL only.'],
  ['table', ['routes', 'middleware', 'consumer', 'loop', 'service', 'repository', 'mapper', 'client'], 'Table types import types only.'],
  ['model', ['routes', 'middleware', 'consumer', 'loop', 'service', 'repository', 'mapper', 'client'], 'A model holds types only.'],
  [
    'client',
    ['routes', 'middleware', 'consumer', 'loop', 'service', 'repository'],
    'A client calls another system, nothing of ours above it.',
  ],
].map(([from, forbidden, comment]) => ({
  name: `role-${from}`,
  comment: `${comment} (tools/layers.cjs)`,
  severity: 'error',
  from: { path: role(from) },
  to: { path: role(...forbidden) },
}));

/**
 * The folder rules of `LAYERS`: for each folder, the folders of its own entry and of every higher one are off limits,
 * and so are the composition roots of `src/`. (`db/`, the lowest, imports no table: each `*.table.ts` adds its table
 * to the schema's interface by declaration merging.)
 */
function layerRules() {
  const rules = [];
  for (const [key, entries] of Object.entries(LAYERS)) {
    const [service, ...under] = key.split('/');
    const base = `^services/${escapeRegExp(service)}/src/${under.map((part) => `${escapeRegExp(part)}/`).join('')}`;
    const at = (folder) => (folder === '.' ? `${base}[^/]+\\.ts$` : `${base}${escapeRegExp(folder)}/`);
    entries.forEach((entry, level) => {
      for (const folder of entry) {
        const above = entries
          .slice(0, level + 1)
          .flat()
          .filter((other) => other !== folder);
        const targets = [...above.map(at), ...(under.length === 0 ? [`^services/${escapeRegExp(service)}/src/[^/]+\\.ts$`] : [])];
        if (targets.length === 0) continue;
        rules.push({
          name: `layers-${key.replace('/', '-')}-${folder === '.' ? 'root' : folder}`,
          comment: `${key}: ${folder}/ imports only folders below it (tools/layers.cjs): no sibling, nothing above, no composition root.`,
          severity: 'error',
          from: { path: at(folder) },
          to: { path: `(${targets.join('|')})`, ...(folder === '.' ? {} : { pathNot: `^${at(folder).slice(1)}` }) },
        });
      }
    });
  }
  return rules;
}

module.exports = {
  forbidden: [
    {
      name: 'no-service-to-service',
      comment: 'A service talks to another only over HTTP or the message bus; they share code through packages/ alone.',
      severity: 'error',
      from: { path: '^services/([^/]+)/' },
      to: { path: '^services/([^/]+)/', pathNot: '^services/$1/' },
    },
    {
      name: 'no-service-package-by-name',
      comment: 'Importing another service through its package name is the same coupling.',
      severity: 'error',
      from: { path: '^services/' },
      to: { path: 'node_modules/@switchyard/(gateway|[a-z-]+-svc)/' },
    },
    {
      name: 'packages-stay-below-services',
      comment: 'Shared packages must not depend on services or apps.',
      severity: 'error',
      from: { path: '^packages/' },
      to: { path: '^(services|apps)/' },
    },
    {
      name: 'github-emulator-not-in-production',
      comment:
        'The GitHub emulator is a test double: production code of services and packages must not import it. Tests, apps/standalone, ' +
        'e2e/ and bench/ may.',
      severity: 'error',
      from: {
        path: '^(packages|services|apps|deploy)/',
        pathNot: '^(packages/github-emulator/|(packages|services|apps)/[^/]+/test/|deploy/[^/]+/test/|apps/standalone/)',
      },
      to: { path: '^packages/github-emulator/|node_modules/@switchyard/github-emulator/' },
    },
    {
      name: 'registry-emulator-not-in-production',
      comment:
        'The package-registry emulator is a test double: production code of services and packages must not import it. Tests, ' +
        'apps/standalone, e2e/ and bench/ may.',
      severity: 'error',
      from: {
        path: '^(packages|services|apps|deploy)/',
        pathNot: '^(packages/registry-emulator/|(packages|services|apps)/[^/]+/test/|deploy/[^/]+/test/|apps/standalone/)',
      },
      to: { path: '^packages/registry-emulator/|node_modules/@switchyard/registry-emulator/' },
    },
    ...ROLE_RULES,
    ...layerRules(),
    {
      name: 'no-unresolvable',
      comment: 'An import nothing resolves to is a missing dependency (or a way around the rules above).',
      severity: 'error',
      from: {},
      to: { couldNotResolve: true },
    },
    {
      name: 'no-circular',
      severity: 'error',
      from: {},
      to: { circular: true },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    exclude: { path: '(^|/)node_modules/' },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.base.json' },
    enhancedResolveOptions: { exportsFields: ['exports'], conditionNames: ['import', 'default'], extensions: ['.ts', '.js'] },
    preserveSymlinks: false,
  },
};
