import type { GitCommit, GitSignature } from '../git/objects.ts';
import type { DiffFile } from './changed-files.ts';
import { diffstat } from './diffstat.ts';
import { unifiedDiff } from './unified-diff.ts';

/**
 * Commits as `git format-patch --stdout` writes them (https://git-scm.com/docs/git-format-patch), GitHub's
 * `application/vnd.github.patch` media type: one mail per commit, `From <id> Mon Sep 17 00:00:00 2001`, `From:`,
 * `Date:` (the author's, RFC 2822), `Subject: [PATCH]` (`[PATCH i/n]` for more than one) with the message's first
 * paragraph folded at 78 columns, the rest of the message, `---`, the diffstat and summary ({@link diffstat}), the
 * diff, and the signature `-- \n<signature>\n`. Names and subjects with characters beyond ASCII are RFC 2047
 * encoded, and such a message gets the `Content-Type: text/plain; charset=UTF-8` headers, as git does.
 */

/** The signature line git writes after `-- ` (git writes its version; the emulator names itself). */
export const PATCH_SIGNATURE = 'github-emulator';

/** A commit to write as a patch, with the files it changes from its first parent. */
export interface PatchCommit {
  commit: GitCommit;
  files: readonly DiffFile[];
}

const DAYS = ['Sun', 'Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat'];
const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];
const two = (n: number) => String(n).padStart(2, '0');

/** An ISO date as git's RFC 2822 date, in UTC: `Thu, 1 Jan 2015 00:50:01 +0000`. */
export function rfc2822Date(iso: string): string {
  const d = new Date(iso);
  const time = `${two(d.getUTCHours())}:${two(d.getUTCMinutes())}:${two(d.getUTCSeconds())}`;
  return `${DAYS[d.getUTCDay()]}, ${d.getUTCDate()} ${MONTHS[d.getUTCMonth()]} ${d.getUTCFullYear()} ${time} +0000`;
}

/** Does `text` hold a byte beyond ASCII? */
const nonAscii = (text: string) => /[^\p{ASCII}]/u.test(text);

/**
 * RFC 2047 Q-encoding of `text` in UTF-8 as git's `add_rfc2047` writes it: `=?UTF-8?q?…?=`, every byte that is not
 * printable ASCII (and `=`, `?`, `_`, space; for an address also anything but letters, digits and `!*+-/`) as `=XX`,
 * a character never split, a new encoded word on a new line once a line would pass 76 columns.
 */
function rfc2047(text: string, column: number, address: boolean): string {
  const special = (char: string) => nonAscii(char) || '=?_ '.includes(char) || (address && !/^[A-Za-z0-9!*+\-/]$/.test(char));
  let out = '=?UTF-8?q?';
  let length = column + 10;
  for (const char of text) {
    const encoded = special(char)
      ? [...Buffer.from(char, 'utf8')].map((byte) => `=${byte.toString(16).toUpperCase().padStart(2, '0')}`).join('')
      : char;
    if (length + encoded.length + 2 > 76) {
      out += '?=\n =?UTF-8?q?';
      length = 11;
    }
    out += encoded;
    length += encoded.length;
  }
  return `${out}?=`;
}

/**
 * `text` written after `column` columns, folded as git's `strbuf_add_wrapped_text` folds a header at `width` columns:
 * a word that would end past `width` starts a new line indented by one space (the first word too, on the first line).
 */
function wrapped(text: string, column: number, width = 78): string {
  let out = '';
  let at = column;
  text.split(' ').forEach((word, index) => {
    const separator = index === 0 ? '' : ' ';
    if (at + separator.length + word.length <= width) {
      out += `${separator}${word}`;
      at += separator.length + word.length;
    } else {
      out += `\n ${word}`;
      at = 1 + word.length;
    }
  });
  return out;
}

/** The `From:` header of a signature: the name RFC 2047 encoded, or RFC 822 quoted when it holds specials. */
function fromHeader({ name, email }: GitSignature): string {
  const head = 'From: ';
  const encoded = nonAscii(name) || name.includes('=?');
  let shown: string;
  if (encoded) shown = rfc2047(name, head.length, true);
  else if (/[()<>@,;:\\".[\]]/.test(name)) shown = wrapped(`"${name.replace(/(["\\])/g, '\\$1')}"`, head.length);
  else shown = wrapped(name, head.length);
  const lastLine = `${head}${shown}`.split('\n').pop() as string;
  const width = encoded ? 76 : 78;
  return `${head}${shown}${lastLine.length + 2 + email.length + 1 > width ? '\n' : ''} <${email}>`;
}

/** The message's title (its first paragraph, lines joined by spaces) and the rest (trailing whitespace removed). */
function splitMessage(message: string): { title: string; body: string } {
  const lines = message.split('\n').map((line) => line.replace(/\s+$/, ''));
  let at = 0;
  while (at < lines.length && lines[at] === '') at += 1;
  const title: string[] = [];
  while (at < lines.length && lines[at] !== '') title.push(lines[at++] as string);
  while (at < lines.length && lines[at] === '') at += 1;
  return { title: title.join(' '), body: lines.slice(at).join('\n').replace(/\n+$/, '') };
}

/** One commit's mail. */
function patchMail({ commit, files }: PatchCommit, number: number, count: number): string {
  const { title, body } = splitMessage(commit.message);
  const tag = count === 1 ? '[PATCH] ' : `[PATCH ${number}/${count}] `;
  const subjectHead = `Subject: ${tag}`;
  const subject = nonAscii(title) || title.includes('=?') ? rfc2047(title, subjectHead.length, false) : wrapped(title, subjectHead.length);
  const mime = nonAscii(commit.message)
    ? 'MIME-Version: 1.0\nContent-Type: text/plain; charset=UTF-8\nContent-Transfer-Encoding: 8bit\n'
    : '';
  return (
    `From ${commit.sha} Mon Sep 17 00:00:00 2001\n${fromHeader(commit.author)}\nDate: ${rfc2822Date(commit.author.date)}\n` +
    `${subjectHead}${subject}\n${mime}\n${body === '' ? '' : `${body}\n`}---\n${diffstat(files)}\n${unifiedDiff(files)}` +
    `-- \n${PATCH_SIGNATURE}\n\n`
  );
}

/**
 * The mails of `commits` in order, numbered `[PATCH i/n]` when more than one. Merge commits and commits that change
 * nothing are left out, as `git format-patch` leaves them out; empty when none is left.
 */
export function formatPatch(commits: readonly PatchCommit[]): string {
  const kept = commits.filter(({ commit, files }) => commit.parents.length <= 1 && files.length > 0);
  return kept.map((entry, index) => patchMail(entry, index + 1, kept.length)).join('');
}
