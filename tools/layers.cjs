/**
 * The layout every service follows, read by `.dependency-cruiser.cjs` (import rules) and `tools/check-layout.ts` (file
 * names, folders, SQL): run both with `pnpm boundaries`.
 *
 * ROLES: every module under `services/<service>/src/` says its role in its name (`<name>.<role>.ts`), except the
 * composition roots directly in `src/` (main, start, app, config, …) and `src/db/` (`schema.ts`, `outbox.ts`,
 * `migrations/`). A role says what a module may import (see `.dependency-cruiser.cjs`):
 *
 *   routes      HTTP only: parse with the contracts, call a service, shape the answer through a mapper
 *   middleware  an express middleware (authentication, body limits) in front of routes
 *   mapper      pure: domain values to wire shapes and back (resources, event payloads, XML)
 *   consumer    a message handler: parse, call a service
 *   loop        a periodic job (service-kit's `startLoop`): calls a service
 *   service     the rules, with their I/O: calls policies, repositories and clients
 *   policy      pure rules: no I/O, no clock, no database (unit-tested as they are)
 *   repository  all SQL (Kysely), functions that take `db` or `trx`
 *   table       the types of the tables a repository beside it owns; each adds its table to the service's database
 *               interface in `db/schema.ts` (`declare module`), and each repository imports the tables it queries
 *   model       domain types the folder's modules share: types only, no logic
 *   client      a caller of another system (a peer, a registry, the code host) behind the service's own words
 *
 * LAYERS: each service's folders, top first. A folder may import a folder of a lower entry, never one of its own
 * entry (a sibling) or a higher one, and never the composition roots in `src/`. An entry keyed `<service>/<folder>`
 * orders that folder's subfolders the same way; `.` stands for the files directly in it.
 */
module.exports = {
  ROLES: ['routes', 'middleware', 'mapper', 'consumer', 'loop', 'service', 'policy', 'repository', 'table', 'model', 'client'],
  LAYERS: {
    'catalog-svc': [['http'], ['books'], ['db']],
    'config-svc': [
      ['http'],
      ['repo-listing'],
      ['config-files'],
      ['registry-credentials', 'update-configs'],
      ['repos'],
      ['accounts'],
      ['db'],
    ],
    gateway: [['http'], ['proxy'], ['metrics', 'routing']],
    'peer-svc': [['http'], ['registry', 'work-bundle'], ['security'], ['directory'], ['db']],
    'release-svc': [
      ['http'],
      [
        'notifications',
        'update-runs',
        'schedules',
        'registry-watch',
        'webhooks',
        'pull-requests',
        'config-changes',
        'badges',
        'upgrades',
        'ignores',
      ],
      ['pipeline'],
      ['jobs', 'runs', 'config-files', 'commands'],
      ['advisories'],
      ['read-model'],
      ['installations', 'write-budget', 'bot-account', 'repo-labels'],
      ['access', 'db'],
    ],
    'release-svc/pipeline': [['.', 'deliver'], ['record'], ['decide'], ['resolve'], ['extract'], ['read']],
  },
};
