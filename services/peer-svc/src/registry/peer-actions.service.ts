import {
  type DomainError,
  Forbidden,
  InvalidInput,
  NotFound,
  ServiceUnavailable,
  UpstreamFailed,
  UpstreamTimeout,
} from '@switchyard/service-kit';
import {
  type DirectoryName,
  DirectoryNameError,
  directoryKeyOf,
  isSameDirectoryUrl,
  parseDirectoryName,
} from '../directory/directory-name.policy.ts';
import { neutralise } from '../directory/neutralise.policy.ts';
import { PeerError, PeerNotAllowedError, PeerTimeoutError } from '../security/peer.client.ts';
import type { PeerAllowList } from '../security/peer-allow-list.policy.ts';
import type { ChildDirectories } from './child-directory.service.ts';
import type { Departure } from './departure.service.ts';
import type { DirectoryEntryService, DirectoryListing } from './directory-entry.service.ts';
import type { PeerService } from './peer.service.ts';
import type { Registrar } from './registrar.service.ts';

/**
 * What a peer asks of this directory, after upstream's actions (https://github.com/NationalSecurityAgency/emissary,
 * `src/main/java/emissary/server/mvc/internal/HeartbeatAction.java`, `RegisterPeerAction.java`,
 * `AddChildDirectoryAction.java`, `FailDirectoryAction.java`): each takes the request's parameters as sent (`undefined`
 * when absent) and checks them in upstream's order, then acts. Every refusal is a `DomainError` whose message is the
 * whole answer, with upstream's words and the echoed input neutralised (statuses in the README).
 */
export interface PeerActions {
  /** This directory place's key, `EMISSARY_DIRECTORY_SERVICES.DIRECTORY.STUDY.<self url>`. */
  readonly selfKey: string;
  /**
   * `Heartbeat.action` from `hbf` (the sender's directory key) to `hbt` (our directory place URL): recorded on a peer
   * already known (configured or registered); an unknown sender creates nothing, and our own directory is known too.
   * @throws InvalidInput (no `hbt`, no `hbf`, a malformed `hbf`), ServiceUnavailable (we are leaving), Forbidden (a
   *   sender not allow-listed or not known), NotFound (`hbt` not our directory place)
   */
  heartbeat(hbf: string | undefined, hbt: string | undefined): Promise<void>;
  /**
   * `RegisterPeer.action` from `directoryName` (the caller's directory key) to `targetDir` (our directory place URL):
   * the allow-list is checked before any outbound request, then `Registrar.acceptRegistration` (our own directory
   * registers nothing).
   * @returns the directory to answer (every entry, ours and learned)
   * @throws InvalidInput (a missing or malformed parameter), ServiceUnavailable (leaving), NotFound (`targetDir`),
   *   Forbidden (not allow-listed, a child or our parent, `PEER_MAX` reached); a failed peer as Forbidden (refused by the
   *   allow-list), UpstreamTimeout (timed out) or UpstreamFailed (anything else)
   */
  registerPeer(directoryName: string | undefined, targetDir: string | undefined): Promise<DirectoryListing>;
  /**
   * `AddChildDirectory.action` from `directoryName` (the child's key) to `targetDir` (optional, our directory place
   * URL): the child is recorded and its places transferred before the answer; a transfer that fails leaves the child to
   * the heartbeats (upstream answers 200 all the same).
   * @throws InvalidInput (no or a malformed `directoryName`), NotFound (`targetDir`), Forbidden (not allow-listed, our
   *   own directory, `PEER_MAX` reached), ServiceUnavailable (leaving), AlreadyExists (a peer or our parent here)
   */
  addChildDirectory(directoryName: string | undefined, targetDir: string | undefined): Promise<void>;
  /**
   * `FailDirectory.action`: the directory `dirFailName` tells us, at `targetDir` (our directory place URL), that it
   * leaves. Only the sender's own departure is believed, so it must be an allow-listed peer, and a directory never
   * fails itself (upstream refuses that "filthy lie"); an unknown directory changes nothing.
   * @returns how many directory entries were removed
   * @throws InvalidInput (a missing or malformed parameter), NotFound (`targetDir`), Forbidden (not allow-listed, our
   *   own directory)
   */
  failDirectory(dirFailName: string | undefined, targetDir: string | undefined): Promise<number>;
}

/** Dependencies of {@link createPeerActions}. */
export interface PeerActionsDeps {
  store: Pick<PeerService, 'recordHeartbeat'>;
  /** The directory a successful RegisterPeer answers. */
  entries: Pick<DirectoryEntryService, 'listEntries'>;
  registrar: Registrar;
  /** Whether we are leaving, and a peer's departure. */
  departure: Pick<Departure, 'isLeaving' | 'peerLeft'>;
  children: Pick<ChildDirectories, 'accept'>;
  allowList: PeerAllowList;
}

const n = (value: string | undefined) => neutralise(value ?? 'null');

