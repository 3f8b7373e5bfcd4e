import { createHash } from 'node:crypto';
import type { ServerResponse } from 'node:http';
import { pipeline, Readable } from 'node:stream';
import { z } from 'zod';

/** The largest generated file a seed may declare: 1 GiB (GitHub itself keeps no file over 100 MB in a repository). */
export const MAX_GENERATED_FILE_BYTES = 1024 ** 3;

/**
 * A file made on request instead of stored in the seed: `size` bytes of `pattern` (UTF-8) repeated and cut at `size`
 * bytes, e.g. `{ "size": 157286400, "pattern": "{\"lockfileVersion\":3}\n" }` for a 150 MiB lockfile. It is never held
 * in memory whole: the raw media type streams it, and the contents API answers with its size and blob sha only, as
 * GitHub does for files over 1 MB. Keep `pattern` ASCII when the cut must not split a character.
 */
export const GeneratedFile = z.strictObject({
  size: z.number().int().min(0).max(MAX_GENERATED_FILE_BYTES),
  pattern: z.string().min(1).max(65_536).default('x'),
});
/** A generated file as written in a seed. */
export type GeneratedFileInput = z.input<typeof GeneratedFile>;
/** A generated file with its defaults applied. */
export type GeneratedFile = z.output<typeof GeneratedFile>;

/**
 * A submodule of a seed repo: a gitlink, the tree entry of mode `160000` (type `commit`) git records for a submodule,
 * pointing at `gitlink`, a commit id (40 lowercase hex digits) of the submodule's own repository (which need not be in
 * the emulator). Where the submodule comes from is the repo's `.gitmodules`, as in git
 * (https://git-scm.com/docs/gitsubmodules).
 */
export const SeedGitlink = z.strictObject({ gitlink: z.string().regex(/^[0-9a-f]{40}$/, 'must be a commit id (40 lowercase hex digits)') });
/** A gitlink as written in a seed. */
export type SeedGitlink = z.output<typeof SeedGitlink>;

/** One entry of a seed repo's files: its text, a {@link GeneratedFile}, or a submodule ({@link SeedGitlink}). */
export const SeedFile = z.union([z.string(), GeneratedFile, SeedGitlink]);
/** An entry of a seed repo's files as validated: a file's content or a gitlink. */
export type SeedFileEntry = z.output<typeof SeedFile>;
/** A file of a seed repo as validated: a string (stored text) or a generated file. */
export type SeedFileContent = string | GeneratedFile;

/** Is a seed repo's file entry a gitlink (a submodule) rather than a file? */
export function isGitlink(entry: SeedFileEntry): entry is SeedGitlink {
  return typeof entry === 'object' && 'gitlink' in entry;
}
/** The bytes of a file as the emulator holds them: seed text, a generated file, or bytes written through the API. */
export type FileContent = SeedFileContent | Buffer;

/** Bytes per chunk of a generated file's stream. */
const CHUNK_BYTES = 64 * 1024;

/** The size of a file in bytes (UTF-8 for stored text). */
export function fileSize(file: FileContent): number {
  if (Buffer.isBuffer(file)) return file.length;
  return typeof file === 'string' ? Buffer.byteLength(file, 'utf8') : file.size;
}

/** A buffer of whole repetitions of the pattern, at least {@link CHUNK_BYTES} long (one pattern when it is longer). */
function patternBlock(file: GeneratedFile): Buffer {
  const unit = Buffer.from(file.pattern, 'utf8');
  return Buffer.alloc(Math.max(unit.length, Math.ceil(CHUNK_BYTES / unit.length) * unit.length), unit);
}

/** The chunks of a generated file in order, each a view of one shared block (nothing but the block is allocated). */
function* generatedChunks(file: GeneratedFile): Generator<Buffer> {
  const block = patternBlock(file);
  for (let sent = 0; sent < file.size; ) {
    const length = Math.min(block.length, file.size - sent);
    yield block.subarray(0, length);
    sent += length;
  }
}

/** The bytes of a file, whole. Meant for files small enough to answer inline (at most 1 MB); a generated file is built here. */
export function fileBytes(file: FileContent): Buffer {
  if (Buffer.isBuffer(file)) return file;
  return typeof file === 'string' ? Buffer.from(file, 'utf8') : Buffer.concat([...generatedChunks(file)], file.size);
}

/** The first `maxBytes` bytes of a file (all of it when smaller); a generated file is built only that far. */
export function filePrefix(file: FileContent, maxBytes: number): Buffer {
  if (Buffer.isBuffer(file) || typeof file === 'string') return fileBytes(file).subarray(0, maxBytes);
  const chunks: Buffer[] = [];
  let length = 0;
  for (const chunk of generatedChunks(file)) {
    if (length >= maxBytes) break;
    chunks.push(chunk.subarray(0, maxBytes - length));
    length += Math.min(chunk.length, maxBytes - length);
  }
  return Buffer.concat(chunks, length);
}

/** The bytes of a file as a stream: stored text in one chunk, a generated file chunk by chunk as the reader asks. */
export function fileStream(file: FileContent): Readable {
  if (Buffer.isBuffer(file)) return Readable.from([file]);
  return typeof file === 'string' ? Readable.from([Buffer.from(file, 'utf8')]) : Readable.from(generatedChunks(file));
}

const generatedShas = new WeakMap<GeneratedFile, string>();

/**
 * Git's blob id of a file: sha1 of `blob <bytes>\0<content>`. A generated file's is computed chunk by chunk once and
 * kept for the life of its seed object.
 */
export function fileSha(file: FileContent): string {
  if (typeof file === 'string' || Buffer.isBuffer(file)) {
    const bytes = Buffer.isBuffer(file) ? file : Buffer.from(file, 'utf8');
    return createHash('sha1').update(`blob ${bytes.length}\0`).update(bytes).digest('hex');
  }
  let sha = generatedShas.get(file);
  if (sha === undefined) {
    const hash = createHash('sha1').update(`blob ${file.size}\0`);
    for (const chunk of generatedChunks(file)) hash.update(chunk);
    sha = hash.digest('hex');
    generatedShas.set(file, sha);
  }
  return sha;
}

/**
 * Answers 200 with a file's bytes as GitHub's raw media type (`application/vnd.github.raw; charset=utf-8`) and its
 * `Content-Length`, streamed with back-pressure: a generated file is made as the client reads it, and the stream
 * stops when the client goes away.
 */
export function sendRawFile(res: ServerResponse, file: FileContent): void {
  res.statusCode = 200;
  res.setHeader('content-type', 'application/vnd.github.raw; charset=utf-8');
  res.setHeader('content-length', String(fileSize(file)));
  pipeline(fileStream(file), res, () => {
    // A client that stops reading (a size limit, a timeout) ends the stream early; nothing is left to answer.
  });
}
