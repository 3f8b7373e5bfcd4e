import type { BookTable } from '../books/book.table.ts';

/** The PostgreSQL schema catalog-svc owns; no other service reads it. */
export const CATALOG_SCHEMA = 'catalog';

/** Tables of the `catalog` schema, as Kysely sees them (queries run through `withSchema(CATALOG_SCHEMA)`). */
export interface CatalogDatabase {
  book: BookTable;
}
