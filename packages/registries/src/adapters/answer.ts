import type { RegistryAnswer } from '../http/registry-http.ts';
import { RegistryError } from '../port.ts';

/**
 * What every adapter does with a registry's answer before reading its protocol's fields.
 */

/** Is `value` a JSON object (not an array, not null)? */
export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** A `bad_response` {@link RegistryError} about `answer` (the URL it came from), with the cause when there is one. */
export function badResponse(answer: Pick<RegistryAnswer, 'url'>, message: string, cause?: unknown): RegistryError {
  return new RegistryError('bad_response', answer.url, message, cause === undefined ? {} : { cause });
}
