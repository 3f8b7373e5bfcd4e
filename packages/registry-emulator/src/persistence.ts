import { mkdirSync, readFileSync } from 'node:fs';
import { open, rename } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import type { Logger } from '@switchyard/service-kit';
import { z } from 'zod';
import { PackageManager } from './package-managers.ts';
import { createRegistry, type Registry, UnknownVersionError, VersionExistsError } from './registry.ts';
import { type ParsedSeed, SeedVersion, Timestamp } from './seed.ts';

/** The file, inside the emulator's `dataDir`, that holds every change made at run time. */
export const REGISTRY_STATE_FILE = 'registry-state.json';

/** How long after a change the state file is written, in milliseconds (changes within it are written together). */
export const REGISTRY_STATE_DEBOUNCE_MS = 150;

const Published = z.strictObject({
  kind: z.literal('publish'),
  /** When the change was made (the registry's clock then), replayed as the clock so `modifiedAt` comes back the same. */
  at: Timestamp,
  packageManager: PackageManager,
  name: z.string().min(1),
  version: z.string().min(1),
  releasedAt: Timestamp,
  private: z.boolean(),
  dependencies: SeedVersion.shape.dependencies,
});

const Yanked = z.strictObject({
  kind: z.literal('yank'),
  at: Timestamp,
  packageManager: PackageManager,
  name: z.string().min(1),
  version: z.string().min(1),
  private: z.boolean(),
  reason: z.string(),
});

/** One change made at run time, as the state file keeps it. */
export const RegistryChange = z.discriminatedUnion('kind', [Published, Yanked]);
export type RegistryChange = z.output<typeof RegistryChange>;

/**
 * The state file (`<dataDir>/registry-state.json`): format version 1 and every change made through the admin API since
 * the folder was new, in the order made. The seed is not in it: a start builds the seed's registries and replays these
 * changes on top.
 */
export const RegistryStateFile = z.strictObject({
  version: z.literal(1),
  changes: z.array(RegistryChange),
});
export type RegistryStateFile = z.output<typeof RegistryStateFile>;

/** The registries of a seed with the changes saved under a folder, and what keeps that folder current. */
export interface PersistentRegistry {
  /** The registries; each successful publish, and each yank that changes a version, is saved. */
  registry: Registry;
  /** Changes replayed from the state file at open (those that no longer applied to the seed are left out). */
  replayed: number;
  /**
   * Writes what is not written yet, now, and stops saving; later changes are no longer saved. The same promise however
   * often called.
   * @throws the file system's error when the last write fails
   */
  close(): Promise<void>;
}

/**
 * Builds the registries of `seed` and replays on top of them the changes saved in `<dataDir>/registry-state.json` (a
 * folder without that file, or a folder that does not exist yet, starts from the seed alone; the folder is created).
 * From then on every change is saved: {@link REGISTRY_STATE_DEBOUNCE_MS} after it (changes close together in one
 * write) and at `close()`. A write goes to `registry-state.json.tmp`, is flushed to disk and renamed over the state file,
 * so a crash leaves the previous state or the new one, never half of one; a write that fails is logged and tried again
 * with the next change or at `close()`. A saved change that no longer applies (a publish of a version the seed now has,
 * a yank of a version it no longer has) is skipped with a warning and dropped from the file. `now` (epoch ms) is the
 * registries' clock; while replaying, each change's own time stands in for it.
 * @throws Error naming the file when the state file is not JSON or not a {@link RegistryStateFile}; the file system's
 *   errors (e.g. `EACCES` for a folder the process may not write)
 */
