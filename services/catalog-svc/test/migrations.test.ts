import { readdirSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { catalogMigrations } from '../src/db/migrations/index.ts';

describe('catalog migrations', () => {
  it('lists every migration file in name order', () => {
    const files = readdirSync(new URL('../src/db/migrations/', import.meta.url))
      .filter((file) => file !== 'index.ts')
      .map((file) => file.replace(/\.ts$/, ''))
      .sort();
    expect(Object.keys(catalogMigrations)).toEqual(files);
  });
});
