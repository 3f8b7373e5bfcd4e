/** Thrown by {@link parseDigestUsers} (and `loadDigestUsers` of `config.ts`); `problems` lists every bad line (passwords are never included). */
export class DigestUsersError extends Error {
  readonly problems: readonly string[];

  constructor(source: string, problems: readonly string[]) {
    super(`${source}: invalid Digest users\n  ${problems.join('\n  ')}`);
    this.name = 'DigestUsersError';
    this.problems = problems;
  }
}

// biome-ignore lint/suspicious/noControlCharactersInRegex: user names must not carry control characters
const badUsername = /[\s"\\\u0000-\u001f\u007f]/;

/**
 * Parses Digest users. Each entry is either
 * - `user:password` (exactly one `:`; the password then cannot contain `:`), or
 * - `user:realm:password` (two or more `:`; the password is everything after the second `:` and may contain `:`);
 *   entries for a realm other than `realm` are ignored, so one file can serve several realms.
 *
 * Passwords are clear text (this is not the htdigest format, which stores `MD5(user:realm:password)`: Digest with
 * SHA-256 needs the password itself). In a file, entries are one per line, blank lines and lines starting with `#`
 * are ignored and surrounding whitespace is trimmed; in an environment value entries are separated by `,`
 * (`PEER_USERS=user:password,user2:password2`), so a password cannot contain `,` there.
 * User names must be non-empty without whitespace, `"`, `\` or control characters; passwords non-empty; no user twice.
 * @throws DigestUsersError listing every bad entry (by line or entry number), or when no user is defined for the realm.
 */
export function parseDigestUsers(text: string, realm: string, kind: 'file' | 'env', source: string): Map<string, string> {
  const users = new Map<string, string>();
  const problems: string[] = [];
  const entries = kind === 'file' ? text.split(/\r?\n/) : text.split(',');
  entries.forEach((raw, index) => {
    const where = `${kind === 'file' ? 'line' : 'entry'} ${index + 1}`;
    const entry = raw.trim();
    if (entry === '' || (kind === 'file' && entry.startsWith('#'))) return;
    const fields = entry.split(':');
    if (fields.length < 2) {
      problems.push(`${where}: expected user:password or user:realm:password`);
      return;
    }
    const [user = '', second = ''] = fields;
    const password = fields.length === 2 ? second : fields.slice(2).join(':');
    if (fields.length > 2 && second !== realm) return;
    if (user === '' || badUsername.test(user))
      problems.push(`${where}: the user name is empty or contains whitespace, quotes or control characters`);
    else if (password === '') problems.push(`${where}: the password of ${user} is empty`);
    else if (users.has(user)) problems.push(`${where}: ${user} is defined twice`);
    else users.set(user, password);
  });
  if (problems.length === 0 && users.size === 0) problems.push(`no user is defined for realm ${realm}`);
  if (problems.length > 0) throw new DigestUsersError(source, problems);
  return users;
}
