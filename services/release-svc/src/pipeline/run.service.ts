import { type CodeHost, type CodeHostError, type CodeHostTokens, transientCodeHostError } from '@switchyard/code-host';
import type { DependencyUse, SkippedDeclaration } from '@switchyard/ecosystems';
import { type Logger, runPool } from '@switchyard/service-kit';
import type { Kysely } from 'kysely';
import type { AdvisoryLookup } from '../advisories/advisory-source.service.ts';
import { requestStaleConfigFileCheck } from '../config-files/config-file.repository.ts';
import type { ReleaseDatabase } from '../db/schema.ts';
import { findAccountSettings, findScanTargets } from '../read-model/read-model.repository.ts';
import type { ScanTarget } from '../read-model/scan-target.model.ts';
import { decidedDependencies, findRun, finishRun, hadEarlierRun, startRun } from '../runs/update-run.repository.ts';
import type { UpdateRunRow } from '../runs/update-run.table.ts';
import { decideDependency, decideRelease, type ScanDecision } from './decide/decide.policy.ts';
import { groupOf } from './decide/group.policy.ts';
import { extractDependencies } from './extract/dependencies.policy.ts';
import { type FoundTogether, readTargetsTogether } from './read/fan-out-read.service.ts';
import { readTargetFiles } from './read/manifest-files.service.ts';
import { type ReadableTarget, type RunScope, readableTarget } from './read/target.policy.ts';
import { recordGroupJobs } from './record/group-record.service.ts';
import { type DecidedConfig, recordDependenciesUsed, recordDependency, recordFanOut } from './record/record.service.ts';
import { findDecidedConfigIds } from './record/scan-result.repository.ts';
import type { RegistryAccess } from './resolve/registry-access.client.ts';
import { createResolver, type Resolver } from './resolve/resolver.service.ts';

type Db = Kysely<ReleaseDatabase>;

/**
 * The update pipeline: what every trigger's work goes through once it is started, stage by stage: read the files from
 * the code host (`read/`) → extract the dependencies of the run's scope (`extract/`) → resolve their candidates: the
 * registries' versions, the advisories (`resolve/`) → decide by the config's policies (`decide/`) → record the jobs with
 * their events (`record/`); the jobs' events then reach the deliver stage (`deliver/`), which opens the pull requests.
 * Two entry points, one path: {@link executeRun} carries out a run of one config (scope: every dependency), and
 * {@link executeFanOut} a batch of a release notification's fan-out (scope: one dependency with the notified version as
 * a hint, many configs, recorded together).
 */

/** What the pipeline needs: the database, the code host and the worker's own token for it, the registries and advisories. */
export interface PipelineDeps {
  db: Db;
  codeHost: CodeHost;
  /** The worker's own code-host tokens (per account in App mode), which it reads manifests with. */
  tokens: CodeHostTokens;
  /** The registries (an account's private one first). */
  registries: RegistryAccess;
  /** The advisories about a package (imported OSV records and the code host's). */
  advisories: AdvisoryLookup;
  logger: Logger;
  /** Configs of a batch, or dependencies of a run, worked on at once. */
  concurrency: number;
}

/**
 * Jobs a config's first run records at most when its account sets `limit-initial-update-runs` (Dependabot Preview's
 * account setting: a repo's first run opened a handful of pull requests rather than one per outdated dependency). The
 * dependencies past the limit are recorded `skipped`, saying so; the next run takes them.
 */
export const INITIAL_RUN_JOB_LIMIT = 5;

/** Raised when some configs of a batch met a code-host failure that a later attempt may not meet. */
export class TransientScanError extends Error {
  constructor(count: number, cause: unknown) {
    super(`${count} update config(s) could not be scanned yet: ${cause instanceof Error ? cause.message : String(cause)}`, { cause });
    this.name = 'TransientScanError';
  }
}

/** Raised when the code host is down or rate-limited during a run: the run is delivered again later. */
export class TransientRunError extends Error {
  constructor(cause: CodeHostError) {
    super(`the code host did not answer: ${cause.message}`, { cause });
    this.name = 'TransientRunError';
  }
}

/**
 * Carries out one batch of a release notification's fan-out: for each of `configIds` without a result for the
 * notification yet, `deps.concurrency` at a time, the stages up to decide ({@link decideConfig}); then the record stage
 * writes every result, the configs' finished runs and each new job with its event in one transaction for the batch
 * (`recordFanOut`). A config whose files cannot be read because the code host is down is left undecided and the batch
 * throws {@link TransientScanError} so the bus delivers it again later; on the last attempt (`lastAttempt`) such
 * configs are recorded as failed instead, so a notification always finishes. A config with a file over the code host
 * client's size limit is recorded as failed at once, naming the file and the limit (asking again would get the same
 * answer), and the others go on.
 * @throws TransientScanError when configs were left undecided; the database's errors
 */
