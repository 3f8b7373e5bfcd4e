import type { Response } from 'express';

/** The content type of the directory XML (upstream's RegisterPeer `@Produces(application/xml)`, with its charset). */
export const XML_CONTENT_TYPE = 'application/xml; charset=utf-8';

/** Sends an XML document (`application/xml; charset=utf-8`) with `X-Content-Type-Options: nosniff` and `Cache-Control: no-store`. */
export function sendXml(res: Response, status: number, body: string): void {
  res.status(status);
  res.set({ 'content-type': XML_CONTENT_TYPE, 'x-content-type-options': 'nosniff', 'cache-control': 'no-store' });
  res.send(Buffer.from(body, 'utf8'));
}