/** A failed peer as the caller is told: `Forbidden` when not allow-listed, `UpstreamTimeout` when it timed out, else `UpstreamFailed`. */
function peerFailure(error: PeerError, what: string): DomainError {
  if (error instanceof PeerNotAllowedError) return new Forbidden(`${what}: peer not allowed`, { cause: error });
  if (error instanceof PeerTimeoutError) return new UpstreamTimeout(`${what}: peer timed out`, { cause: error });
  return new UpstreamFailed(`${what}: peer failed`, { cause: error });
}

/** `text` as a directory name. @throws what `bad` makes when it is malformed */
function directoryName(text: string, bad: () => DomainError): DirectoryName {
  try {
    return parseDirectoryName(text);
  } catch (error) {
    if (error instanceof DirectoryNameError) throw bad();
    throw error;
  }
}

/** The {@link PeerActions} of this directory. */
export function createPeerActions(deps: PeerActionsDeps): PeerActions {
  const { store, entries, registrar, departure, children, allowList } = deps;
  const isSelf = (text: string) => isSameDirectoryUrl(text, registrar.selfUrl);
  const listing = async (): Promise<DirectoryListing> => ({ location: registrar.selfKey, entries: await entries.listEntries() });

  return {
    selfKey: registrar.selfKey,

    heartbeat: async (hbf, hbt) => {
      if (hbt === undefined || hbt === '') {
        throw new InvalidInput(`Heartbeat failed with illegal argument No place specified in msg from ${n(hbf)}`);
      }
      if (hbf === undefined || hbf === '') throw new InvalidInput('Heartbeat failed with illegal argument No sender specified');
      if (departure.isLeaving()) throw new ServiceUnavailable('Heartbeat failed, directory is shutting down');
      const from = directoryName(hbf, () => new InvalidInput(`Heartbeat failed, directory not found for ${n(hbf)}`));
      if (!allowList.isAllowedPeer(from.url.href)) throw new Forbidden(`Heartbeat failed, directory not found for ${n(hbf)}`);
      if (!isSelf(hbt)) throw new NotFound(`Heartbeat failed with namespace exception Not found: ${n(hbt)}`);
      // Only a peer already known (configured or registered) is updated; an unknown sender creates nothing. Our own
      // directory is known too (nothing to record).
      const known = isSelf(from.url.href) || (await store.recordHeartbeat({ key: from.peerKey, url: from.url.href }));
      if (!known) throw new Forbidden(`Heartbeat failed, directory not found for ${n(hbf)}`);
    },

    registerPeer: async (name, target) => {
      const bad = () => new InvalidInput(`Bad Params: directoryName - ${n(name)}, targetDir - ${n(target)}`);
      if (!name || !target) throw bad();
      if (departure.isLeaving()) throw new ServiceUnavailable(`Registration failed for peer: ${n(name)}: directory is shutting down`);
      const peer = directoryName(name, bad);
      if (!isSelf(target)) throw new NotFound(`Remote directory lookup failed for dirName: ${n(target)}`);
      // The allow-list is checked here, before any outbound request.
      if (!allowList.isAllowedPeer(peer.url.href)) throw new Forbidden(`Registration failed for peer: ${n(name)}`);
      if (peer.peerKey !== directoryKeyOf(registrar.selfUrl)) {
        await registrar.acceptRegistration(peer).catch((error: unknown) => {
          throw error instanceof PeerError ? peerFailure(error, `Registration failed for peer: ${n(name)}`) : error;
        });
      }
      return listing();
    },

    addChildDirectory: async (child, parent) => {
      if (!child) throw new InvalidInput('Could not call addChildDirectory:\nMissing required parameters');
      const name = directoryName(child, () => new InvalidInput(`Could not call addChildDirectory:\nInvalid directory name ${n(child)}`));
      if (parent !== undefined && parent !== '' && !isSelf(parent)) {
        throw new NotFound(`Could not call addChildDirectory:\nNo parent directory found using name ${n(parent)}`);
      }
      if (!allowList.isAllowedPeer(name.url.href)) throw new Forbidden(`Could not call addChildDirectory:\nPeer not allowed ${n(child)}`);
      // Upstream refuses (logs, still 200) its own key; here 403, as a FailDirectory of ourselves.
      if (isSelf(name.url.href)) throw new Forbidden(`Could not call addChildDirectory:\nCannot be own child ${n(child)}`);
      if (departure.isLeaving()) throw new ServiceUnavailable('Could not call addChildDirectory:\ndirectory is shutting down');
      await children.accept(name);
    },

    failDirectory: async (failed, target) => {
      const bad = () => new InvalidInput(`Bad params: targetDir - ${n(target)}, dirFailName - ${n(failed)}`);
      if (!failed || !target) throw bad();
      const peer = directoryName(failed, bad);
      if (!isSelf(target)) throw new NotFound(`No local directory ${n(target)}`);
      if (!allowList.isAllowedPeer(peer.url.href)) throw new Forbidden(`Peer not allowed ${n(failed)}`);
      if (isSelf(peer.url.href)) throw new Forbidden(`Will not fail this directory ${n(failed)}`);
      return departure.peerLeft(peer);
    },
  };
}
