import { describe, expect, it } from 'vitest';
import { readGemspecContents } from '../src/bundler/gemspec.ts';
import { bundler, readGemfileContents } from '../src/index.ts';

const skipped = (files: Record<string, string>) => bundler.skippedDeclarations?.(files) ?? [];

describe('bundler on hostile repository content', () => {
  it('reports a Gemfile of 200,000 `gem x` lines without a RangeError', () => {
    const found = skipped({ Gemfile: Array.from({ length: 200_000 }, () => 'gem x').join('\n') });
    expect(found).toHaveLength(200_000);
  });

  it('reports a gemspec of 150,000 `s.add_dependency name` lines without a RangeError', () => {
    const found = skipped({ 'a.gemspec': Array.from({ length: 150_000 }, () => 's.add_dependency name').join('\n') });
    expect(found).toHaveLength(150_000);
    expect(found.at(-1)).toMatchObject({ line: 150_000, text: 's.add_dependency name' });
  });

  it('finds the lines of 20,000 gemspec declarations in linear time', () => {
    const text = Array.from({ length: 20_000 }, (_, i) => `s.add_dependency "g${i}"`).join('\n');
    const { dependencies } = readGemspecContents('a.gemspec', text);
    expect(dependencies).toHaveLength(20_000);
    expect(dependencies.at(-1)).toMatchObject({ name: 'g19999', line: 20_000 });
  });

  it('joins a call holding a long run of spaces and line breaks', () => {
    const text = `s.add_dependency(name,${' '.repeat(100_000)}\n  "1.0"${' '.repeat(100_000)}x)\n`;
    const { skipped: found } = readGemspecContents('a.gemspec', text);
    expect(found).toHaveLength(1);
    expect(found[0]?.text.startsWith('s.add_dependency(name, "1.0"')).toBe(true);
  });

  it('does not rescan calls nested in an unclosed call', () => {
    const { dependencies } = readGemspecContents('a.gemspec', 's.add_dependency("a",\n'.repeat(20_000));
    expect(dependencies.map((d) => d.name)).toEqual(['a']);
  });

  it('joins 100,000 `\\` continuation lines of a Gemfile in linear time', () => {
    expect(readGemfileContents('Gemfile', 'x\\\n'.repeat(100_000)).gems).toEqual([]);
    expect(readGemfileContents('Gemfile', `gem "rack",\\\n${'  \\\n'.repeat(100_000)}  "~> 3.0"\n`).gems).toEqual([
      expect.objectContaining({ name: 'rack', requirement: '~> 3.0' }),
    ]);
  });

  it('reads Gemfile lines holding long runs of spaces', () => {
    const spaces = ' '.repeat(100_000);
    const text = `group${spaces}:test${spaces}do\n  gem "rspec",${spaces}"~> 3.0"${spaces}if${spaces}x\nend\ngem "x"${spaces}y\n`;
    const { gems } = readGemfileContents('Gemfile', text);
    expect(gems[0]).toMatchObject({ name: 'rspec', requirement: '~> 3.0', groups: ['test'] });
  });

  it('replaces control characters in skipped declarations and cuts their text to 200 characters', () => {
    expect(skipped({ Gemfile: 'gem name\u0000' })).toEqual([
      { file: 'Gemfile', line: 1, text: 'gem name\uFFFD', reason: 'the gem name (name\uFFFD) is not a string literal' },
    ]);
    const [long] = skipped({ 'a.gemspec': `s.add_dependency name, "${'x'.repeat(1_000)}"\n` });
    expect(long?.text).toHaveLength(200);
    expect(long?.text.endsWith('…')).toBe(true);
  });
});
