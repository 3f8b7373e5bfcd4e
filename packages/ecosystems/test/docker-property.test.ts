import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { compareDockerTags, docker, dockerVersions, parseDockerTag, printDockerTag, sameTagFormat } from '../src/index.ts';

const number = fc.oneof(fc.nat(40).map(String), fc.constantFrom('0', '00', '07', '2024'));
/** A version tag: optional `v`, 1 to 4 numbers, sometimes a pre-release word, sometimes a suffix. */
const tag = fc
  .record({
    prefix: fc.constantFrom('', '', 'v'),
    numbers: fc.array(number, { minLength: 1, maxLength: 4 }),
    pre: fc.option(fc.tuple(fc.constantFrom('rc', 'a', 'b', 'alpha', 'beta'), fc.constantFrom('', '1', '2', '10')), { nil: undefined }),
    suffix: fc.constantFrom('', '', '-slim', '-alpine', '-alpine3.19', '-slim-bookworm', '-jdk'),
  })
  .map(({ prefix, numbers, pre, suffix }) => `${prefix}${numbers.join('.')}${pre ? pre.join('') : ''}${suffix}`);
const sign = (n: number) => Math.sign(n);
/** `${name}` as a Dockerfile writes a variable. */
const ref = (name: string) => `\${${name}}`;

