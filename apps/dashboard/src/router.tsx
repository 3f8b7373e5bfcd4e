import type { ComponentChildren } from 'preact';
import { useEffect, useState } from 'preact/hooks';

/**
 * The dashboard's routes are History API paths under `/ui` (the gateway answers every `/ui/<path>` without a dot with
 * the page itself), so each view has an address that can be bookmarked, shared and reloaded. Nothing secret is ever
 * part of one: the token stays in session storage.
 */
export const BASE = '/ui';

/** The app-relative location: `path` without the `/ui` base (always starting with `/`) and its query. */
export interface Location {
  path: string;
  search: URLSearchParams;
}

const listeners = new Set<() => void>();

function current(): Location {
  const path = window.location.pathname.startsWith(BASE) ? window.location.pathname.slice(BASE.length) || '/' : '/';
  return { path, search: new URLSearchParams(window.location.search) };
}

window.addEventListener('popstate', () => {
  for (const listener of listeners) listener();
});

/** Goes to the app path `to` (e.g. `/accounts/2001/repos?state=inactive`), adding a history entry unless `replace`. */
export function navigate(to: string, replace = false): void {
  const url = `${BASE}${to.startsWith('/') ? to : `/${to}`}`;
  if (replace) window.history.replaceState(null, '', url);
  else window.history.pushState(null, '', url);
  for (const listener of listeners) listener();
}

/** The current location; the component renders again when it changes. */
export function useLocation(): Location {
  const [location, setLocation] = useState(current);
  useEffect(() => {
    const listener = () => setLocation(current());
    listeners.add(listener);
    return () => listeners.delete(listener);
  }, []);
  return location;
}

/**
 * The parameters of `path` against `pattern` (`/accounts/:id/repos` → `{ id }`), or undefined when it does not match.
 * Parameters are URI-decoded.
 */
export function match(pattern: string, path: string): Record<string, string> | undefined {
  const want = pattern.split('/').filter(Boolean);
  const have = path.split('/').filter(Boolean);
  if (want.length !== have.length) return undefined;
  const params: Record<string, string> = {};
  for (let i = 0; i < want.length; i++) {
    const part = want[i] as string;
    const value = have[i] as string;
    if (part.startsWith(':')) params[part.slice(1)] = decodeURIComponent(value);
    else if (part !== value) return undefined;
  }
  return params;
}

/** A link to an app path: a real `<a href>` (it opens in a new tab as usual), followed in place on a plain click. */
export function Link({
  href,
  children,
  ...rest
}: {
  href: string;
  children: ComponentChildren;
  class?: string;
  'aria-current'?: 'page' | undefined;
}) {
  const onClick = (event: MouseEvent) => {
    if (event.defaultPrevented || event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey || event.altKey) return;
    event.preventDefault();
    navigate(href);
  };
  return (
    <a href={`${BASE}${href}`} onClick={onClick} {...rest}>
      {children}
    </a>
  );
}
