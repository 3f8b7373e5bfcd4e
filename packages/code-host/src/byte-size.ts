import prettyBytes from 'pretty-bytes';

/**
 * A size in bytes in words for messages: whole bytes under 1 KiB (`512 B`), else binary units with one decimal
 * (`5.0 MiB`, `150.0 MiB`, `1.5 GiB`), always in English number format.
 */
export function formatBytes(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  return prettyBytes(bytes, { binary: true, minimumFractionDigits: 1, maximumFractionDigits: 1, locale: 'en-US' });
}
