import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { matchesSegment, parseSegmentGlob } from '../src/cargo/glob.ts';
import { cargo, relatedFiles } from '../src/index.ts';

/** A workspace root whose `members` are the given TOML strings. */
const rootWith = (members: readonly string[], extra = '') =>
  `[workspace]\nmembers = [${members.map((m) => JSON.stringify(m)).join(', ')}]\n${extra}`;

/** A member manifest declaring the crate `dep`. */
const member = (name: string, dep: string) => `[package]\nname = "${name}"\nversion = "0.1.0"\n\n[dependencies]\n${dep} = "1.0"\n`;

const names = (files: Record<string, string>) => cargo.listDependencies(files).map((use) => [use.name, use.manifest]);

describe('cargo: hostile workspace members', () => {
  it('matches a member glob with many `*` against a long directory name without backtracking', () => {
    const files = {
      'Cargo.toml': rootWith(['crates/*a*a*a*a*a*a*b']),
      [`crates/${'a'.repeat(100)}/Cargo.toml`]: member('long', 'never'),
      [`crates/${'a'.repeat(99)}b/Cargo.toml`]: member('matched', 'serde'),
      'crates/xayaazaaab/Cargo.toml': member('spread', 'log'),
    };
    expect(names(files)).toEqual([
      ['serde', `crates/${'a'.repeat(99)}b/Cargo.toml`],
      ['log', 'crates/xayaazaaab/Cargo.toml'],
    ]);
  });

  it('matches classes (`[a-c]`, `[!x]`, a leading `]`) and `?` per character', () => {
    const files = {
      'Cargo.toml': rootWith(['lib-[a-c]?', 'x[!x]', 'y[]]']),
      'lib-b1/Cargo.toml': member('b1', 'one'),
      'lib-d1/Cargo.toml': member('d1', 'never'),
      'lib-b12/Cargo.toml': member('b12', 'never'),
      'xy/Cargo.toml': member('xy', 'two'),
      'xx/Cargo.toml': member('xx', 'never'),
      'y]/Cargo.toml': member('y', 'three'),
    };
    expect(names(files)).toEqual([
      ['one', 'lib-b1/Cargo.toml'],
      ['two', 'xy/Cargo.toml'],
      ['three', 'y]/Cargo.toml'],
    ]);
  });

  it('ignores a member glob longer than 256 characters or with more than 16 wildcards', () => {
    const long = `crates/${'c'.repeat(250)}*`;
    const wild = `crates/${'?'.repeat(17)}`;
    const sixteen = `tools/${'?'.repeat(16)}`;
    const files = {
      'Cargo.toml': rootWith([long, wild, sixteen]),
      [`crates/${'c'.repeat(251)}/Cargo.toml`]: member('long', 'never'),
      [`crates/${'q'.repeat(17)}/Cargo.toml`]: member('wild', 'never'),
      [`tools/${'q'.repeat(16)}/Cargo.toml`]: member('sixteen', 'serde'),
    };
    expect(cargo.files.related?.({ 'Cargo.toml': files['Cargo.toml'] })).toEqual(['tools/*/Cargo.toml']);
    expect(names(files)).toEqual([['serde', `tools/${'q'.repeat(16)}/Cargo.toml`]]);
  });

  it('names at most 200 related manifests for a [workspace] of 200,000 members without throwing', () => {
    const members = Array.from({ length: 200_000 }, (_, i) => `m${i}`);
    const files = { 'Cargo.toml': rootWith(members), 'm7/Cargo.toml': member('m7', 'serde') };
    const related = cargo.files.related?.(files) ?? [];
    expect(related).toHaveLength(200);
    expect(related.slice(0, 2)).toEqual(['m0/Cargo.toml', 'm1/Cargo.toml']);
    expect(relatedFiles(cargo.files, files, '/')).toHaveLength(199);
    expect(cargo.listDependencies(files)).toMatchObject([{ name: 'serde', manifest: 'm7/Cargo.toml' }]);
  });

  it('reads 100,000 members against 100,000 `exclude` paths by path, not pairwise', () => {
    const members = Array.from({ length: 100_000 }, (_, i) => `m${i}`);
    const exclude = `exclude = [${members.map((m) => `"${m === 'm3' ? m : `x${m}`}"`).join(', ')}]\n`;
    const files = {
      'Cargo.toml': rootWith(members, exclude),
      'm3/Cargo.toml': member('m3', 'never'),
      'm4/Cargo.toml': member('m4', 'log'),
    };
    expect(cargo.files.related?.(files)?.slice(0, 4)).toEqual(['m0/Cargo.toml', 'm1/Cargo.toml', 'm2/Cargo.toml', 'm4/Cargo.toml']);
    expect(names(files)).toEqual([['log', 'm4/Cargo.toml']]);
  });

  it('caps the path dependencies’ manifests named too', () => {
    const deps = Array.from({ length: 1000 }, (_, i) => `d${i} = { path = "deps/d${i}" }`).join('\n');
    const related = cargo.files.related?.({ 'Cargo.toml': `[package]\nname = "app"\nversion = "0.1.0"\n\n[dependencies]\n${deps}\n` });
    expect(related).toHaveLength(200);
    expect(related?.[0]).toBe('deps/d0/Cargo.toml');
  });
});

/** The regular expression the member globs were matched with before (the oracle on short, harmless inputs). */
function regexOf(segment: string): RegExp {
  let out = '';
  for (let i = 0; i < segment.length; i++) {
    const c = segment.charAt(i);
    if (c === '*') out += '[^/]*';
    else if (c === '?') out += '[^/]';
    else if (c === '[') {
      const close = segment.indexOf(']', i + 2);
      if (close < 0) out += '\\[';
      else {
        const body = segment.slice(i + 1, close);
        const negated = body.startsWith('!');
        out += `[${negated ? '^' : ''}${(negated ? body.slice(1) : body).replace(/[\\\]^]/g, '\\$&')}]`;
        i = close;
      }
    } else out += c.replace(/[.+^${}()|\\]/g, '\\$&');
  }
  return new RegExp(`^${out}$`);
}

describe('cargo member glob matching (generated)', () => {
  it('agrees with the regular expression it replaces on short globs and names', () => {
    const piece = fc.constantFrom('a', 'b', '*', '?', '[ab]', '[!a]', '[a-b]', '.', '-');
    const glob = fc.array(piece, { maxLength: 6 }).map((parts) => parts.join(''));
    const name = fc.array(fc.constantFrom('a', 'b', 'c', '.', '-'), { maxLength: 8 }).map((parts) => parts.join(''));
    fc.assert(
      fc.property(glob, name, (g, n) => {
        expect(matchesSegment(parseSegmentGlob(g), n)).toBe(regexOf(g).test(n));
      }),
      { numRuns: 2000 },
    );
  });
});
