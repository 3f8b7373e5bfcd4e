import { expect } from 'vitest';
import { CodeHostError } from '../src/index.ts';

/** Fails the test unless `promise` rejects with a CodeHostError; returns that error. */
export async function codeHostError(promise: Promise<unknown>): Promise<CodeHostError> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(CodeHostError);
  return error as CodeHostError;
}
