import type { ServerResponse } from 'node:http';
import type { Request } from 'express';
import { describe, expect, it } from 'vitest';
import { renderJsonApiErrors } from '../src/json-api-errors.ts';

function render(error: Parameters<typeof renderJsonApiErrors>[0]) {
  let status = 0;
  let headers: Record<string, unknown> = {};
  let body = '';
  const res = {
    writeHead: (s: number, h: Record<string, unknown>) => {
      status = s;
      headers = h;
    },
    end: (payload: string) => {
      body = payload;
    },
  } as unknown as ServerResponse;
  renderJsonApiErrors(error, {} as Request, res);
  return { status, headers, body: JSON.parse(body) };
}

describe('renderJsonApiErrors', () => {
  it("writes the original's envelope with a numeric status and a plain JSON content type", () => {
    const out = render({ status: 403, title: 'Forbidden', detail: "No access token provided in 'Authorization' header", headers: {} });
    expect(out.status).toBe(403);
    expect(out.headers['content-type']).toBe('application/json; charset=utf-8');
    expect(out.body).toEqual({
      errors: [{ status: 403, title: 'Forbidden', detail: "No access token provided in 'Authorization' header" }],
    });
  });

  it('writes one error per invalid field, naming it and pointing at it', () => {
    const out = render({
      status: 400,
      title: 'Bad Request',
      detail: 'Invalid request body: ...',
      errors: [
        { pointer: '#/repo-id', detail: 'is required' },
        { parameter: 'page', detail: 'must be a positive integer' },
      ],
      headers: {},
    });
    expect(out.body.errors).toEqual([
      { status: 400, title: 'Bad Request', detail: 'repo-id is required', source: { pointer: '/repo-id' } },
      { status: 400, title: 'Bad Request', detail: 'page must be a positive integer', source: { parameter: 'page' } },
    ]);
  });

  it('passes extra headers such as Retry-After and Allow', () => {
    const out = render({ status: 429, title: 'Too Many Requests', headers: { 'retry-after': '30' } });
    expect(out.headers['retry-after']).toBe('30');
  });
});
