import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { jsonFilesIn, SeedError, seedFormat } from '../src/index.ts';

const dir = mkdtempSync(join(tmpdir(), 'seed-files-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const format = seedFormat('test seed', z.strictObject({ users: z.array(z.string().min(1)), limit: z.number().default(5) }));

describe('seedFormat', () => {
  it('validates a seed with its schema, defaults applied, and lists every problem with the source', () => {
    expect(format.parse({ users: ['alice'] })).toEqual({ users: ['alice'], limit: 5 });
    const error = (() => {
      try {
        format.parse({ users: [''], extra: 1 }, 'my.json');
      } catch (caught) {
        return caught;
      }
    })();
    expect(error).toBeInstanceOf(SeedError);
    expect((error as SeedError).message).toMatch(/^invalid test seed \(my\.json\):\n {2}/);
    expect((error as SeedError).problems).toHaveLength(2);
  });

  it('reads a JSON file, naming the file when it is not JSON or not a valid seed', () => {
    const good = join(dir, 'good.json');
    writeFileSync(good, '{"users":["bob"]}');
    expect(format.loadFile(good)).toEqual({ users: ['bob'], limit: 5 });
    const broken = join(dir, 'broken.json');
    writeFileSync(broken, '{"users":');
    expect(() => format.loadFile(broken)).toThrow(new RegExp(`invalid test seed \\(${broken}\\):\\n {2}not JSON: `));
    expect(() => format.readJson(broken)).toThrow(SeedError);
    const invalid = join(dir, 'invalid.json');
    writeFileSync(invalid, '{"users":[1]}');
    expect(() => format.loadFile(invalid)).toThrow(`invalid test seed (${invalid})`);
    expect(format.error('part.json', ['files: wrong']).message).toBe('invalid test seed (part.json):\n  files: wrong');
  });
});

describe('jsonFilesIn', () => {
  it("lists a directory's .json files in name order, and nothing for a missing directory", () => {
    const parts = mkdtempSync(join(dir, 'parts-'));
    for (const name of ['b.json', 'a.json', 'notes.txt', 'c.json.bak']) writeFileSync(join(parts, name), '{}');
    expect(jsonFilesIn(parts)).toEqual([join(parts, 'a.json'), join(parts, 'b.json')]);
    expect(jsonFilesIn(join(dir, 'absent'))).toEqual([]);
  });
});
