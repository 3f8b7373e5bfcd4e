import { describe, expect, it } from 'vitest';
import { pip } from '../src/index.ts';
import { MAX_INCLUDES_PER_CALL } from '../src/pip/files.ts';
import { readIncludes } from '../src/pip/includes.ts';
import { readRequirementsTxt } from '../src/pip/requirements-txt.ts';
import { storableText } from '../src/shared/skipped.ts';

const related = (files: Record<string, string>) => pip.files.related?.(files) ?? [];

describe('pip on hostile repository content', () => {
  const blank = { 'requirements.txt': `requests==1.0\n${'\n'.repeat(100_000)}` };

  it('reads a requirements file of 100,000 blank lines without backtracking across them', () => {
    expect(related(blank)).toEqual([]);
    expect(pip.findDependency(blank, 'requests')).toMatchObject({ name: 'requests', requirement: '==1.0' });
    expect(readIncludes(`${'\n'.repeat(100_000)}-r base.txt\n`)).toEqual([{ kind: 'requirement', path: 'base.txt', line: 100_001 }]);
  });

  it('reads lines holding long runs of spaces', () => {
    const spaces = ' '.repeat(50_000);
    expect(
      readRequirementsTxt('requirements.txt', `a==1${spaces};${spaces}python_version${spaces}>${spaces}"3"${spaces}--hash=x\n`),
    ).toEqual([expect.objectContaining({ name: 'a', specifier: '==1' })]);
    expect(pip.listDependencies({ 'setup.cfg': `[options]\ninstall_requires${spaces}=${spaces}b\n` })).toEqual([
      expect.objectContaining({ name: 'b' }),
    ]);
  });

  it('joins 100,000 `\\` continuation lines in linear time', () => {
    expect(readRequirementsTxt('requirements.txt', `a==1 \\\n${'    \\\n'.repeat(100_000)}\n`)).toEqual([
      expect.objectContaining({ name: 'a', specifier: '==1' }),
    ]);
  });

  it('gives no `-r`/`-c` path holding `*`, `?` or `[` to files.related (pip does not expand patterns)', () => {
    const files = { 'requirements.txt': '-r *\n-r */*\n-c constraints?.txt\n-r [ab].txt\n-r base.txt\nrequests\n' };
    expect(related(files)).toEqual(['base.txt']);
  });

  it(`follows at most ${MAX_INCLUDES_PER_CALL} includes per call`, () => {
    const lines = Array.from({ length: 5_000 }, (_, i) => `-r f${i}.txt`);
    const found = related({ 'requirements.txt': lines.join('\n') });
    expect(MAX_INCLUDES_PER_CALL).toBe(100);
    expect(found).toHaveLength(100);
    expect(found.slice(0, 2)).toEqual(['f0.txt', 'f1.txt']);
  });

  it('reads a [project] dependencies list of 200,000 entries without a RangeError', () => {
    const list = Array.from({ length: 200_000 }, (_, i) => `"p${i}"`).join(',\n');
    const files = { 'pyproject.toml': `[project]\nname = "x"\ndependencies = [\n${list}\n]\n` };
    expect(pip.listDependencies(files)).toHaveLength(200_000);
  });

  it('reports 20,000 skipped pyproject.toml strings with their lines', () => {
    const list = Array.from({ length: 20_000 }, (_, i) => `"p${i} ; python_version < '3'"`).join(',\n');
    const skipped = pip.skippedDeclarations?.({ 'pyproject.toml': `[project]\nname = "x"\ndependencies = [\n${list}\n]\n` }) ?? [];
    expect(skipped).toHaveLength(20_000);
    expect(skipped.at(-1)).toMatchObject({ line: 20_003 });
  });

  it('reads a marker of 20,000 clauses', () => {
    const marker = Array.from({ length: 20_000 }, () => 'os_name == "x"').join(' and ');
    expect(pip.listDependencies({ 'requirements.txt': `a<2 ; ${marker}\n` })).toEqual([]);
  });

  it('replaces control characters in skipped declarations and cuts their text to 200 characters', () => {
    const setupPy = `setup(install_requires=get_requirements("\u0000${'x'.repeat(500)}"))\n`;
    const skipped = pip.skippedDeclarations?.({ 'setup.py': setupPy }) ?? [];
    expect(skipped.length).toBeGreaterThan(0);
    for (const entry of skipped) {
      expect(entry.text.length).toBeLessThanOrEqual(200);
      expect([...`${entry.text}${entry.reason}`].some((c) => c < ' ' && c !== '\t')).toBe(false);
    }
    const [literal] = pip.skippedDeclarations?.({ 'setup.py': 'setup(install_requires=["not pep 508\u0000"])\n' }) ?? [];
    expect(literal?.text).toBe('not pep 508\uFFFD');
    expect(storableText(`a\u0000b${'c'.repeat(300)}\ud800`, 200)).toBe(`a\uFFFDb${'c'.repeat(196)}…`);
    expect(storableText('x\ud800', 200)).toBe('x\uFFFD');
  });
});
