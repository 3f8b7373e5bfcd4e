import { createHash } from 'node:crypto';
import { inflateRawSync } from 'node:zlib';

/**
 * Just enough of the zip format to read a registry's archives (Go module zips, Terraform provider builds) and hash them
 * as their lock files do, written apart from the emulator's own archive code.
 */

/** The files of the zip archive `bytes` (stored or deflated), by name. @throws Error when it is not a zip it can read */
export function unzip(bytes: Buffer): Map<string, Buffer> {
  // The end of central directory record: its signature, searched from the end (a comment may follow it).
  let end = -1;
  for (let at = bytes.length - 22; at >= Math.max(0, bytes.length - 22 - 0xffff); at--) {
    if (bytes.readUInt32LE(at) === 0x06054b50) {
      end = at;
      break;
    }
  }
  if (end < 0) throw new Error('not a zip archive: no end of central directory');
  const count = bytes.readUInt16LE(end + 10);
  let entry = bytes.readUInt32LE(end + 16);
  const files = new Map<string, Buffer>();
  for (let i = 0; i < count; i++) {
    if (bytes.readUInt32LE(entry) !== 0x02014b50) throw new Error('not a zip archive: bad central directory entry');
    const method = bytes.readUInt16LE(entry + 10);
    const compressedSize = bytes.readUInt32LE(entry + 20);
    const nameLength = bytes.readUInt16LE(entry + 28);
    const extraLength = bytes.readUInt16LE(entry + 30);
    const commentLength = bytes.readUInt16LE(entry + 32);
    const local = bytes.readUInt32LE(entry + 42);
    const name = bytes.subarray(entry + 46, entry + 46 + nameLength).toString('utf8');
    const dataAt = local + 30 + bytes.readUInt16LE(local + 26) + bytes.readUInt16LE(local + 28);
    const data = bytes.subarray(dataAt, dataAt + compressedSize);
    if (method === 0) files.set(name, Buffer.from(data));
    else if (method === 8) files.set(name, inflateRawSync(data));
    else throw new Error(`zip entry ${name}: compression method ${method} is not read here`);
    entry += 46 + nameLength + extraLength + commentLength;
  }
  return files;
}

/**
 * golang.org/x/mod/sumdb/dirhash's Hash1 of `files` (name → bytes): `h1:` and the base64 SHA-256 of the lines
 * `<sha256 hex>  <name>\n`, sorted by name. go.sum's and Terraform's lock file's `h1:` hashes.
 */
export function hash1(files: ReadonlyMap<string, Buffer>): string {
  const lines = [...files.keys()]
    .sort()
    .map(
      (name) =>
        `${createHash('sha256')
          .update(files.get(name) as Buffer)
          .digest('hex')}  ${name}\n`,
    )
    .join('');
  return `h1:${createHash('sha256').update(lines).digest('base64')}`;
}