export async function executeFanOut(
  deps: PipelineDeps,
  scope: Extract<RunScope, { kind: 'one-dependency' }>,
  configIds: readonly number[],
  lastAttempt: boolean,
): Promise<void> {
  const { db } = deps;
  const decided = await findDecidedConfigIds(db, scope.notificationId, configIds);
  const targets = await findScanTargets(db, configIds);
  const resolver = createResolver(deps.registries, deps.advisories);
  const postponed: unknown[] = [];
  const scanned: DecidedConfig[] = [];
  const undecided = configIds.filter((id) => !decided.has(id));
  // The batch's repositories read together (GitHub: two GraphQL queries per 50), each at its branch's head commit.
  const readables = new Map<number, ReadableTarget>();
  for (const id of undecided) {
    const readable = readableTarget(targets.get(id), scope.packageManager);
    if (!('skipped' in readable)) readables.set(id, readable);
  }
  const together = await readTargetsTogether(deps.codeHost, deps.tokens, readables, deps.logger);
  try {
    await runPool(undecided, deps.concurrency, async (id) => {
      const target = targets.get(id);
      try {
        const { decided, baseSha } = await decideConfig(deps, scope, target, resolver, together.get(id));
        scanned.push({ configId: id, target, scanned: decided, baseSha });
      } catch (error) {
        const unavailable = transientCodeHostError(error);
        if (!unavailable) throw error;
        if (lastAttempt) {
          const reason = `the code host did not answer: ${unavailable.message}`;
          scanned.push({ configId: id, target, scanned: { decision: { outcome: 'failed', reason } } });
        } else postponed.push(unavailable);
      }
    });
  } finally {
    // What was decided is kept even when a config's scan threw: a redelivery then scans only the rest.
    await recordFanOut(db, scope, scanned);
  }
  if (postponed.length > 0) throw new TransientScanError(postponed.length, postponed[0]);
}

/**
 * One config of a fan-out through read, extract, resolve and decide: skipped without reading when `readableTarget`
 * says so; failed when its files are missing, too large, refused or do not parse; else `decideRelease` on the version
 * the registry points to; with the commit the files were read at (`baseSha`, recorded on the job). `found`: its files
 * as the batch's read of many repositories found them (`readTargetsTogether`), when it did.
 * @throws CodeHostError when the code host is down or rate-limited (the config stays undecided)
 */
async function decideConfig(
  deps: PipelineDeps,
  scope: Extract<RunScope, { kind: 'one-dependency' }>,
  target: ScanTarget | undefined,
  resolver: Resolver,
  found: FoundTogether | undefined,
): Promise<{ decided: ScanDecision; baseSha?: string }> {
  const readable = readableTarget(target, scope.packageManager);
  if ('skipped' in readable) return { decided: { decision: readable.skipped } };
  const read = await readTargetFiles(deps.codeHost, deps.tokens, readable, { found });
  if ('failed' in read) return { decided: { decision: { outcome: 'failed', reason: read.failed } } };
  const at = read.commit === undefined ? {} : { baseSha: read.commit };
  const extracted = extractDependencies(readable.ecosystem, read.files, scope);
  if ('failed' in extracted) return { decided: { decision: { outcome: 'failed', reason: extracted.failed } }, ...at };
  const [use] = extracted.uses;
  if (!use) return { decided: decideRelease(readable, scope, undefined), ...at };
  const advisories = await resolver.advisories(readable.ecosystem, use.name);
  const resolved = await resolver.registry(readable.config.accountId, scope.packageManager, scope.name);
  return { decided: decideRelease(readable, scope, { use, resolved, advisories }), ...at };
}

/** How old a repository's config files may be read before a run asks for them again, ms (a day). */
const CONFIG_FILE_MAX_AGE_MS = 86_400_000;

/**
 * Carries out one run of every dependency of a config: reads its files, extracts every direct dependency, then for each,
 * `deps.concurrency` at a time, resolves, decides and records it (`recordDependency`: one transaction per dependency, so
 * progress shows as `dependencies-checked`). A run delivered again goes on from the dependencies it has not decided. The
 * run fails, saying why, when the config is gone or its files cannot be read or parsed (`manifest_unreadable`). A
 * registry that fails is that dependency's error (`registry_unreachable`, `registry_auth_failed`, …), not the run's. A
 * config's first run is limited to {@link INITIAL_RUN_JOB_LIMIT} jobs when its account says so. Updates the config's
 * dependency groups take (`groupOf`) become one job per group once every dependency is decided (`recordGroupJobs`). A
 * run also asks for its repository's config files to be read again when they were last read more than a day ago.
 * @throws TransientRunError when the code host is down or rate-limited (the run stays `running`; delivered again)
 */
