import type { Response } from 'express';
import { groupByDataId } from '../directory/directory-entry.ts';
import { directoryXml } from '../directory/directory-xml.ts';
import type { EntryStore } from '../registry/entry-store.ts';
import { sendXml } from './xml-response.ts';

/**
 * Answers a successful RegisterPeer as upstream's `RegisterPeerAction` does (https://github.com/NationalSecurityAgency/emissary,
 * `src/main/java/emissary/server/mvc/internal/RegisterPeerAction.java`, `DirectoryXmlContainer.toXmlString`): 200
 * `application/xml`, the whole directory (every entry, local and learned, the directory place's own included) as
 * `directoryXml` writes it, `location` being `selfKey`.
 * @throws what the store throws (a database error: the app's 500)
 */
export async function sendDirectoryXml(res: Response, entries: EntryStore, selfKey: string): Promise<void> {
  const rows = await entries.listEntries();
  sendXml(
    res,
    200,
    directoryXml(
      selfKey,
      groupByDataId(rows, (row) => row.data_id),
    ),
  );
}
