import { describe, expect, it } from 'vitest';
import { isOlder } from '../src/pipeline/deliver/pull-request.service.ts';

// Which of two jobs of one dependency gives way: exactly one of them, whatever their versions are.
describe('isOlder', () => {
  it('orders versions by the ecosystem, whichever job came first', () => {
    const early = { id: 3, target_version: '4.18.0' };
    const late = { id: 9, target_version: '4.17.22' };
    expect(isOlder('npm_and_yarn', late, early)).toBe(true);
    expect(isOlder('npm_and_yarn', early, late)).toBe(false);
  });

  it("orders a submodule's commits, which have no order, by the jobs: the later job's commit is the newer", () => {
    // Lexically `cb05…` sorts after `b94d…`; the job made later is for the commit found later.
    const first = { id: 12, target_version: 'cb05afd65117fb5373f0c1f2452c3b45f4934f82' };
    const second = { id: 30, target_version: 'b94df84933229310478621f2cfab1aeb893de4dc' };
    expect(isOlder('submodules', first, second)).toBe(true);
    expect(isOlder('submodules', second, first)).toBe(false);
  });

  it('is never true both ways, and false for one version', () => {
    const pairs = [
      [
        { id: 1, target_version: 'not-a-version' },
        { id: 2, target_version: 'also-not' },
      ],
      [
        { id: 5, target_version: '1.0.0' },
        { id: 4, target_version: '1.0' },
      ],
      [
        { id: 6, target_version: '2.0.0' },
        { id: 7, target_version: '2.0.0' },
      ],
    ] as const;
    for (const [a, b] of pairs) {
      expect(isOlder('npm_and_yarn', a, b) && isOlder('npm_and_yarn', b, a)).toBe(false);
    }
    expect(isOlder('npm_and_yarn', pairs[2][0], pairs[2][1])).toBe(false);
    expect(isOlder('npm_and_yarn', pairs[0][0], pairs[0][1])).toBe(true);
  });
});
