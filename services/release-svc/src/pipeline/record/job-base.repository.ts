import type { Kysely } from 'kysely';
import type { ReleaseDatabase } from '../../db/schema.ts';

/**
 * Records on a newly recorded job the commit of its target branch that the update read its files at (`base_sha`,
 * 40 hex): the deliver stage makes the job's change and pull request on that commit, with the files the read kept
 * (`read/file-cache.service.ts`), rather than on a head read again. Nothing is recorded without a commit (a code host that
 * cannot say the branch's head), or on a job that has one already.
 */
export async function recordJobBase(trx: Kysely<ReleaseDatabase>, jobId: number, baseSha: string | undefined): Promise<void> {
  if (baseSha === undefined) return;
  await trx.updateTable('pull_request_job').set({ base_sha: baseSha }).where('id', '=', jobId).where('base_sha', 'is', null).execute();
}
