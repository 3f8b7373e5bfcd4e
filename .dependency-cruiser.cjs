/**
 * Import boundaries: services never import each other; packages never import services or apps; only apps (the
 * standalone launcher), the end-to-end suite and the benchmarks may import services; the GitHub emulator
 * (packages/github-emulator) and the package-registry emulator (packages/registry-emulator) are for tests, the
 * standalone launcher, the end-to-end suite and the benchmarks only;
 * inside a service, imports go down `http/` → `*.service.ts` → `*.repository.ts`, never back up.
 * Run with `pnpm boundaries`.
 */
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
    {
      name: 'layers-go-down',
      comment:
        'A domain service or repository knows nothing of HTTP: it returns domain values and throws domain errors, and ' +
        'the mappers to wire shapes live in http/. Imports go http/ → *.service.ts → *.repository.ts.',
      severity: 'error',
      from: { path: '(^|/)[^/]+\\.(service|repository)\\.ts$' },
      to: { path: '^services/[^/]+/src/http/' },
    },
    {
      name: 'repositories-below-services',
      comment: 'A repository holds SQL only; it never calls a domain service.',
      severity: 'error',
      from: { path: '(^|/)[^/]+\\.repository\\.ts$' },
      to: { path: '(^|/)[^/]+\\.service\\.ts$' },
    },
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
