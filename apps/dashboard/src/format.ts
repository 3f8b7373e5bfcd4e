const dateTime = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium', timeStyle: 'short' });

/** An RFC 3339 instant in the reader's locale and time zone (`26 Nov 2026, 14:05`), or `—` for null. */
export function when(instant: string | null | undefined): string {
  if (!instant) return '—';
  const date = new Date(instant);
  return Number.isNaN(date.getTime()) ? instant : dateTime.format(date);
}

/** A count with its noun, singular or plural (`1 repo`, `3 repos`). */
export function count(n: number, singular: string, plural = `${singular}s`): string {
  return `${n.toLocaleString()} ${n === 1 ? singular : plural}`;
}
