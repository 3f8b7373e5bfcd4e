/**
 * Import boundaries (DESIGN.md): services never import each other; packages never import services or
 * apps; only apps (the standalone launcher), the end-to-end suite and the benchmarks may import services.
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
