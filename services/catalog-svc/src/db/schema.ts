/** The PostgreSQL schema catalog-svc owns; no other service reads it. */
export const CATALOG_SCHEMA = 'catalog';

/** Tables of the `catalog` schema, as Kysely sees them (queries run through `withSchema(CATALOG_SCHEMA)`).
 * Each table adds itself here from its `*.table.ts`, beside the repository that owns it (`declare module`), so
 * `db/`, below every other folder, imports none of them.
 */
// biome-ignore lint/suspicious/noEmptyInterface: the *.table.ts files fill it by declaration merging
export interface CatalogDatabase {}
