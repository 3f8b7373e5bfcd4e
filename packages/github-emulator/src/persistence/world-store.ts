import { mkdir, readFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import type { Logger } from '@switchyard/service-kit';
import type { GitObject } from '../git/objects.ts';
import type { GitRepository } from '../git/repository-store.ts';
import { EmulatorState } from '../repo-state.ts';
import { type ParsedSeed, parseSeed } from '../seed.ts';
import { clearTmp, syncFolder, writeFileAtomically } from './atomic-file.ts';
import { objectPath, readObject, writeObject } from './object-files.ts';
import { parseWorldFile, restoreWorld, snapshotWorld, WORLD_FILE, type WorldSnapshot } from './world-file.ts';

/**
 * A world kept in a data folder (see the README, "Saved state"): {@link openWorld} loads the saved world or starts a
 * fresh one from the seed and saves it; its {@link WorldSaver} saves each change before it is answered, and on close.
 */

/** How long after a failed save it is tried again (a full disk, a folder gone). */
const RETRY_DELAY_MS = 5_000;
/** Object files read at once while loading. */
const READ_BATCH = 32;

/** What {@link WorldSaver} needs: where, what to save (a consistent snapshot, taken when asked), and what is on disk. */
export interface WorldSaverOptions {
  dataDir: string;
  snapshot: () => WorldSnapshot;
  logger: Logger;
  /** Object ids whose files are written already. */
  written: Set<string>;
}

/**
 * Saves a world: each save writes the object files not written yet (each once, atomically), then `world.json` through
 * a new file renamed over the old one, so a crash leaves the previous save or the new one, never a mix (an object file
 * without an index that names it is harmless). Saves never overlap. {@link flush} saves the world as it stands (its
 * callers share saves); one that fails is logged and tried again 5 s later, and by {@link close}.
 */
export class WorldSaver {
  private readonly options: WorldSaverOptions;
  private dirty = false;
  private closed = false;
  private timer: NodeJS.Timeout | undefined;
  private running: Promise<void> | undefined;
  private flushing: Promise<void> | undefined;

  constructor(options: WorldSaverOptions) {
    this.options = options;
  }

  private schedule(delayMs: number): void {
    if (this.timer !== undefined || this.closed) return;
    this.timer = setTimeout(() => {
      this.timer = undefined;
      this.save().catch((error: unknown) => {
        this.options.logger.error({ err: error, dataDir: this.options.dataDir }, 'saving the GitHub emulator world failed; trying again');
        this.schedule(RETRY_DELAY_MS);
      });
    }, delayMs);
    this.timer.unref();
  }

  /**
   * Resolves once the world as it is now is on disk: a save that took its snapshot after this call has finished. A save
   * already running is waited for first (its snapshot may be older), and the callers meanwhile share the next save
   * (group commit), so a burst of writes costs a save or two, not one each.
   * @throws the file system's errors of that save (the change stays noted: the next save tries again)
   */
  flush(): Promise<void> {
    this.dirty = true;
    if (this.flushing) return this.flushing;
    const flushing = this.afterRunning().then(() => {
      // A caller from here on may change the world after this save's snapshot: it waits for the next save.
      this.flushing = undefined;
      return this.save().catch((error: unknown) => {
        this.schedule(RETRY_DELAY_MS);
        throw error;
      });
    });
    this.flushing = flushing;
    return flushing;
  }

  private async afterRunning(): Promise<void> {
    while (this.running) await this.running.catch(() => undefined);
  }

  /**
   * Saves now when anything changed since the last save (`force`: in any case), after a save already running.
   * @throws the file system's errors (the change stays noted, so the next save tries again)
   */
  async save(force = false): Promise<void> {
    while (this.running) await this.running.catch(() => undefined);
    if (!this.dirty && !force) return;
    this.dirty = false;
    const current = this.write(this.options.snapshot());
    this.running = current;
    try {
      await current;
    } catch (error) {
      this.dirty = true;
      throw error;
    } finally {
      if (this.running === current) this.running = undefined;
    }
  }

  private async write({ index, objects }: WorldSnapshot): Promise<void> {
    const { dataDir, written } = this.options;
    const folders = new Set<string>();
    for (const object of objects) {
      if (written.has(object.sha)) continue;
      await writeObject(dataDir, object);
      written.add(object.sha);
      folders.add(dirname(objectPath(dataDir, object.sha)));
    }
    for (const folder of folders) await syncFolder(folder);
    await writeFileAtomically(dataDir, join(dataDir, WORLD_FILE), index);
    await syncFolder(dataDir);
  }

  /**
   * Stops saving on changes and saves what is left (after a save already running).
   * @throws the file system's errors of that last save
   */
  async close(): Promise<void> {
    this.closed = true;
    clearTimeout(this.timer);
    this.timer = undefined;
    await this.save();
  }
}

/** Where a world is kept and what to start a fresh one from. */
export interface OpenWorldOptions {
  dataDir: string;
  /** The seed of a fresh world; a saved world keeps its own (a different one is logged at warn). */
  seed: ParsedSeed;
  now: () => number;
  logger: Logger;
}

/** A world opened from a data folder: its seed, its state, whether it was restored, and its saver. */
export interface OpenedWorld {
  seed: ParsedSeed;
  state: EmulatorState;
  restored: boolean;
  saver: WorldSaver;
}

const errorCode = (error: unknown) => (error as NodeJS.ErrnoException | undefined)?.code;

/** Stores the saved objects `ids` (by type) in `git`, reading their files a batch at a time. */
async function loadObjects(dataDir: string, git: GitRepository, ids: Record<GitObject['type'], string[]>): Promise<void> {
  for (const type of ['blob', 'tree', 'commit'] as const) {
    const list = ids[type];
    for (let at = 0; at < list.length; at += READ_BATCH) {
      await Promise.all(list.slice(at, at + READ_BATCH).map((sha) => readObject(dataDir, git, type, sha)));
    }
  }
}

/**
 * Opens the world kept in `dataDir` (made when missing): the saved one when `world.json` is there, else a fresh world
 * from `seed` (a new world id), saved at once. Leftovers of a crash in `tmp/` are removed.
 * @throws SavedStateError when the saved world cannot be read back; SeedError when its saved seed is invalid; the file
 *   system's errors
 */
export async function openWorld(options: OpenWorldOptions): Promise<OpenedWorld> {
  const { dataDir, now, logger } = options;
  await mkdir(dataDir, { recursive: true });
  await clearTmp(dataDir);
  const path = join(dataDir, WORLD_FILE);
  let text: string | undefined;
  try {
    text = await readFile(path, 'utf8');
  } catch (error) {
    if (errorCode(error) !== 'ENOENT') throw error;
  }
  const iso = () => new Date(now()).toISOString();
  const givenSeedJson = JSON.stringify(options.seed);
  const saverOf = (state: EmulatorState, seedJson: string, createdAt: string, written: Set<string>) =>
    new WorldSaver({
      dataDir,
      logger,
      written,
      snapshot: () => snapshotWorld(state, seedJson, createdAt, iso()),
    });
  if (text === undefined) {
    const state = new EmulatorState(now, undefined, options.seed);
    const saver = saverOf(state, givenSeedJson, iso(), new Set());
    await saver.save(true);
    logger.info({ dataDir, worldId: state.worldId }, 'GitHub emulator: a fresh world, saved in the data folder');
    return { seed: options.seed, state, restored: false, saver };
  }
  const file = parseWorldFile(text, path);
  const seed = parseSeed(file.seed, `${path} (seed)`);
  const seedJson = JSON.stringify(seed);
  if (seedJson !== givenSeedJson) {
    logger.warn(
      { dataDir, worldId: file.worldId },
      'GitHub emulator: the saved world was made from another seed; serving the saved world (remove the data folder to start from the new seed)',
    );
  }
  const init = await restoreWorld(file, seed, (git, ids) => loadObjects(dataDir, git, ids));
  const state = new EmulatorState(now, init, seed);
  const written = new Set(file.repos.flatMap((repo) => [...repo.objects.blob, ...repo.objects.tree, ...repo.objects.commit]));
  logger.info({ dataDir, worldId: state.worldId, repos: file.repos.length }, 'GitHub emulator: the saved world restored');
  return { seed, state, restored: true, saver: saverOf(state, seedJson, file.createdAt, written) };
}
