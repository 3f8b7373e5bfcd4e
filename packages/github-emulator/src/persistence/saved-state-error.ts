/**
 * Thrown when a data folder's saved world cannot be read back: an invalid `world.json` (not JSON, another format or
 * version, a missing field), a repository or user it names that its seed lacks, or a missing or corrupt object file.
 * The emulator then does not start, rather than serve a world other than the saved one.
 */
export class SavedStateError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'SavedStateError';
  }
}
