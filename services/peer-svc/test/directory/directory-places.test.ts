import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ConfigError } from '@switchyard/service-kit';
import { describe, expect, it } from 'vitest';
import { loadDirectoryPlaces } from '../../src/config.ts';
import { parseDirectoryPlaces } from '../../src/directory/directory-places.policy.ts';

const SELF = 'EMISSARY_DIRECTORY_SERVICES.DIRECTORY.STUDY.http://h:8001/DirectoryPlace';
const problemsOf = (run: () => unknown): readonly string[] => {
  try {
    run();
  } catch (error) {
    if (error instanceof ConfigError) return error.problems;
    throw error;
  }
  throw new Error('no ConfigError');
};

describe('DIRECTORY_PLACES', () => {
  it('parses KEY|cost|quality|description entries separated by ; or newlines, the description keeping |', () => {
    const places = parseDirectoryPlaces(
      ' UNKNOWN.TO_UPPER.TRANSFORM.http://h:8001/ToUpperPlace|20|90|upper | case ;\nINITIAL.PICK_UP.INPUT.http://h:8001/PickUpPlace|10|100;;',
      'env',
      SELF,
    );
    expect(places.map((p) => [p.key, p.expense, p.description])).toEqual([
      ['UNKNOWN.TO_UPPER.TRANSFORM.http://h:8001/ToUpperPlace', 2010, 'upper | case'],
      ['INITIAL.PICK_UP.INPUT.http://h:8001/PickUpPlace', 1000, ''],
    ]);
    expect(parseDirectoryPlaces('', 'env', SELF)).toEqual([]);
  });

  it('refuses bad entries with a ConfigError naming each entry by number and key', () => {
    const problems = problemsOf(() =>
      parseDirectoryPlaces(`A.B.C.http://h:1/P|1|1;A.B.C.http://h:1/P|2|2;nokey;X.Y.Z.http://h:1/Q|1|900;${SELF}|1|1`, 'env', SELF),
    );
    expect(problems).toEqual([
      'DIRECTORY_PLACES entry 2 ("A.B.C.http://h:1/P"): a key declared twice',
      'DIRECTORY_PLACES entry 3 ("nokey"): expected KEY|cost|quality|description',
      'DIRECTORY_PLACES entry 4 ("X.Y.Z.http://h:1/Q"): quality must be an integer from 0 to 100',
      `DIRECTORY_PLACES entry 5 (${JSON.stringify(SELF)}): the directory's own key`,
    ]);
  });

  it('reads a file, one entry per line, # comments, ; allowed in descriptions, and wins over the variable', () => {
    const dir = mkdtempSync(join(tmpdir(), 'places-'));
    const file = join(dir, 'places.txt');
    writeFileSync(file, '# local places\r\nUNKNOWN.TO_UPPER.TRANSFORM.http://h:8001/ToUpperPlace|20|90|upper; case\r\n\r\n');
    const places = loadDirectoryPlaces({ file, env: 'A.B.C.http://h:1/P|1|1', selfKey: SELF });
    expect(places.map((p) => [p.key, p.description])).toEqual([['UNKNOWN.TO_UPPER.TRANSFORM.http://h:8001/ToUpperPlace', 'upper; case']]);
    writeFileSync(file, 'ok.ok.ok.http://h:1/P|1|1\nbad|1|1\n');
    expect(problemsOf(() => loadDirectoryPlaces({ file, selfKey: SELF }))).toEqual([
      expect.stringMatching(/^DIRECTORY_PLACES_FILE line 2 \("bad"\): key: /),
    ]);
    expect(problemsOf(() => loadDirectoryPlaces({ file: join(dir, 'missing'), selfKey: SELF }))).toEqual([
      expect.stringMatching(/^DIRECTORY_PLACES_FILE: cannot read .*missing \(ENOENT\)$/),
    ]);
    expect(loadDirectoryPlaces({ selfKey: SELF })).toEqual([]);
  });
});
