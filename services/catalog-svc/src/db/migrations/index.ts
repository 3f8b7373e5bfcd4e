import type { Migration } from '@switchyard/service-kit';
import * as createBook from './2026_11_21_0001_create_book.ts';

/** Every migration of the `catalog` schema by name; names sort in the order they apply. */
export const catalogMigrations: Record<string, Migration> = {
  '2026_11_21_0001_create_book': createBook,
};
