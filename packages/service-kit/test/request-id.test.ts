import type { IncomingMessage } from 'node:http';
import { describe, expect, it } from 'vitest';
import { requestIdOf } from '../src/index.ts';

const withHeader = (value?: string | string[]) => ({ headers: value === undefined ? {} : { 'x-request-id': value } }) as IncomingMessage;

describe('requestIdOf', () => {
  it('keeps a plain incoming id', () => {
    expect(requestIdOf(withHeader('abc-123.x:y'))).toBe('abc-123.x:y');
  });
  it('replaces missing, repeated, over-long or unsafe ids with a UUID', () => {
    for (const bad of [undefined, ['a', 'b'], 'x'.repeat(129), 'a b', 'line\r\nbreak', '<script>']) {
      expect(requestIdOf(withHeader(bad))).toMatch(/^[0-9a-f-]{36}$/);
    }
  });
});
