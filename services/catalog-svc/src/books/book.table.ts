import type { Generated, Insertable, Selectable } from 'kysely';

/** `catalog.book`: one row per book; `version` grows by one on every change and backs the ETag. */
export interface BookTable {
  id: Generated<number>;
  name: string;
  author: string;
  price: number;
  year: number;
  version: Generated<number>;
  created_at: Generated<Date>;
  updated_at: Generated<Date>;
}

declare module '../db/schema.ts' {
  interface CatalogDatabase {
    book: BookTable;
  }
}
export type BookRow = Selectable<BookTable>;
export type NewBookRow = Insertable<BookTable>;

/** A book as the service reads it: its fields and `version`, without the timestamps. */
export type StoredBook = Pick<BookRow, 'id' | 'name' | 'author' | 'price' | 'year' | 'version'>;
