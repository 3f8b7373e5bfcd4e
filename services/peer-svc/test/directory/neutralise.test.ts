import { describe, expect, it } from 'vitest';
import { neutralise, TRUNCATION_MARK } from '../../src/directory/neutralise.policy.ts';
import { noClientPlaceMessage } from '../../src/work-bundle/enqueue-messages.mapper.ts';

describe('neutralise', () => {
  it.each([
    ['plain', 'http://localhost:9999/DirectoryPlace', 'http://localhost:9999/DirectoryPlace'],
    ['CR/LF as upstream sanitizeParameter', 'test\n\r', 'test__'],
    ['markup as upstream HtmlEscaper', '<script>alert(1)&</script>', '&lt;script&gt;alert(1)&amp;&lt;/script&gt;'],
    ['other controls', 'a\u0000b\tc\u001bd\u007fe\u0085f', 'a_b_c_d_e_f'],
    ['line separators and bidi overrides', 'a\u2028b\u202ec\u2066d\ufeff', 'a_b_c_d_'],
    ['lone surrogate', 'a\ud800b', 'a\ufffdb'],
    ['non-ASCII text kept', 'café ☕', 'café ☕'],
    ['null', null, 'null'],
    ['undefined', undefined, 'null'],
  ])('%s', (_label, input, expected) => {
    expect(neutralise(input)).toBe(expected);
  });

  it('bounds the length', () => {
    expect(neutralise('x'.repeat(10_000))).toBe(`${'x'.repeat(200)}${TRUNCATION_MARK}`);
    expect(neutralise('abcdef', 3)).toBe(`abc${TRUNCATION_MARK}`);
    expect(neutralise('abc', 3)).toBe('abc');
  });

  it('never cuts an entity or a surrogate pair', () => {
    expect(neutralise('ab<', 4)).toBe(`ab${TRUNCATION_MARK}`);
    expect(neutralise('a😀', 2)).toBe(`a${TRUNCATION_MARK}`);
  });

  it('refuses a bad bound', () => {
    expect(() => neutralise('x', -1)).toThrow(RangeError);
  });

  it('builds the seed message for an unknown client place with the name neutralised', () => {
    expect(noClientPlaceMessage('INITIAL.FILE_PICK_UP_CLIENT.INPUT.http://localhost:8001/FilePickUpClient')).toBe(
      'No client place found using name INITIAL.FILE_PICK_UP_CLIENT.INPUT.http://localhost:8001/FilePickUpClient',
    );
    expect(noClientPlaceMessage('x\r\n<b>')).toBe('No client place found using name x__&lt;b&gt;');
  });
});
