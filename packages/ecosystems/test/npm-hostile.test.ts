import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { npmAndYarn } from '../src/index.ts';
import { matchesSegment, parseSegmentGlob } from '../src/npm/glob.ts';
import { npmManifests, resolutionApplies } from '../src/npm/workspace.ts';

type Files = Record<string, string>;

/** A root package.json with the given `workspaces`. */
const root = (workspaces: unknown, extra: Record<string, unknown> = {}) =>
  JSON.stringify({ name: 'root', private: true, workspaces, ...extra });

/** A member package.json depending on `dep`. */
const member = (name: string, dep: string) => JSON.stringify({ name, version: '1.0.0', dependencies: { [dep]: '^1.0.0' } });

const directories = (files: Files) => npmManifests(files).map((m) => m.directory);
const related = (files: Files) => npmAndYarn.files.related?.(files) ?? [];

describe('npm_and_yarn: hostile workspace globs', () => {
  it('matches `+(a|aa)` against a long near-miss directory name in linear time', () => {
    const files = {
      'package.json': root(['packages/+(a|aa)']),
      [`packages/${'a'.repeat(40)}!/package.json`]: member('miss', 'never'),
      'packages/aaaaa/package.json': member('hit', 'lodash'),
    };
    expect(directories(files)).toEqual(['', 'packages/aaaaa']);
    expect(npmAndYarn.listDependencies(files).map((use) => [use.name, use.manifest])).toEqual([['lodash', 'packages/aaaaa/package.json']]);
  });

  it('matches a glob with many `*` against a 100-character directory name', () => {
    const files = {
      'package.json': root(['crates/*a*a*a*a*a*a*b']),
      [`crates/${'a'.repeat(100)}/package.json`]: member('miss', 'never'),
      [`crates/${'a'.repeat(99)}b/package.json`]: member('hit', 'lodash'),
    };
    expect(directories(files)).toEqual(['', `crates/${'a'.repeat(99)}b`]);
  });

  it('matches each extglob form, braces, classes and `**` as before', () => {
    const names = ['a', 'ab', 'abab', 'b', 'c', 'private', 'private2', 'x1', 'xz', 'lib-core', 'lib-web', 'lib-cli'];
    const files: Files = { 'package.json': '{}' };
    for (const name of names) files[`p/${name}/package.json`] = member(name, 'x');
    files['deep/a/b/c/package.json'] = member('deep', 'x');
    files['deep/package.json'] = member('deep0', 'x');
    const members = (glob: string) =>
      directories({ ...files, 'package.json': root([glob]) })
        .slice(1)
        .map((d) => d.replace(/^p\//, ''));
    expect(members('p/@(a|b)')).toEqual(['a', 'b']);
    expect(members('p/?(ab)')).toEqual(['ab']);
    expect(members('p/+(ab)')).toEqual(['ab', 'abab']);
    expect(members('p/a*(b|ab)')).toEqual(['a', 'ab', 'abab']);
    expect(members('p/!(private)')).toEqual(names.filter((n) => n !== 'private').sort());
    expect(members('p/lib-{core,web}')).toEqual(['lib-core', 'lib-web']);
    expect(members('p/x[!a-y]')).toEqual(['x1', 'xz']);
    expect(members('p/x[0-9]')).toEqual(['x1']);
    expect(members('deep/**')).toEqual(['deep', 'deep/a/b/c']);
    expect(members('deep/**/c')).toEqual(['deep/a/b/c']);
  });

  it('collapses consecutive `**` instead of multiplying the patterns (no heap exhaustion)', () => {
    const many = Array<string>(12).fill('**').join('/');
    expect(related({ 'package.json': root([many]) })).toEqual(['*/package.json', '*/*/package.json', '*/*/*/package.json']);
    const files = { 'package.json': root([many]), 'a/b/package.json': member('ab', 'lodash') };
    expect(directories(files)).toEqual(['', 'a/b']);
  });

  it('caps the patterns per glob at 64 and in all at 200', () => {
    // eight separate `**` (16 wildcard characters): 4^8 directory patterns without the cap
    const spread = 'a/**/b/**/c/**/d/**/e/**/f/**/g/**/h/**';
    const one = related({ 'package.json': root([spread]) });
    expect(one).toHaveLength(64);
    expect(one[0]).toBe('a/b/c/d/e/f/g/h/package.json');
    const globs = Array.from({ length: 50 }, (_, i) => `w${i}/**/x/**`);
    const all = related({ 'package.json': root(globs), 'lerna.json': JSON.stringify({ packages: ['l/**/m/**'] }) });
    expect(all).toHaveLength(200);
    expect(all[0]).toBe('w0/x/package.json');
  });

  it('ignores a glob longer than 256 characters or with more than 16 wildcard characters', () => {
    const long = `packages/${'p'.repeat(250)}*`;
    const wild = `packages/${'?'.repeat(17)}`;
    const sixteen = `tools/${'?'.repeat(16)}`;
    const files = {
      'package.json': root([long, wild, sixteen]),
      [`packages/${'p'.repeat(251)}/package.json`]: member('long', 'never'),
      [`packages/${'q'.repeat(17)}/package.json`]: member('wild', 'never'),
      [`tools/${'q'.repeat(16)}/package.json`]: member('sixteen', 'lodash'),
    };
    expect(related({ 'package.json': files['package.json'] })).toEqual(['tools/*/package.json']);
    expect(directories(files)).toEqual(['', `tools/${'q'.repeat(16)}`]);
  });
});

describe('npm_and_yarn: hostile resolution keys', () => {
  it('reads a key of 200,000 `@` before a `/` in linear time', () => {
    expect(resolutionApplies(`${'@'.repeat(200_000)}/x`, 'x')).toBe(false);
    expect(resolutionApplies(`**/${'a@'.repeat(50_000)}`, 'a')).toBe(true);
  });
  it('strips the range as the regular expression it replaces did (generated)', () => {
    const key = fc.array(fc.constantFrom('a', 'b', '@', '/', '**/', '^1'), { maxLength: 8 }).map((parts) => parts.join(''));
    fc.assert(
      fc.property(
        key,
        fc.constantFrom('a', 'b', '@a', 'a/b'),
        fc.option(fc.constantFrom('a', 'b', '@a'), { nil: undefined }),
        (k, name, parent) => {
          const path = k.replace(/^\*\*\//, '').replace(/(?<=[^/])@(?!.*\/).*$/, '');
          const expected = path === name || (parent !== undefined && (path === `${parent}/${name}` || path === `${parent}/**/${name}`));
          expect(resolutionApplies(k, name, parent)).toBe(expected);
        },
      ),
      { numRuns: 2000 },
    );
  });
});

/** The regular expression a glob segment was matched with before (the oracle on short, harmless inputs). */
function regexSource(segment: string): string {
  let out = '';
  for (let i = 0; i < segment.length; i++) {
    const c = segment.charAt(i);
    const extglob = /^([!@+*?])\(([^)]*)\)/.exec(segment.slice(i));
    if (extglob) {
      const alternatives = (extglob[2] ?? '')
        .split('|')
        .map((a) => a.replace(/[.+^${}()|[\]\\*?]/g, '\\$&'))
        .join('|');
      const rest = regexSource(segment.slice(i + extglob[0].length));
      if (extglob[1] === '!') return `${out}(?!(?:${alternatives})${rest}/)[^/]*?${rest}`;
      return `${out}(?:${alternatives})${extglob[1] === '@' ? '' : extglob[1]}${rest}`;
    }
    if (c === '*') out += '[^/]*';
    else if (c === '?') out += '[^/]';
    else if (c === '[') {
      const close = segment.indexOf(']', i + 2);
      if (close < 0) out += '\\[';
      else {
        const body = segment.slice(i + 1, close);
        const negated = body.startsWith('!') || body.startsWith('^');
        out += `[${negated ? '^' : ''}${(negated ? body.slice(1) : body).replace(/[\\\]^]/g, '\\$&')}]`;
        i = close;
      }
    } else if (c === '{') {
      const close = segment.indexOf('}', i);
      if (close < 0) out += '\\{';
      else {
        out += `(?:${segment
          .slice(i + 1, close)
          .split(',')
          .map((a) => a.replace(/[.+^${}()|[\]\\*?]/g, '\\$&'))
          .join('|')})`;
        i = close;
      }
    } else out += c.replace(/[.+^${}()|\\]/g, '\\$&');
  }
  return out;
}

describe('npm_and_yarn workspace glob matching (generated)', () => {
  it('agrees with the regular expression it replaces on short globs and names', () => {
    const piece = fc.constantFrom(
      'a',
      'b',
      '*',
      '?',
      '[ab]',
      '[!a]',
      '[^b]',
      '{a,ab}',
      '@(a|b)',
      '?(ab)',
      '+(a|ba)',
      '*(b|ab)',
      '!(a|bb)',
      '!(b)',
    );
    const glob = fc.array(piece, { maxLength: 4 }).map((parts) => parts.join(''));
    const name = fc.array(fc.constantFrom('a', 'b', 'c'), { maxLength: 7 }).map((parts) => parts.join(''));
    fc.assert(
      fc.property(glob, name, (g, n) => {
        expect(matchesSegment(parseSegmentGlob(g), n)).toBe(new RegExp(`^${regexSource(g)}/$`).test(`${n}/`));
      }),
      { numRuns: 3000 },
    );
  });
});
