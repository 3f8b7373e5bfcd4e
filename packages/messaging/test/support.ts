import { randomBytes, randomUUID } from 'node:crypto';
import type { EventEnvelope } from '@switchyard/contracts';
import { pino } from 'pino';

/** A silent logger for tests (LOG_LEVEL=debug in the environment shows the bus's logs). */
export const testLogger = pino({ level: process.env.LOG_LEVEL ?? 'silent' });

/** A short random suffix for exchange and queue names, so test files never share broker objects. */
export function uniqueSuffix(): string {
  return randomBytes(4).toString('hex');
}

/** A valid envelope of `type` (payload version 1) with `data`. */
export function makeEvent<T>(type: string, data: T, source = 'test-svc'): EventEnvelope<T> {
  return { id: randomUUID(), type, version: 1, source, time: new Date().toISOString(), data };
}
