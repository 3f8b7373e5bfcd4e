/** The strong entity tag (RFC 9110 section 8.8.3) of a stored version of a book: `"<version>"`. */
export function etagOf(version: number): string {
  return `"${version}"`;
}
