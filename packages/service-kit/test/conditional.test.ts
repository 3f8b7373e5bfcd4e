import { describe, expect, it } from 'vitest';
import { ifMatchSatisfied, ifNoneMatchHits } from '../src/index.ts';

describe('ifMatchSatisfied (RFC 9110 13.1.1, strong comparison)', () => {
  it('allows any change when the header is absent', () => {
    expect(ifMatchSatisfied(undefined, '"1"')).toBe(true);
  });
  it('matches a listed strong tag, never a weak one', () => {
    expect(ifMatchSatisfied('"2", "1"', '"1"')).toBe(true);
    expect(ifMatchSatisfied('"2"', '"1"')).toBe(false);
    expect(ifMatchSatisfied('W/"1"', '"1"')).toBe(false);
  });
  it('treats * as "exists"', () => {
    expect(ifMatchSatisfied('*', '"9"')).toBe(true);
    expect(ifMatchSatisfied('*', undefined)).toBe(false);
  });
});

describe('ifNoneMatchHits (weak comparison)', () => {
  it('hits on the same opaque tag, weak or not, and on *', () => {
    expect(ifNoneMatchHits('W/"3"', '"3"')).toBe(true);
    expect(ifNoneMatchHits('"1", "3"', '"3"')).toBe(true);
    expect(ifNoneMatchHits('*', '"3"')).toBe(true);
    expect(ifNoneMatchHits('"4"', '"3"')).toBe(false);
    expect(ifNoneMatchHits(undefined, '"3"')).toBe(false);
  });
});