describe('docker tag scheme properties', () => {
  it('parses every generated tag and prints it back unchanged', () => {
    fc.assert(
      fc.property(tag, (t) => {
        const parts = parseDockerTag(t);
        expect(parts, t).toBeDefined();
        expect(printDockerTag(parts as NonNullable<typeof parts>)).toBe(t);
        expect(dockerVersions.isValid(t)).toBe(true);
      }),
      { numRuns: 300 },
    );
  });

  it('orders totally: reflexive, antisymmetric, and 0 only for equal tags', () => {
    fc.assert(
      fc.property(tag, tag, (a, b) => {
        expect(compareDockerTags(a, a)).toBe(0);
        expect(sign(compareDockerTags(a, b)) + sign(compareDockerTags(b, a))).toBe(0);
        expect(compareDockerTags(a, b) === 0).toBe(a === b);
      }),
      { numRuns: 500 },
    );
  });

  it('orders transitively, also within one format', () => {
    const sameFormat = fc
      .tuple(fc.constantFrom('', 'v'), fc.integer({ min: 1, max: 3 }), fc.constantFrom('', '-slim', '-alpine'))
      .chain(([prefix, count, suffix]) =>
        fc.tuple(
          ...[0, 1, 2].map(() =>
            fc.array(fc.nat(12), { minLength: count, maxLength: count }).map((n) => `${prefix}${n.join('.')}${suffix}`),
          ),
        ),
      );
    const check = ([a, b, c]: string[]) => {
      const [x, y, z] = [a, b, c] as [string, string, string];
      if (compareDockerTags(x, y) <= 0 && compareDockerTags(y, z) <= 0) expect(compareDockerTags(x, z)).toBeLessThanOrEqual(0);
      if (compareDockerTags(x, y) >= 0 && compareDockerTags(y, z) >= 0) expect(compareDockerTags(x, z)).toBeGreaterThanOrEqual(0);
    };
    fc.assert(
      fc.property(sameFormat, (tags) => {
        const [a, b, c] = tags as [string, string, string];
        expect(sameTagFormat(a, b) && sameTagFormat(b, c)).toBe(true);
        check(tags);
      }),
      { numRuns: 400 },
    );
    fc.assert(
      fc.property(tag, tag, tag, (a, b, c) => check([a, b, c])),
      { numRuns: 400 },
    );
  });

  it('sorts consistently with the numbers within a format', () => {
    fc.assert(
      fc.property(fc.array(fc.tuple(fc.nat(20), fc.nat(20)), { minLength: 2, maxLength: 8 }), (pairs) => {
        const tags = pairs.map(([a, b]) => `${a}.${b}-slim`);
        const byScheme = [...tags].sort(compareDockerTags);
        const byNumbers = [...tags].sort((p, q) => {
          const [a1, b1] = p.split(/[.-]/).map(Number) as [number, number];
          const [a2, b2] = q.split(/[.-]/).map(Number) as [number, number];
          return a1 - a2 || b1 - b2;
        });
        expect(byScheme).toEqual(byNumbers);
      }),
    );
  });

  it('updates a generated Dockerfile to any newer tag of its format, changing only the tag', () => {
    fc.assert(
      fc.property(
        fc.tuple(
          fc.nat(20),
          fc.nat(20),
          fc.integer({ min: 1, max: 5 }),
          fc.constantFrom('\n', '\r\n'),
          fc.constantFrom('-slim', '', '-alpine'),
        ),
        ([major, minor, step, eol, suffix]) => {
          const from = `${major}.${minor}${suffix}`;
          const to = `${major}.${minor + step}${suffix}`;
          const text = ['# app', `FROM --platform=linux/amd64 python:${from} AS build`, 'RUN make', `FROM python:${from}`, ''].join(eol);
          const files = { Dockerfile: text };
          const use = docker.findDependency(files, 'python');
          expect(use?.version).toBe(from);
          const result = docker.updateManifest(files, use as NonNullable<typeof use>, to);
          expect(result).toEqual({ files: { Dockerfile: text.replaceAll(`python:${from}`, `python:${to}`) }, requirement: null });
        },
      ),
      { numRuns: 100 },
    );
  });

  it('skips generated unreadable FROM lines with a reason, and still updates the readable ones changing only their tags', () => {
    const bad = fc.constantFrom(
      `FROM ${ref('UNSET')}`,
      'FROM --platform=$X',
      'FROM Python:3.11',
      'FROM --chown=1 alpine:3.19',
      'FROM node:@sha256:12',
      'FROM acme/app:$NOT_DECLARED AS other',
      'FROM',
    );
    const line = fc.oneof(
      bad.map((text) => ({ bad: true, text })),
      fc.constantFrom('RUN make', '# note', 'COPY . /src').map((text) => ({ bad: false, text })),
    );
    fc.assert(
      fc.property(
        fc.tuple(fc.nat(20), fc.nat(20), fc.integer({ min: 1, max: 5 }), fc.constantFrom('\n', '\r\n'), fc.array(line, { maxLength: 6 })),
        fc.array(line, { maxLength: 6 }),
        ([major, minor, step, eol, before], after) => {
          const from = `${major}.${minor}-slim`;
          const to = `${major}.${minor + step}-slim`;
          const lines = [
            'ARG UNSET',
            `FROM python:${from} AS build`,
            ...before.map((l) => l.text),
            `FROM python:${from}`,
            ...after.map((l) => l.text),
            '',
          ];
          const text = lines.join(eol);
          const files = { Dockerfile: text, 'Dockerfile-alpine.template': 'FROM python:{{ version }}\n' };
          const skipped = docker.skippedDeclarations?.(files) ?? [];
          expect(skipped).toHaveLength([...before, ...after].filter((l) => l.bad).length);
          for (const s of skipped) {
            expect(s.file).toBe('Dockerfile');
            expect(lines[s.line - 1]).toBe(s.text);
            expect(s.reason.length).toBeGreaterThan(0);
          }
          const use = docker.findDependency(files, 'python');
          expect(use?.version).toBe(from);
          const result = docker.updateManifest(files, use as NonNullable<typeof use>, to);
          expect(result).toEqual({ files: { Dockerfile: text.replaceAll(`python:${from}`, `python:${to}`) }, requirement: null });
          expect(docker.skippedDeclarations?.({ ...files, ...('files' in result ? result.files : {}) })).toEqual(skipped);
        },
      ),
      { numRuns: 150 },
    );
  });
});
