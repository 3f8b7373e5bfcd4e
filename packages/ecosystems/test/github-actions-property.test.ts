import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { readActionReferences } from '../src/github-actions/workflow.ts';
import type { RegistryVersionDetails } from '../src/index.ts';
import { githubActions, githubActionsVersions, parseActionVersion, printActionVersion } from '../src/index.ts';

const v = githubActionsVersions;
const sign = (n: number) => Math.sign(n) || 0;

const numbers = fc.array(fc.oneof(fc.nat(12).map(String), fc.constantFrom('0', '00', '007', '99999999999999999999')), {
  minLength: 1,
  maxLength: 4,
});
const identifier = fc.oneof(fc.nat(5).map(String), fc.constantFrom('alpha', 'beta', 'rc', 'a-b', 'RC'));
/** A version tag as people write them: `v` or not, one to four numbers, an optional pre-release and build. */
const tag = fc
  .record({
    prefix: fc.constantFrom('', 'v', 'V'),
    release: numbers,
    prerelease: fc.option(fc.array(identifier, { minLength: 1, maxLength: 3 }), { nil: null }),
    build: fc.option(fc.constantFrom('build.1', 'sha.5114f85', '001'), { nil: null }),
  })
  .map(printActionVersion);

describe('github_actions version order', () => {
  it('is total and antisymmetric', () => {
    fc.assert(
      fc.property(tag, tag, (a, b) => {
        const ab = v.compare(a, b);
        expect([-1, 0, 1]).toContain(sign(ab));
        expect(sign(v.compare(b, a)) + sign(ab)).toBe(0);
        expect(v.compare(a, a)).toBe(0);
      }),
      { numRuns: 500 },
    );
  });
  it('is transitive', () => {
    fc.assert(
      fc.property(tag, tag, tag, (a, b, c) => {
        const [x, y, z] = [a, b, c].sort(v.compare);
        expect(v.compare(x as string, z as string)).toBeLessThanOrEqual(0);
        if (v.compare(x as string, y as string) === 0 && v.compare(y as string, z as string) === 0)
          expect(v.compare(x as string, z as string)).toBe(0);
      }),
      { numRuns: 500 },
    );
  });
  it('parses and prints back every tag unchanged', () => {
    fc.assert(
      fc.property(tag, (text) => {
        const parsed = parseActionVersion(text);
        expect(parsed).not.toBeNull();
        expect(printActionVersion(parsed as NonNullable<typeof parsed>)).toBe(text);
        expect(v.isValid(text)).toBe(true);
      }),
      { numRuns: 500 },
    );
  });
});

/** A generated workflow: how a reference is written (quotes, comment, line ending, indentation) and what it names. */
const styled = fc.record({
  eol: fc.constantFrom('\n', '\r\n'),
  indent: fc.constantFrom('  ', '    '),
  quote: fc.constantFrom('', "'", '"'),
  pinned: fc.boolean(),
  comment: fc.constantFrom('# {v}', '# tag={v}', '# pin @{v}'),
  trailing: fc.constantFrom('', ' # keep me', '  # keep me too'),
  path: fc.constantFrom('', '/sub/dir', '/.github/workflows/build.yml'),
  // a version comment names a version with a `v` or a dot (`# 2` is not read as one)
  version: tag.filter((t) => parseActionVersion(t)?.prerelease === null && (/^v/i.test(t) || /^\d+\./.test(t))),
  bump: fc.integer({ min: 1, max: 5 }),
  final: fc.boolean(),
});

describe('github_actions updateManifest over generated workflows', () => {
  it('edits only the ref and the comment version, and the result reads back at the target', () => {
    let changed = 0;
    fc.assert(
      fc.property(styled, (s) => {
        const parsed = parseActionVersion(s.version);
        if (!parsed) throw new Error('unreachable');
        const major = Number(parsed.release[0]) + s.bump;
        const target = `v${major}.${s.bump}.0`;
        const oldSha = 'a'.repeat(40);
        const newSha = 'b'.repeat(40);
        const ref = s.pinned ? oldSha : s.version;
        const comment = s.pinned ? ` ${s.comment.replace('{v}', s.version)}` : s.trailing;
        const i = s.indent;
        const uses = `${s.quote}acme/tool${s.path}@${ref}${s.quote}`;
        const lines = ['# generated', 'on: push', 'jobs:', `${i}build:`, `${i}${i}runs-on: ubuntu-latest`, `${i}${i}steps:`];
        lines.push(`${i}${i}${i}- uses: ${uses}${comment}`, `${i}${i}${i}- run: echo ok${s.trailing}`);
        const text = lines.join(s.eol) + (s.final ? s.eol : '');
        const files = { '.github/workflows/gen.yml': text };
        const use = githubActions.findDependency(files, 'acme/tool');
        expect(use?.version).toBe(s.version);
        if (!use) return;
        const details: RegistryVersionDetails = {
          name: 'acme/tool',
          version: target,
          dependencies: null,
          artifacts: [{ filename: 'tool.tar.gz', url: 'https://example.test/tool.tar.gz', digests: [], attributes: { commit: newSha } }],
        };
        const result = githubActions.updateManifest(files, use, target, details);
        expect(result).not.toHaveProperty('cannot');
        if (!('files' in result)) return;
        changed++;
        const after = result.files['.github/workflows/gen.yml'] ?? '';
        const [reference] = readActionReferences('.github/workflows/gen.yml', after);
        // exactly the target tag, whatever the precision of the ref or comment it replaces
        const expected = target;
        expect(reference?.version).toBe(expected);
        expect(reference?.ref).toBe(s.pinned ? newSha : expected);
        // the text outside the ref and the comment's version is the same
        const newRef = s.pinned ? newSha : expected;
        const newComment = s.pinned ? ` ${s.comment.replace('{v}', expected)}` : s.trailing;
        expect(after).toBe(text.replace(`@${ref}${s.quote}${comment}`, `@${newRef}${s.quote}${newComment}`));
      }),
      { numRuns: 200 },
    );
    expect(changed).toBeGreaterThan(100);
  });
});
