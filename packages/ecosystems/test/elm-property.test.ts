import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { type DependencyUse, elm, elmVersions } from '../src/index.ts';

const version = fc.tuple(fc.nat(30), fc.nat(30), fc.nat(30)).map(([a, b, c]) => `${a}.${b}.${c}`);

describe('elm version scheme properties', () => {
  it('orders totally, antisymmetrically and transitively', () => {
    fc.assert(
      fc.property(version, version, version, (a, b, c) => {
        const ab = elmVersions.compare(a, b);
        expect(Math.sign(ab) + Math.sign(elmVersions.compare(b, a))).toBe(0);
        if (ab === 0) expect(a).toBe(b);
        if (ab <= 0 && elmVersions.compare(b, c) <= 0) expect(elmVersions.compare(a, c)).toBeLessThanOrEqual(0);
      }),
    );
  });
  it('round-trips a printed version through an exact constraint', () => {
    fc.assert(
      fc.property(version, (v) => {
        expect(elmVersions.isValid(v)).toBe(true);
        expect(elmVersions.satisfies(v, v)).toBe(true);
        expect(elmVersions.lowestAllowed?.(v)).toBe(v);
        expect(elmVersions.release?.(v).join('.')).toBe(v);
      }),
    );
  });
  it("widens a generated package range so it allows any later version, changing only the range's text", () => {
    fc.assert(
      fc.property(
        fc.tuple(fc.nat(10), fc.nat(10), fc.nat(10)),
        fc.nat(3),
        fc.constantFrom('<', '<='),
        fc.constantFrom('\n', '\r\n'),
        ([a, b, c], step, upperOp, eol) => {
          const requirement = `${a}.${b}.${c} <= v ${upperOp} ${a + 1}.0.0`;
          const target = `${a + step}.${step === 0 ? b + 1 : 0}.0`;
          const text = ['{', '    "type": "package",', '    "dependencies": {', `        "x/y": "${requirement}"`, '    }', '}', ''].join(
            eol,
          );
          const files = { 'elm.json': text };
          const result = elm.updateManifest(files, elm.findDependency(files, 'x/y') as DependencyUse, target);
          if ('cannot' in result) throw new Error(result.cannot);
          if ('unchanged' in result) {
            expect(elmVersions.satisfies(target, requirement)).toBe(true);
            return;
          }
          const written = result.requirement ?? '';
          expect(result.files['elm.json']).toBe(text.replace(requirement, written));
          expect(elmVersions.satisfies(target, written)).toBe(true);
        },
      ),
    );
  });
});
