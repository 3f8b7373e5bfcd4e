import type { TestResponse } from '@switchyard/service-kit/testing';
import { expect } from 'vitest';
import type { OperationRef, RecordedAnswer, RecordedCall } from '../../../code-host/test/contract/fixtures/index.ts';
import { gitHubDescription } from './github-description.ts';

/** A recorded call, with the operation whose response schemas it follows when its own is undocumented. */
export type RecordedEntry = RecordedCall & { schemaOperation?: OperationRef };

/** The operation whose 401 answer is GitHub's `basic-error` schema (`message`, `documentation_url`, …). */
const BASIC_ERROR: OperationRef = { method: 'get', path: '/user' };

/** The JSON body the emulator answered, when its content type says JSON. */
function jsonBody(res: TestResponse): unknown {
  expect(res.headers.get('content-type'), res.text).toMatch(/^application\/json/);
  return res.body;
}

/**
 * Asserts that the emulator answered `res` as GitHub answers in the situation `answer` of `entry`: the same status, a
 * body valid against the response schema the description gives that operation and status (a `basic-error` when it
 * gives none), and, with `sameMessage`, GitHub's very `message`. Returns the body.
 */
export function expectAsRecorded(
  res: TestResponse,
  entry: RecordedEntry,
  answer: string,
  options: { sameMessage?: boolean } = {},
): unknown {
  const recordedAnswer = (entry.answers as Record<string, RecordedAnswer>)[answer];
  if (!recordedAnswer) throw new Error(`no recorded answer ${answer}`);
  expect(res.status, `${answer}: ${res.text.slice(0, 300)}`).toBe(recordedAnswer.status);
  if (recordedAnswer.text !== undefined) return res.text;
  if (recordedAnswer.body === undefined) {
    expect(res.text, answer).toBe('');
    return undefined;
  }
  const body = jsonBody(res);
  const operation = entry.schemaOperation ?? entry.operation;
  if (operation.path !== '/graphql') {
    const description = gitHubDescription();
    const documented = description.operation(operation).responses[String(recordedAnswer.status)]?.content?.['application/json']?.schema;
    const errors = documented
      ? description.responseErrors(operation, recordedAnswer.status, body)
      : description.responseErrors(BASIC_ERROR, 401, body);
    expect(errors, answer).toEqual([]);
  }
  if (options.sameMessage) {
    expect((body as { message?: unknown }).message, answer).toBe((recordedAnswer.body as { message?: unknown }).message);
  }
  return body;
}

/**
 * Asserts a known difference between the emulator and GitHub in the situation `answer` of `entry`: GitHub answers the
 * recorded status, the emulator `emulator.status` (and `emulator.message`). The test fails once the emulator answers
 * as GitHub does, so that the case moves to {@link expectAsRecorded}.
 */
export function expectKnownDrift(
  res: TestResponse,
  entry: RecordedEntry,
  answer: string,
  emulator: { status: number; message?: string },
): void {
  const recordedAnswer = (entry.answers as Record<string, RecordedAnswer>)[answer];
  if (!recordedAnswer) throw new Error(`no recorded answer ${answer}`);
  expect(recordedAnswer.status, `${answer}: GitHub's status`).not.toBe(emulator.status);
  expect(res.status, `${answer}: the emulator's status (GitHub: ${recordedAnswer.status})`).toBe(emulator.status);
  if (emulator.message !== undefined) expect((res.body as { message?: unknown }).message).toBe(emulator.message);
}
