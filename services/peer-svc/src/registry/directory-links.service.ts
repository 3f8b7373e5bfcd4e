import { parsePeerUrl } from '../directory/directory-name.policy.ts';
import type { ChildDirectories } from './child-directory.service.ts';
import type { DirectoryEntryService } from './directory-entry.service.ts';
import type { PeerRow } from './peer.table.ts';
import type { Registrar } from './registrar.service.ts';

/**
 * What is done with a remote directory when it comes back or goes, by its role (upstream
 * https://github.com/NationalSecurityAgency/emissary at `40260b1ec`, `DirectoryPlace.contactedRemoteDirectory` and
 * `irdFailRemoteDirectory`, which branch on peer / child / relay parent the same way).
 */
export interface DirectoryLinks {
  /**
   * Contacts again a directory that answers after not answering: a peer is registered with (zone transfer), a child's
   * places are transferred, our parent is told again that we are its child.
   * @throws PeerError (and what the registrar throws) when that fails
   */
  reconnect(peer: PeerRow): Promise<void>;
  /**
   * A directory failed or left: a peer's entries are removed from the directory (those it gave us, and every other
   * entry on its host, as upstream's `removePlaces(hostMatchKey)`), a child's places and proxies go, a parent leaves
   * nothing to remove.
   * @returns how many directory entries were removed
   */
  forget(peer: PeerRow): Promise<number>;
}

/** The {@link DirectoryLinks} over the registrar, the child directories and the directory's entries. */
export function createDirectoryLinks(deps: {
  registrar: Registrar;
  children: ChildDirectories;
  entries: Pick<DirectoryEntryService, 'removeSource' | 'removeHost'>;
}): DirectoryLinks {
  const { registrar, children, entries } = deps;
  return {
    reconnect: async (peer) => {
      if (peer.role === 'child') await children.transferFrom(peer.url);
      else if (peer.role === 'parent') await registrar.registerAsChild(peer.url);
      else await registrar.registerWith(peer.url);
    },
    forget: async (peer) => {
      if (peer.role === 'child') return children.childGone(peer.key);
      if (peer.role === 'parent') return 0;
      const given = await entries.removeSource(peer.key);
      const onHost = await entries.removeHost(parsePeerUrl(peer.url).hostUrl);
      return given.removed.length + onHost.reduce((count, change) => count + change.removed.length, 0);
    },
  };
}
