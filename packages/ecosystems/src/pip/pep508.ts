/**
 * Reading PEP 508 dependency specifiers (https://peps.python.org/pep-0508/) as requirements.txt and
 * pyproject.toml write them: `name[extra1,extra2] (>=1.0,<2) ; python_version < "3.8"` or `name @ https://...`.
 */

/** One parsed dependency specifier. */
export interface Pep508Requirement {
  /** As written. */
  name: string;
  extras: string[];
  /** The version specifier as written without surrounding parentheses, e.g. `>=1.0,<2`; null when none. */
  specifier: string | null;
  /** The direct reference URL of `name @ url`, else null. */
  url: string | null;
  /** The environment marker after `;`, else null (read but not evaluated). */
  marker: string | null;
}

const NAME = /^([A-Za-z0-9](?:[A-Za-z0-9._-]*[A-Za-z0-9])?)\s*(?:\[([^\]]*)\])?\s*/;
const CLAUSE = String.raw`(?:===|~=|==|!=|<=|>=|<|>)\s*[A-Za-z0-9_.*+!-]+`;
const SPECIFIER = new RegExp(String.raw`^${CLAUSE}(?:\s*,\s*${CLAUSE})*$`);

/**
 * Parses one specifier. Returns undefined when the text is not a PEP 508 requirement (no name, or text after
 * the name that is neither a version specifier, a `@ url` nor a `;` marker).
 */
export function parsePep508(text: string): Pep508Requirement | undefined {
  const match = NAME.exec(text.trim());
  if (!match?.[1]) return undefined;
  const name = match[1];
  const extras = (match[2] ?? '')
    .split(',')
    .map((e) => e.trim())
    .filter(Boolean);
  let rest = text.trim().slice(match[0].length);
  if (rest.startsWith('@')) {
    const [url = '', marker] = splitMarker(rest.slice(1), /\s;/);
    return { name, extras, specifier: null, url: url.trim(), marker: marker ?? null };
  }
  const [spec = '', marker] = splitMarker(rest, /;/);
  rest = spec.trim();
  if (rest.startsWith('(') && rest.endsWith(')')) rest = rest.slice(1, -1).trim();
  if (rest !== '' && !SPECIFIER.test(rest)) return undefined;
  return { name, extras, specifier: rest === '' ? null : rest, url: null, marker: marker ?? null };
}

function splitMarker(text: string, separator: RegExp): [string, string?] {
  const at = text.search(separator);
  if (at < 0) return [text];
  const marker = text.slice(at).replace(/^\s*;/, '').trim();
  return [text.slice(0, at), marker];
}

/** The exact version of a `==1.2.3` / `===1.2.3` specifier (no wildcard, one clause), else null. */
export function pinnedVersion(specifier: string | null): string | null {
  const match = specifier === null ? null : /^(?:===?)\s*([^\s,*]+)$/.exec(specifier.trim());
  return match?.[1] ?? null;
}
