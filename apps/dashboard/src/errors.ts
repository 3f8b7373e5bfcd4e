import { ApiError, problemText } from './api/client.ts';

/**
 * Why a load failed, in words, for a person: what the API said (with its status), or that it could not be reached at
 * all. A bare `TypeError: Failed to fetch` (Chromium), `NetworkError when attempting to fetch resource.` (Firefox) or
 * `Load failed` (Safari) says only that no answer came: the network, the gateway or the service behind it is down.
 */
export function describeLoadError(error: unknown): string {
  if (error instanceof ApiError) {
    const said = error.problems.map(problemText).join('; ') || `HTTP ${error.status}`;
    const status = `HTTP ${error.status}`;
    if (error.status === 401) return `The API refused the token (${status}: ${said}). Log out and log in again.`;
    if (error.status === 403) return `The API does not allow this with your token (${status}: ${said}).`;
    if (error.status === 404) return `The API does not know it (${status}: ${said}).`;
    if (error.status === 429) return `The API is asking for fewer requests for a while (${status}: ${said}).`;
    if (error.status === 502 || error.status === 503 || error.status === 504) {
      return `The service behind the gateway did not answer (${status}: ${said}).`;
    }
    if (error.status >= 500) return `The API failed (${status}: ${said}).`;
    return `The API refused the request (${status}: ${said}).`;
  }
  if (error instanceof TypeError) {
    return `The API could not be reached: the network, the gateway or the service did not answer (the browser said “${error.message}”).`;
  }
  if (error instanceof Error) return error.message;
  return String(error);
}
