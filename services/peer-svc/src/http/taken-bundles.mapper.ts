import type { TakenWorkBundle, TakenWorkBundles } from '@switchyard/contracts';
import type { QueuedBundle } from '../work-bundle/work-queue.service.ts';

/** A bundle as {@link TakenWorkBundle}: its JSON object, or its text when it is not a JSON object; `enqueuedAt` RFC 3339 or null. */
function takenBundle(bundle: QueuedBundle): TakenWorkBundle {
  const text = bundle.body.toString('utf8');
  let workBundle: TakenWorkBundle['workBundle'] = text;
  try {
    const parsed: unknown = JSON.parse(text);
    if (typeof parsed === 'object' && parsed !== null && !Array.isArray(parsed)) workBundle = parsed as Record<string, unknown>;
  } catch {
    // Not JSON: answered as its text.
  }
  return { enqueuedAt: bundle.enqueuedAt?.toISOString() ?? null, workBundle };
}

/** What a take answers ({@link TakenWorkBundles}): the client place as named, its queue and the bundles taken, oldest first. */
export function takenBundles(clientPlace: string, queue: string, bundles: readonly QueuedBundle[]): TakenWorkBundles {
  return { clientPlace, queue, bundles: bundles.map(takenBundle) };
}
