import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { DEPENDABOT_V1_SCHEMA, DEPENDABOT_V2_SCHEMA, parseConfigFile, REVIEWERS_OVERLAY, V2_TIME_ZONES } from '../src/index.ts';

const schemaFile = (name: string) => JSON.parse(readFileSync(join(import.meta.dirname, '..', 'schemas', name), 'utf8'));

describe('schemas', () => {
  it('uses the SchemaStore copies as they are, adding reviewers to v2 in code only', () => {
    const v2 = schemaFile('dependabot-2.0.json');
    expect(DEPENDABOT_V1_SCHEMA).toEqual(schemaFile('dependabot-v1.json'));
    expect(v2.definitions.update.properties.reviewers).toBeUndefined();
    expect((DEPENDABOT_V2_SCHEMA as typeof v2).definitions.update.properties.reviewers).toEqual(REVIEWERS_OVERLAY);
    const { reviewers: _overlay, ...rest } = (DEPENDABOT_V2_SCHEMA as typeof v2).definitions.update.properties;
    expect(rest).toEqual(v2.definitions.update.properties);
    expect(V2_TIME_ZONES.has('Europe/Berlin')).toBe(true);
    expect(V2_TIME_ZONES.has('Mars/Olympus_Mons')).toBe(false);
  });

  it('accepts reviewers in v2 files, with the shape of assignees', () => {
    const file = (reviewers: string) =>
      `version: 2\nupdates:\n  - package-ecosystem: npm\n    directory: /\n    schedule: { interval: daily }\n    reviewers: ${reviewers}\n`;
    expect(parseConfigFile('.github/dependabot.yml', file('[octocat, my-org/team]')).configs[0]?.reviewers).toEqual([
      'octocat',
      'my-org/team',
    ]);
    expect(parseConfigFile('.github/dependabot.yml', file('[]')).problems).toEqual([
      { pointer: '#/updates/0/reviewers', message: "The property '#/updates/0/reviewers' did not contain a minimum number of items 1" },
    ]);
    expect(parseConfigFile('.github/dependabot.yml', file('[a, a]')).problems).toEqual([
      { pointer: '#/updates/0/reviewers', message: "The property '#/updates/0/reviewers' contained duplicated array values" },
    ]);
  });
});
