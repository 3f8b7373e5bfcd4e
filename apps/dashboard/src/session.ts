/**
 * The user's API token, kept in the tab's session storage (gone when the tab closes) and sent only to this API, as
 * `Authorization: Personal <token>` (the dependency update API's scheme). Never put in a URL, never logged.
 */
const KEY = 'switchyard.token';

/** The stored token, or undefined when the user has not logged in in this tab. */
export function storedToken(): string | undefined {
  try {
    return sessionStorage.getItem(KEY) ?? undefined;
  } catch {
    return undefined;
  }
}

/** Keeps `token` for this tab. */
export function storeToken(token: string): void {
  sessionStorage.setItem(KEY, token);
}

/** Forgets the token (log out). */
export function forgetToken(): void {
  sessionStorage.removeItem(KEY);
}
