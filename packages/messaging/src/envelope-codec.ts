import { EventEnvelope } from '@switchyard/contracts';
import { InvalidEventError } from './errors.ts';

/** The outcome of decoding a message body: the event, or why it is not one. */
export type DecodeResult = { ok: true; event: EventEnvelope } | { ok: false; error: string };

function parse(value: unknown): { event: EventEnvelope; issues?: undefined } | { event?: undefined; issues: string[] } {
  const result = EventEnvelope.safeParse(value);
  if (result.success) return { event: { ...result.data, data: result.data.data } };
  return { issues: result.error.issues.map((issue) => `${issue.path.join('.') || '(envelope)'}: ${issue.message}`) };
}

/**
 * Checks every event of a batch before anything is sent or stored.
 * @returns the events as given
 * @throws InvalidEventError for the first event that is not a valid `EventEnvelope`
 */
export function assertValidEvents(events: readonly EventEnvelope[]): readonly EventEnvelope[] {
  events.forEach((event, index) => {
    const { issues } = parse(event);
    if (issues) throw new InvalidEventError(index, issues);
  });
  return events;
}

/** The wire form of an event: its JSON, UTF-8 (content type `application/json`). */
export function encodeEvent(event: EventEnvelope): Buffer {
  return Buffer.from(JSON.stringify(event), 'utf8');
}

/**
 * Reads a message body as an `EventEnvelope` (JSON, UTF-8). Never throws: a body that is not JSON, or JSON
 * that is not a valid envelope, gives `{ ok: false, error }` with a one-line reason (no body content in it).
 */
export function decodeEvent(content: Uint8Array): DecodeResult {
  let value: unknown;
  try {
    value = JSON.parse(Buffer.from(content).toString('utf8'));
  } catch {
    return { ok: false, error: `body is not JSON (${content.length} bytes)` };
  }
  const { event, issues } = parse(value);
  if (event) return { ok: true, event };
  return { ok: false, error: `body is not an EventEnvelope: ${issues.join('; ').slice(0, 500)}` };
}
