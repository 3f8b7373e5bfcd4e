import { describe, expect, it } from 'vitest';
import { isTopicPattern, topicMatches } from '../src/topic.ts';

describe('topicMatches', () => {
  it.each([
    ['update_config.created', 'update_config.created', true],
    ['update_config.created', 'update_config.deleted', false],
    ['update_config.*', 'update_config.created', true],
    ['update_config.*', 'update_config', false],
    ['update_config.*', 'update_config.created.v2', false],
    ['*.created', 'repo.created', true],
    ['*.created', 'created', false],
    ['*.created', 'a.b.created', false],
    ['*', 'a', true],
    ['*', 'a.b', false],
    ['#', 'a', true],
    ['#', 'a.b.c', true],
    ['#', '', true],
    ['a.#', 'a', true],
    ['a.#', 'a.b', true],
    ['a.#', 'a.b.c', true],
    ['a.#', 'b.a', false],
    ['#.a', 'a', true],
    ['#.a', 'x.y.a', true],
    ['#.a', 'x.y.b', false],
    ['a.#.z', 'a.z', true],
    ['a.#.z', 'a.b.c.z', true],
    ['a.#.z', 'a.b.c', false],
    ['a.*.#', 'a', false],
    ['a.*.#', 'a.b', true],
    ['a.*.#', 'a.b.c.d', true],
    ['#.#', 'a.b', true],
    ['*.*', 'a.b', true],
    ['*.*', 'a.b.c', false],
    ['a.b', 'a.bc', false],
  ])('%s against %s is %s', (pattern, key, expected) => {
    expect(topicMatches(pattern, key)).toBe(expected);
  });

  it('stays fast on patterns full of #', () => {
    const key = Array.from({ length: 200 }, (_, i) => `w${i}`).join('.');
    const pattern = `${Array.from({ length: 50 }, () => '#').join('.')}.nope`;
    const started = performance.now();
    expect(topicMatches(pattern, key)).toBe(false);
    expect(performance.now() - started).toBeLessThan(200);
  });
});

describe('isTopicPattern', () => {
  it('accepts words, * and #', () => {
    for (const pattern of ['a', 'a.b', 'update_config.*', '#', 'a.#.b', '*.*']) expect(isTopicPattern(pattern)).toBe(true);
  });

  it('refuses empty words and wildcards inside words', () => {
    for (const pattern of ['', 'a..b', '.a', 'a.', 'a*', 'a.b#', '**']) expect(isTopicPattern(pattern)).toBe(false);
  });
});
