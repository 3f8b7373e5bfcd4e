import type { Response } from 'express';

/** Sends a `text/plain` answer with `X-Content-Type-Options: nosniff` and `Cache-Control: no-store`. */
export function sendText(res: Response, status: number, body: string): void {
  res.status(status);
  res.set({ 'content-type': 'text/plain; charset=utf-8', 'x-content-type-options': 'nosniff', 'cache-control': 'no-store' });
  res.send(body);
}
