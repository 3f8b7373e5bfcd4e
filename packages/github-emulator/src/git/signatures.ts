import { createHash } from 'node:crypto';
import { commitPayload, type GitCommit, type GitSignature } from './objects.ts';

/**
 * Commits the emulator signs as GitHub signs the commits it makes itself (web edits, merges in the UI, and GraphQL's
 * `createCommitOnBranch`: "Commits made using this mutation are automatically signed by GitHub if supported and will be
 * marked as verified in the user interface", https://docs.github.com/graphql/reference/mutations#createcommitonbranch).
 * The signature is the emulator's mark, shaped as an armoured OpenPGP signature but not one: it is the SHA-256 of the
 * signed payload, so a client can read it, and the emulator tell its own, yet `gpg --verify` cannot check it.
 */

/** The committer of the commits GitHub makes for a user: `GitHub <noreply@github.com>` ("web-flow"). */
export const WEB_FLOW = { name: 'GitHub', email: 'noreply@github.com' } as const;

/** The id the emulator gives its signing key (16 hex digits, as a GPG key id): not GitHub's key. */
export const EMULATOR_KEY_ID = createHash('sha256').update('switchyard github-emulator web-flow').digest('hex').slice(0, 16).toUpperCase();

/** The emulator's signature of `payload`: an armoured block holding the SHA-256 of the payload, base64. */
function signatureOf(payload: string): string {
  const digest = createHash('sha256').update(payload, 'utf8').digest('base64');
  return ['-----BEGIN PGP SIGNATURE-----', '', digest, '-----END PGP SIGNATURE-----', ''].join('\n');
}

/** `fields` signed by the emulator: the same commit with `gpgsig` set over its payload (`commitPayload`). */
export function signedCommit(fields: Omit<GitCommit, 'type' | 'sha' | 'gpgsig'>): Omit<GitCommit, 'type' | 'sha'> {
  return { ...fields, gpgsig: signatureOf(commitPayload(fields)) };
}

/** Is `commit` signed, with the emulator's signature of its own payload (not altered since)? */
export function signedByEmulator(commit: GitCommit): boolean {
  return commit.gpgsig !== undefined && commit.gpgsig === signatureOf(commitPayload(commit));
}

/** The committer GitHub records on a commit it makes for `author`: web-flow, dated as the author. */
export function webFlowCommitter(author: GitSignature): GitSignature {
  return { ...WEB_FLOW, date: author.date };
}

/**
 * GitHub's `verification` object of a commit in the REST API
 * (https://docs.github.com/rest/commits/commits#signature-verification-object): for a commit the emulator signed,
 * `verified: true`, `reason: "valid"`, the `signature` and the `payload` it signs, and `verified_at` (when it was
 * committed); for any other commit `verified: false`, `reason: "unsigned"` and nulls (a signature the emulator did not
 * make: `reason: "unknown_key"`).
 */
export function verificationOf(commit: GitCommit): {
  verified: boolean;
  reason: string;
  signature: string | null;
  payload: string | null;
  verified_at: string | null;
} {
  if (commit.gpgsig === undefined) return { verified: false, reason: 'unsigned', signature: null, payload: null, verified_at: null };
  const payload = commitPayload(commit);
  if (!signedByEmulator(commit)) return { verified: false, reason: 'unknown_key', signature: commit.gpgsig, payload, verified_at: null };
  return { verified: true, reason: 'valid', signature: commit.gpgsig, payload, verified_at: commit.committer.date };
}
