import { z } from 'zod';

/**
 * Tags and releases of a seed repo. A tag is a lightweight ref `refs/tags/<name>` to a commit; a release is GitHub's
 * release object on one of the repo's tags (https://docs.github.com/rest/releases/releases).
 */

/**
 * A tag name per git's ref rules, loosely (https://git-scm.com/docs/git-check-ref-format): letters, digits, `.`, `_`,
 * `+`, `-` and `/`, no segment starting with `.`, no `..`, `//`, trailing `/` or `.lock`, not starting with `-`.
 */
export const TagName = z
  .string()
  .regex(/^(?![-/.])(?!.*\.\.)(?!.*\/\/)(?!.*\/\.)(?!.*[/.]$)(?!.*\.lock$)[A-Za-z0-9._+/-]{1,200}$/, 'must be a git tag name');

/** The prefix of a seed repo's `files` key that holds a tag's files rather than a branch's: `tags/v1.2.0`. */
export const TAG_FILES_PREFIX = 'tags/';

/**
 * A published (or draft) release of a seed repo on its tag `tag`. `publishedAt` (default: the repository's creation
 * time) is also its `created_at`; GitHub lists releases newest first by `created_at`, and a repository's latest
 * release is its newest one that is neither a draft nor a prerelease.
 */
export const SeedRelease = z.strictObject({
  tag: TagName,
  name: z.string().nullable().optional(),
  body: z.string().nullable().optional(),
  draft: z.boolean().default(false),
  prerelease: z.boolean().default(false),
  publishedAt: z.iso.datetime({ offset: true }).optional(),
});
/** A release as written in a seed. */
export type SeedReleaseInput = z.input<typeof SeedRelease>;

/** The tag names of a seed repo: its `tags/<name>` keys of `files` and the names of its `tags` map. */
export function seedTagNames(repo: { files: Record<string, unknown>; tags: Record<string, string> }): string[] {
  return [
    ...Object.keys(repo.files)
      .filter((key) => key.startsWith(TAG_FILES_PREFIX))
      .map((key) => key.slice(TAG_FILES_PREFIX.length)),
    ...Object.keys(repo.tags),
  ];
}

/**
 * The problems of a seed repo's tags and releases, as `[path, message]`: a `tags/<name>` key of `files` that is not a
 * tag name, a `tags` entry that also has its own files or whose ref is not a key of `files`, a release on a tag the
 * repo does not have, two releases on one tag.
 */
export function tagProblems(repo: {
  files: Record<string, unknown>;
  tags: Record<string, string>;
  releases: readonly { tag: string }[];
}): [(string | number)[], string][] {
  const problems: [(string | number)[], string][] = [];
  for (const key of Object.keys(repo.files)) {
    if (key.startsWith(TAG_FILES_PREFIX) && !TagName.safeParse(key.slice(TAG_FILES_PREFIX.length)).success) {
      problems.push([['files', key], 'must be tags/<a git tag name>']);
    }
  }
  for (const [name, ref] of Object.entries(repo.tags)) {
    if (Object.hasOwn(repo.files, `${TAG_FILES_PREFIX}${name}`)) problems.push([['tags', name], `tag ${name} also has files of its own`]);
    if (!Object.hasOwn(repo.files, ref)) problems.push([['tags', name], `no files ${ref} (a branch or tags/<name> of files)`]);
  }
  const tags = new Set(seedTagNames(repo));
  const released = new Set<string>();
  repo.releases.forEach((release, i) => {
    if (!tags.has(release.tag)) problems.push([['releases', i, 'tag'], `no tag ${release.tag}`]);
    if (released.has(release.tag)) problems.push([['releases', i, 'tag'], `a second release of tag ${release.tag}`]);
    released.add(release.tag);
  });
  return problems;
}
