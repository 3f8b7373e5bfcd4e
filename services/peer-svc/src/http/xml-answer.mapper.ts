import type { Response } from 'express';
import { groupByDataId } from '../directory/directory-entry.policy.ts';
import { directoryXml } from '../directory/directory-xml.mapper.ts';
import type { DirectoryListing } from '../registry/directory-entry.service.ts';

/** The content type of the directory XML (upstream's RegisterPeer `@Produces(application/xml)`, with its charset). */
export const XML_CONTENT_TYPE = 'application/xml; charset=utf-8';

/** Sends an XML document (`application/xml; charset=utf-8`) with `X-Content-Type-Options: nosniff` and `Cache-Control: no-store`. */
export function sendXml(res: Response, status: number, body: string): void {
  res.status(status);
  res.set({ 'content-type': XML_CONTENT_TYPE, 'x-content-type-options': 'nosniff', 'cache-control': 'no-store' });
  res.send(Buffer.from(body, 'utf8'));
}

/**
 * Answers the directory as upstream's `RegisterPeerAction` does (https://github.com/NationalSecurityAgency/emissary,
 * `src/main/java/emissary/server/mvc/internal/RegisterPeerAction.java`, `DirectoryXmlContainer.toXmlString`): 200
 * `application/xml`, every entry of `listing` (local and learned, the directory place's own included) grouped by data id
 * as `directoryXml` writes it, `location` being the listing's.
 */
export function sendDirectoryXml(res: Response, listing: DirectoryListing): void {
  sendXml(
    res,
    200,
    directoryXml(
      listing.location,
      groupByDataId(listing.entries, (row) => row.data_id),
    ),
  );
}