export function openPersistentRegistry(options: {
  seed: ParsedSeed;
  dataDir: string;
  logger: Logger;
  now: () => number;
}): PersistentRegistry {
  const { dataDir, logger } = options;
  const file = join(dataDir, REGISTRY_STATE_FILE);
  mkdirSync(dataDir, { recursive: true });
  const saved = readStateFile(file);

  // The registries' clock stands still while one change is made or replayed, at the time the change records.
  let pinnedAt: number | undefined;
  const inner = createRegistry(options.seed, () => pinnedAt ?? options.now());
  const changes: RegistryChange[] = [];
  for (const change of saved.changes) {
    pinnedAt = Date.parse(change.at);
    try {
      apply(inner, change);
      changes.push(change);
    } catch (error) {
      if (!(error instanceof VersionExistsError || error instanceof UnknownVersionError)) throw error;
      logger.warn({ change, reason: error.message, file }, 'registry emulator: a saved change no longer applies to the seed; dropped');
    }
  }
  pinnedAt = undefined;
  const replayed = changes.length;

  let timer: NodeJS.Timeout | undefined;
  let unsaved = changes.length !== saved.changes.length;
  let closing: Promise<void> | undefined;
  // One write at a time, in order: the next waits for the one before it.
  let writing: Promise<void> = Promise.resolve();
  const write = (): Promise<void> => {
    writing = writing
      .catch(() => undefined)
      .then(async () => {
        if (!unsaved) return;
        unsaved = false;
        const text = `${JSON.stringify({ version: 1, changes } satisfies RegistryStateFile)}\n`;
        try {
          await writeAtomically(file, text);
        } catch (error) {
          unsaved = true;
          throw error;
        }
      });
    return writing;
  };
  const scheduleWrite = () => {
    unsaved = true;
    if (closing || timer) return;
    timer = setTimeout(() => {
      timer = undefined;
      write().catch((error: unknown) => logger.error({ err: error, file }, 'registry emulator: could not save its state'));
    }, REGISTRY_STATE_DEBOUNCE_MS);
  };
  const changed = (change: RegistryChange) => {
    changes.push(change);
    scheduleWrite();
  };
  /** Runs `make` with the clock pinned to now, and answers the time it ran at too. */
  const pinned = <T>(make: () => T): { result: T; at: string } => {
    const now = options.now();
    pinnedAt = now;
    try {
      return { result: make(), at: new Date(now).toISOString() };
    } finally {
      pinnedAt = undefined;
    }
  };

  const registry: Registry = {
    find: inner.find,
    publish(input) {
      const { result, at } = pinned(() => inner.publish(input));
      if (!closing) {
        changed({
          kind: 'publish',
          at,
          packageManager: input.packageManager,
          name: input.name,
          version: input.version,
          releasedAt: input.releasedAt.toISOString(),
          private: input.private,
          dependencies: { ...input.dependencies },
        });
      }
      return result;
    },
    yank(input) {
      const wasYanked = inner
        .find(input.packageManager, input.name, input.private)
        ?.versions.find((v) => v.version === input.version)?.yanked;
      const { result, at } = pinned(() => inner.yank(input));
      if (wasYanked === false && !closing) {
        changed({
          kind: 'yank',
          at,
          packageManager: input.packageManager,
          name: input.name,
          version: input.version,
          private: input.private,
          reason: input.reason,
        });
      }
      return result;
    },
  };
  // Changes dropped while replaying leave the file behind the registries: write it again.
  if (unsaved) scheduleWrite();

  return {
    registry,
    replayed,
    close() {
      closing ??= (async () => {
        clearTimeout(timer);
        timer = undefined;
        await write();
      })();
      return closing;
    },
  };
}

function apply(registry: Registry, change: RegistryChange): void {
  if (change.kind === 'publish') {
    registry.publish({ ...change, releasedAt: new Date(change.releasedAt) });
  } else {
    registry.yank(change);
  }
}

function readStateFile(file: string): RegistryStateFile {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return { version: 1, changes: [] };
    throw error;
  }
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (error) {
    throw new Error(`registry emulator state ${file} is not JSON: ${(error as Error).message}`);
  }
  const parsed = RegistryStateFile.safeParse(json);
  if (!parsed.success) throw new Error(`registry emulator state ${file} is not valid: ${z.prettifyError(parsed.error)}`);
  return parsed.data;
}

/** Writes `text` to `<file>.tmp`, flushes it to disk, renames it over `file`, and flushes the folder (the rename). */
async function writeAtomically(file: string, text: string): Promise<void> {
  const temporary = `${file}.tmp`;
  const handle = await open(temporary, 'w', 0o644);
  try {
    await handle.writeFile(text, 'utf8');
    await handle.sync();
  } finally {
    await handle.close();
  }
  await rename(temporary, file);
  const folder = await open(dirname(file), 'r');
  try {
    await folder.sync();
  } finally {
    await folder.close();
  }
}
