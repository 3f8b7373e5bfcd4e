import { describe, expect, it } from 'vitest';
import { breakPoints, LONG_WORD, shortSha, splitText } from '../src/text.ts';

const OLD = 'd2b52ca5fa4553d5ed5f086711c78c518350b940';
const NEW = '9f1c0e3b7a2d4e5f60718293a4b5c6d7e8f90a1b';
const DIGEST = 'c67bfbbedc7274f82cb0c95adb03e2a3642a6c4e29d1b0fe88304e533a4beaef';

describe('splitText: full SHAs in a text, shown short', () => {
  it('finds each 40-character commit and 64-character digest as a whole word, the text around them kept', () => {
    expect(splitText(`${OLD} → ${NEW} (major)`)).toEqual([{ sha: OLD }, { text: ' → ' }, { sha: NEW }, { text: ' (major)' }]);
    expect(splitText(`nginx@sha256:${DIGEST}`)).toEqual([{ text: 'nginx@sha256:' }, { sha: DIGEST }]);
  });

  it('leaves versions and short SHAs alone, and takes a longer hex run for no SHA (a long word only)', () => {
    expect(splitText('4.17.15 → 4.17.22 (patch)')).toEqual([{ text: '4.17.15 → 4.17.22 (patch)' }]);
    expect(splitText('pinned at d2b52ca')).toEqual([{ text: 'pinned at d2b52ca' }]);
    expect(splitText(`${OLD}00`)).toEqual([{ name: `${OLD}00` }]);
    expect(splitText(`v${OLD}`)).toEqual([{ name: `v${OLD}` }]);
  });

  it('marks words longer than a column should hold (a URL in a reason) as names that may break', () => {
    const url = 'https://registry.example.com/npm/@acme/widgets';
    expect(url.length).toBeGreaterThan(LONG_WORD);
    expect(splitText(`registry ${url} did not answer`)).toEqual([{ text: 'registry ' }, { name: url }, { text: ' did not answer' }]);
  });

  it("shortens a SHA to git's 7 characters", () => {
    expect(shortSha(OLD)).toBe('d2b52ca');
  });
});

describe('breakPoints: where a long name may wrap', () => {
  it('after the separators of Maven names, module paths, scopes and URLs; never inside a word', () => {
    expect(breakPoints('org.springframework.boot:spring-boot-starter-web')).toEqual([
      'org.',
      'springframework.',
      'boot:',
      'spring-boot-starter-web',
    ]);
    expect(breakPoints('github.com/acme-oss/errors')).toEqual(['github.', 'com/', 'acme-oss/', 'errors']);
    expect(breakPoints('@acme/widgets')).toEqual(['@', 'acme/', 'widgets']);
    expect(breakPoints('lodash')).toEqual(['lodash']);
    expect(breakPoints('https://npm.example.com/').join('')).toBe('https://npm.example.com/');
  });
});