export async function executeRun(deps: PipelineDeps, runId: string, lastAttempt: boolean): Promise<void> {
  const { db } = deps;
  const run = await findRun(db, runId);
  if (!run || run.status === 'done' || run.status === 'failed') return;
  const target = (await findScanTargets(db, [run.update_config_id])).get(run.update_config_id);
  const readable = target ? readableTarget(target, target.config.packageManager) : undefined;
  if (!readable || 'skipped' in readable) {
    await finishRun(db, run.id, {
      error: readable && 'skipped' in readable ? readable.skipped.reason : 'the update config is no longer known',
      kind: null,
    });
    return;
  }
  // The repository's config files are read again once a day, should a push that changed one have been missed.
  const repoId = readable.config.repoId;
  await db.transaction().execute((trx) => requestStaleConfigFileCheck(trx, repoId, CONFIG_FILE_MAX_AGE_MS));
  let uses: DependencyUse[];
  let skipped: SkippedDeclaration[];
  // The commit the files were read at: the run's jobs are made on it (`base_sha`), with the files kept in this process.
  let baseSha: string | undefined;
  try {
    // Read as a fan-out reads (sizes and head commit, then texts: two requests), else the head, a listing, the files.
    const found = (await readTargetsTogether(deps.codeHost, deps.tokens, new Map([[run.update_config_id, readable]]), deps.logger)).get(
      run.update_config_id,
    );
    const read = await readTargetFiles(deps.codeHost, deps.tokens, readable, { atHead: true, found });
    const extracted = 'failed' in read ? read : extractDependencies(readable.ecosystem, read.files, { kind: 'every-dependency' });
    if ('failed' in extracted) {
      await finishRun(db, run.id, { error: extracted.failed, kind: 'manifest_unreadable' });
      return;
    }
    ({ uses, skipped } = extracted);
    if (!('failed' in read)) baseSha = read.commit;
  } catch (error) {
    const unavailable = transientCodeHostError(error);
    if (!unavailable) throw error;
    if (lastAttempt) {
      await finishRun(db, run.id, { error: `the code host did not answer: ${unavailable.message}`, kind: null });
      return;
    }
    throw new TransientRunError(unavailable);
  }
  const jobLimit = (await initialRunLimit(db, run)) ?? null;
  await startRun(db, run.id, uses.length, jobLimit, skipped);
  await recordDependenciesUsed(db, run.update_config_id, uses);
  const decided = await decidedDependencies(db, run.id);
  const positions = new Map(uses.map((use, i) => [use.name, i]));
  const resolver = createResolver(deps.registries, deps.advisories);
  try {
    // A run with a job limit decides in the manifests' order, so which dependencies get the limited jobs is not a race.
    await runPool(
      uses.filter((use) => !decided.has(use.name)),
      jobLimit === null ? deps.concurrency : 1,
      (use) => checkDependency(deps, run, readable, use, positions.get(use.name) ?? 0, resolver, baseSha),
    );
  } catch (error) {
    // The code host's advisories could not be read: the dependencies decided so far stay, the rest wait for a later attempt.
    const unavailable = transientCodeHostError(error);
    if (!unavailable) throw error;
    if (!lastAttempt) throw new TransientRunError(unavailable);
    await finishRun(db, run.id, { error: `the code host did not answer: ${unavailable.message}`, kind: null });
    return;
  }
  await recordGroupJobs(db, run, readable, baseSha);
  await finishRun(db, run.id);
}

/** The job limit of the config's first run when its account limits initial runs, else undefined. */
async function initialRunLimit(db: Db, run: UpdateRunRow): Promise<number | undefined> {
  const account = await findAccountSettings(db, run.account_id);
  if (!account?.limitInitialUpdateRuns) return undefined;
  return (await hadEarlierRun(db, run.update_config_id, run.id)) ? undefined : INITIAL_RUN_JOB_LIMIT;
}

/**
 * One dependency of a run through resolve, decide and record: the advisories are asked when the registry answered and
 * a version in use can be known (read, or resolved from the requirement), and the dependency is recorded as decided
 * (its version in use resolved when the files did not lock one), its job made on `baseSha` (the commit the run read).
 * @throws CodeHostError when the advisories cannot be read
 */
async function checkDependency(
  deps: PipelineDeps,
  run: UpdateRunRow,
  target: ReadableTarget,
  use: DependencyUse,
  position: number,
  resolver: Resolver,
  baseSha: string | undefined,
): Promise<void> {
  const { ecosystem } = target;
  const resolved = await resolver.registry(target.config.accountId, ecosystem.packageManager, use.name);
  const knowable = use.version !== null || use.requirement !== null;
  const advisories = 'found' in resolved && knowable ? await resolver.advisories(ecosystem, use.name) : [];
  const decided = decideDependency(target, use, resolved, advisories, run.id);
  const group = decided.job ? groupOf(target.config.settings?.groups ?? [], { name: use.name, ...decided.job }) : null;
  await recordDependency(
    deps.db,
    { id: run.id, notificationId: run.notification_id },
    decided.dependency ?? use,
    position,
    decided,
    group,
    baseSha,
  );
}
