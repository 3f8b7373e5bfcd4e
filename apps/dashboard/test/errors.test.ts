import { describe, expect, it } from 'vitest';
import { ApiError } from '../src/api/client.ts';
import { describeLoadError } from '../src/errors.ts';

describe('describeLoadError: why a view could not load, in words', () => {
  it('says the API could not be reached when the browser only says "Failed to fetch"', () => {
    expect(describeLoadError(new TypeError('Failed to fetch'))).toBe(
      'The API could not be reached: the network, the gateway or the service did not answer (the browser said “Failed to fetch”).',
    );
  });

  it("gives the API's own words with its status, and what it means", () => {
    const unavailable = new ApiError(503, [{ status: 503, title: 'Service Unavailable', detail: 'release-svc did not answer' }]);
    expect(describeLoadError(unavailable)).toBe(
      'The service behind the gateway did not answer (HTTP 503: Service Unavailable: release-svc did not answer).',
    );
    expect(describeLoadError(new ApiError(401, [{ status: 401, title: 'Unauthorized' }]))).toBe(
      'The API refused the token (HTTP 401: Unauthorized). Log out and log in again.',
    );
    expect(describeLoadError(new ApiError(403, [{ status: 403, title: 'Forbidden', detail: 'admins only' }]))).toContain(
      'does not allow this with your token (HTTP 403: Forbidden: admins only)',
    );
    expect(describeLoadError(new ApiError(500, []))).toBe('The API failed (HTTP 500: HTTP 500).');
    expect(describeLoadError(new ApiError(400, [{ status: 400, title: 'Bad Request', field: 'page', detail: 'must be a number' }]))).toBe(
      'The API refused the request (HTTP 400: page: must be a number).',
    );
  });

  it('falls back to the error message', () => {
    expect(describeLoadError(new Error('the answer was not JSON'))).toBe('the answer was not JSON');
    expect(describeLoadError('odd')).toBe('odd');
  });
});
