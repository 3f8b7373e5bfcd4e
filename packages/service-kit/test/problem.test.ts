import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { type HttpProblem, parseInput, problemBody } from '../src/index.ts';

describe('parseInput', () => {
  const schema = z.strictObject({ 'a/b': z.number(), nested: z.object({ n: z.number() }) });

  it('returns the parsed value', () => {
    expect(parseInput(schema, { 'a/b': 1, nested: { n: 2 } }, 'body')).toEqual({ 'a/b': 1, nested: { n: 2 } });
  });

  it('throws a 400 whose errors point into the body (RFC 6901 escaping) and name unknown keys', () => {
    let problem: HttpProblem | undefined;
    try {
      parseInput(schema, { 'a/b': 'x', nested: {}, extra: 1 }, 'body');
    } catch (error) {
      problem = error as HttpProblem;
    }
    expect(problem?.status).toBe(400);
    expect(problem?.errors?.map((e) => e.pointer)).toEqual(['#/a~1b', '#/nested/n', '#/extra']);
    expect(problem?.detail).toMatch(/^Invalid request body: a~1b: .*; nested\/n: .*; extra: is not a known field$/);
  });

  it('names query and path parameters', () => {
    const query = z.strictObject({ limit: z.string().regex(/^\d+$/, 'must be an integer') });
    expect(() => parseInput(query, { limit: 'x' }, 'query')).toThrowError(/query parameters: limit: must be an integer/);
    try {
      parseInput(z.string().regex(/^\d+$/, 'must be an integer'), 'abc', 'path', 'id');
    } catch (error) {
      expect((error as HttpProblem).errors).toEqual([{ parameter: 'id', detail: 'must be an integer' }]);
    }
  });
});

describe('problemBody', () => {
  it('builds an RFC 9457 body with the reason phrase as title', () => {
    expect(problemBody(404, 'No book with Id 3', { instance: '/books/3' })).toEqual({
      type: 'about:blank',
      title: 'Not Found',
      status: 404,
      detail: 'No book with Id 3',
      instance: '/books/3',
    });
  });
});
