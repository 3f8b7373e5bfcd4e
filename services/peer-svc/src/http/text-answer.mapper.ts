import type { Response } from 'express';
import { neutralise } from '../directory/neutralise.policy.ts';

/**
 * The peer endpoints' `text/plain` answers: how they are sent, and upstream's success bodies
 * (https://github.com/NationalSecurityAgency/emissary, `src/main/java/emissary/server/mvc/internal/*Action.java`).
 */

/** Sends a `text/plain; charset=utf-8` answer with `X-Content-Type-Options: nosniff` and `Cache-Control: no-store`. */
export function sendText(res: Response, status: number, body: string): void {
  res.status(status);
  res.set({ 'content-type': 'text/plain; charset=utf-8', 'x-content-type-options': 'nosniff', 'cache-control': 'no-store' });
  res.send(body);
}

/** Heartbeat's 200 body: the local directory as upstream's `DirectoryProviderPlace.toString` prints it, `<key>$5050[1]`. */
export const heartbeatAnswer = (selfKey: string) => `${selfKey}$5050[1]`;

/** AddChildDirectory's 200 body (upstream `AddChildDirectoryAction`). */
export const ADD_CHILD_SUCCEEDED = 'addChildDirectory succeeded';

/**
 * FailDirectory's 200 body (upstream `FailDirectoryAction`): `Modified <removed> entries from <key>$5050[1] due to failure
 * of remote <dirFailName>`, the name as sent, neutralised.
 */
export const failDirectoryAnswer = (removed: number, selfKey: string, failed: string | undefined) =>
  `Modified ${removed} entries from ${heartbeatAnswer(selfKey)} due to failure of remote ${neutralise(failed ?? 'null')}`;

/** RegisterPlace's 200 body (upstream `RegisterPlaceAction.ADD_SUCCESS`). */
export const ADD_SUCCESS = 'Directory.addPlace succeeded';

/**
 * DeregisterPlace's 200 body (upstream `DeregisterPlaceAction`): `Successfully removed <n> place(s) with keys: [<key>, …]`,
 * the keys neutralised.
 */
export const removedPlacesAnswer = (removed: number, keys: readonly string[]) =>
  `Successfully removed ${removed} place(s) with keys: [${keys.map((key) => neutralise(key)).join(', ')}]`;
