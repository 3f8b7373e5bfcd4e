import { RepoConfigFileRead } from '@switchyard/contracts';
import { CONFIG_FILE_PATHS } from '@switchyard/repo-config';

/** The fields of GitHub's `push` payload this policy reads (https://docs.github.com/webhooks/webhook-events-and-payloads#push). */
interface PushPayload {
  ref?: unknown;
  deleted?: unknown;
  commits?: unknown;
  repository?: {
    id?: unknown;
    name?: unknown;
    full_name?: unknown;
    owner?: { id?: unknown; login?: unknown; type?: unknown };
    private?: unknown;
    fork?: unknown;
    archived?: unknown;
    html_url?: unknown;
    language?: unknown;
    default_branch?: unknown;
  };
}

/** The most commits a push payload lists (GitHub's limit): a push that lists this many may have changed more. */
const LISTED_COMMITS = 2048;

/** Whether the payload's commits touched a config file; true when it cannot tell (no list, or a list cut at the limit). */
function touchesConfigFile(commits: unknown): boolean {
  if (!Array.isArray(commits) || commits.length >= LISTED_COMMITS) return true;
  const paths = new Set<string>(CONFIG_FILE_PATHS);
  for (const commit of commits) {
    if (typeof commit !== 'object' || commit === null) return true;
    for (const key of ['added', 'removed', 'modified'] as const) {
      const listed = (commit as Record<string, unknown>)[key];
      if (!Array.isArray(listed)) return true;
      if (listed.some((path) => typeof path === 'string' && paths.has(path))) return true;
    }
  }
  return false;
}

/**
 * The repository whose config files a `push` delivery asks to read again, as `repo_config_file.read` describes it:
 * a push (not a deletion) to the repository's default branch whose commits added, changed or removed
 * `.dependabot/config.yml` or `.github/dependabot.y(a)ml`, or that does not say which files it changed. Undefined for
 * every other push and for a payload without the repository's fields.
 */
export function configFilePushOf(payload: unknown): RepoConfigFileRead['repo'] | undefined {
  const push = (typeof payload === 'object' && payload !== null ? payload : {}) as PushPayload;
  const repo = push.repository;
  if (push.deleted === true || typeof push.ref !== 'string' || !repo || typeof repo.default_branch !== 'string') return undefined;
  if (push.ref !== `refs/heads/${repo.default_branch}` || !touchesConfigFile(push.commits)) return undefined;
  const parsed = RepoConfigFileRead.shape.repo.safeParse({
    id: repo.id,
    name: repo.name,
    fullName: repo.full_name,
    owner: { id: repo.owner?.id, login: repo.owner?.login, type: repo.owner?.type === 'Organization' ? 'org' : 'user' },
    private: repo.private,
    fork: repo.fork ?? false,
    archived: repo.archived ?? false,
    htmlUrl: repo.html_url,
    language: typeof repo.language === 'string' ? repo.language : null,
    defaultBranch: repo.default_branch,
  });
  return parsed.success ? parsed.data : undefined;
}
