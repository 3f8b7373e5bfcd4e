import type { PackageManager } from '@switchyard/contracts';
import type { VersionDescription } from './registries.ts';

/**
 * Invariant 4's reading of lockfiles, written apart from `@switchyard/ecosystems` (which wrote them) so that a mistake
 * made in both is caught: for a merged pull request, the version its directory's lockfile locks for the dependency and
 * the digests it records, compared with what the registry describes for that version. Ecosystems without a lockfile
 * agree by definition; Docker's digest pins and GitHub Actions' commit pins are checked like lockfiles.
 */

/** The files (relative to the config's directory) a package manager's check reads. */
export const LOCK_FILES: Partial<Record<PackageManager, readonly string[]>> = {
  npm_and_yarn: ['package-lock.json', 'npm-shrinkwrap.json'],
  bundler: ['Gemfile.lock'],
  cargo: ['Cargo.lock'],
  composer: ['composer.lock'],
  go_modules: ['go.mod', 'go.sum'],
  terraform: ['.terraform.lock.hcl'],
  hex: ['mix.lock'],
  docker: ['Dockerfile'],
  github_actions: ['.github/workflows/ci.yml'],
  dep: ['Gopkg.lock'],
};

/** What the check needs to know of the outside: the registry's description of a version, and a tag's commit. */
export interface LockContext {
  /** The registry's description of `version` (registry as the emulator names it), undefined when it has no such version. */
  describe(registry: string, name: string, version: string): Promise<VersionDescription | undefined>;
  /** The commit of `tag` in the code host's `repo`, undefined when there is no such tag. */
  tagCommit(repo: string, tag: string): Promise<string | undefined>;
}

/** The outcome of one check. */
export interface LockVerdict {
  /** Whether the lockfile agrees (true too when the ecosystem has none, or the file locks nothing of the dependency). */
  agrees: boolean;
  /** What was compared, or why it disagrees. */
  detail: string;
  /** Whether a lockfile entry or pin was compared with the registry (false: there was nothing to compare). */
  compared: boolean;
}

/** Agreement after a comparison with the registry. */
const agree = (detail: string): LockVerdict => ({ agrees: true, detail, compared: true });
/** Nothing to compare (no lockfile, no pin): agrees trivially. */
const nothing = (detail: string): LockVerdict => ({ agrees: true, detail, compared: false });
const disagree = (detail: string): LockVerdict => ({ agrees: false, detail, compared: true });

/** Compares a locked version and its recorded digests with the registry's description. */
async function compare(
  context: LockContext,
  registry: string,
  name: string,
  locked: string,
  target: string,
  recorded: Partial<Record<keyof VersionDescription, string | string[]>>,
): Promise<LockVerdict> {
  if (locked !== target) return disagree(`locks ${name} ${locked}, not the merged version ${target}`);
  const described = await context.describe(registry, name, locked);
  if (!described) return disagree(`locks ${name} ${locked}, which the registry does not describe`);
  for (const [field, value] of Object.entries(recorded) as [keyof VersionDescription, string | string[]][]) {
    const expected = described[field];
    if (expected === undefined || value === '' || (Array.isArray(value) && value.length === 0)) continue;
    const values = Array.isArray(value) ? value : [value];
    const allowed = Array.isArray(expected) ? expected : [expected];
    const wrong = values.filter((v) => !allowed.includes(v));
    if (wrong.length > 0) return disagree(`${name} ${locked}: ${field} ${wrong.join(', ')} is not the registry's ${allowed.join(', ')}`);
  }
  return agree(`${name} ${locked}: ${Object.keys(recorded).join(', ') || 'version'} as the registry says`);
}

/**
 * Whether the lockfile in `files` (the config directory's files at the merge commit, by relative path) locks
 * `dependency` at `target` with the registry's digests for it.
 */
export async function checkLock(
  packageManager: PackageManager,
  files: Readonly<Record<string, string>>,
  dependency: string,
  target: string,
  context: LockContext,
): Promise<LockVerdict> {
  switch (packageManager) {
    case 'npm_and_yarn': {
      const text = files['package-lock.json'] ?? files['npm-shrinkwrap.json'];
      if (text === undefined) return nothing('no package-lock.json');
      const lock = JSON.parse(text) as {
        packages?: Record<string, { version?: string; integrity?: string }>;
        dependencies?: Record<string, { version?: string; integrity?: string }>;
      };
      const entry = lock.packages?.[`node_modules/${dependency}`] ?? lock.dependencies?.[dependency];
      if (!entry?.version) return disagree(`package-lock.json has no entry for ${dependency}`);
      return compare(context, 'npm_and_yarn', dependency, entry.version, target, { integrity: entry.integrity ?? '' });
    }
    case 'bundler': {
      const text = files['Gemfile.lock'];
      if (text === undefined) return nothing('no Gemfile.lock');
      const spec = new RegExp(`^ {4}${literal(dependency)} \\(([^)\\s]+)\\)$`, 'm').exec(text);
      if (!spec?.[1]) return disagree(`Gemfile.lock has no spec for ${dependency}`);
      const checksum = new RegExp(`^ {2}${literal(dependency)} \\(${literal(spec[1])}\\) sha256=([0-9a-f]+)$`, 'm').exec(text);
      return compare(context, 'bundler', dependency, spec[1], target, { sha256: checksum?.[1] ?? '' });
    }
    case 'cargo': {
      const text = files['Cargo.lock'];
      if (text === undefined) return nothing('no Cargo.lock');
      const blocks = text.split(/^\[\[package\]\]$/m).slice(1);
      const block = blocks.find((b) => new RegExp(`^name = "${literal(dependency)}"$`, 'm').test(b));
      const version = block && /^version = "([^"]+)"$/m.exec(block)?.[1];
      if (!block || !version) return disagree(`Cargo.lock has no package ${dependency}`);
      return compare(context, 'cargo', dependency, version, target, { sha256: /^checksum = "([0-9a-f]+)"$/m.exec(block)?.[1] ?? '' });
    }
    case 'composer': {
      const text = files['composer.lock'];
      if (text === undefined) return nothing('no composer.lock');
      const lock = JSON.parse(text) as { packages?: LockedComposer[]; 'packages-dev'?: LockedComposer[] };
      const entry = [...(lock.packages ?? []), ...(lock['packages-dev'] ?? [])].find(
        (p) => p.name.toLowerCase() === dependency.toLowerCase(),
      );
      if (!entry) return disagree(`composer.lock has no package ${dependency}`);
      return compare(context, 'composer', dependency, entry.version, target, {
        shasum: entry.dist?.shasum ?? '',
        reference: entry.dist?.reference ?? '',
      });
    }
    case 'go_modules': {
      const mod = files['go.mod'];
      const sum = files['go.sum'];
      if (mod === undefined || sum === undefined) return nothing('no go.sum');
      const version = new RegExp(`^\\s*(?:require\\s+)?${literal(dependency)}\\s+(v\\S+)`, 'm').exec(mod)?.[1];
      if (!version) return disagree(`go.mod requires no ${dependency}`);
      const line = (suffix: string) =>
        new RegExp(`^${literal(dependency)} ${literal(version)}${literal(suffix)} (h1:\\S+)$`, 'm').exec(sum)?.[1] ?? '';
      const h1 = line('');
      const goModH1 = line('/go.mod');
      if (!h1 || !goModH1) return disagree(`go.sum has no hashes of ${dependency} ${version}`);
      return compare(context, 'go_modules', dependency, version, target, { h1, goModH1 });
    }
    case 'terraform': {
      const text = files['.terraform.lock.hcl'];
      if (text === undefined || dependency.split('/').length !== 2) return nothing('no provider lock');
      const block = new RegExp(`provider "registry\\.terraform\\.io/${literal(dependency)}" \\{([\\s\\S]*?)\\n\\}`, 'i').exec(text)?.[1];
      const version = block && /version\s*=\s*"([^"]+)"/.exec(block)?.[1];
      if (!block || !version) return disagree(`.terraform.lock.hcl has no provider ${dependency}`);
      const hashes = [...block.matchAll(/"((?:h1|zh):[^"]+)"/g)].map((m) => m[1] as string);
      return compare(context, 'terraform', dependency, version, target, {
        zipSha256: hashes.filter((h) => h.startsWith('zh:')).map((h) => h.slice(3)),
        h1s: hashes.filter((h) => h.startsWith('h1:')),
      });
    }
    case 'hex': {
      const text = files['mix.lock'];
      if (text === undefined) return nothing('no mix.lock');
      const entry = new RegExp(
        `"${literal(dependency)}": \\{:hex, :${literal(dependency)}, "([^"]+)", "([0-9a-f]+)", \\[[^\\]]*\\], \\[[\\s\\S]*?\\], "hexpm", "([0-9a-f]+)"\\}`,
      ).exec(text);
      if (!entry?.[1]) return disagree(`mix.lock has no entry for ${dependency}`);
      return compare(context, 'hex', dependency, entry[1], target, { innerSha256: entry[2] ?? '', sha256: entry[3] ?? '' });
    }
    case 'docker': {
      const text = files.Dockerfile;
      if (text === undefined) return nothing('no Dockerfile');
      const image = dependency.includes('/') ? dependency : `library/${dependency}`;
      const pins = [...text.matchAll(/^FROM\s+(?:--\S+\s+)*(\S+?):([^@\s]+)@(sha256:[0-9a-f]+)/gm)].filter((m) => {
        const name = m[1] as string;
        return (name.includes('/') ? name : `library/${name}`) === image;
      });
      if (pins.length === 0) return nothing(`${dependency} is not pinned by digest`);
      for (const pin of pins) {
        const verdict = await compare(context, 'docker', image, pin[2] as string, target, { digest: pin[3] as string });
        if (!verdict.agrees) return verdict;
      }
      return agree(`${dependency}: digest pin as the registry says`);
    }
    case 'github_actions': {
      const text = files['.github/workflows/ci.yml'];
      if (text === undefined) return nothing('no workflow');
      const pin = new RegExp(`uses:\\s*${literal(dependency)}@([0-9a-f]{40})\\s*#\\s*(\\S+)`).exec(text);
      if (!pin?.[1] || !pin[2]) return nothing(`${dependency} is not pinned by commit`);
      if (pin[2] !== target) return disagree(`pins ${dependency} ${pin[2]}, not the merged version ${target}`);
      const commit = await context.tagCommit(dependency, pin[2]);
      return commit === pin[1]
        ? agree(`${dependency}@${pin[1].slice(0, 7)} is ${pin[2]}`)
        : disagree(`${dependency} pinned at ${pin[1].slice(0, 7)} # ${pin[2]}, but ${pin[2]} is ${commit?.slice(0, 7) ?? 'no tag'}`);
    }
    case 'dep': {
      const text = files['Gopkg.lock'];
      if (text === undefined) return nothing('no Gopkg.lock');
      const block = text.split(/^\[\[projects\]\]$/m).find((b) => new RegExp(`name = "${literal(dependency)}"`).test(b));
      const version = block && /version = "([^"]+)"/.exec(block)?.[1];
      const revision = block && /revision = "([0-9a-f]+)"/.exec(block)?.[1];
      if (!version || !revision) return disagree(`Gopkg.lock has no project ${dependency}`);
      if (version !== target) return disagree(`locks ${dependency} ${version}, not the merged version ${target}`);
      const commit = await context.tagCommit(dependency.replace(/^github\.com\//, ''), version);
      return commit === revision
        ? agree(`${dependency} ${version} at ${revision.slice(0, 7)}`)
        : disagree(`${dependency} ${version} locked at ${revision.slice(0, 7)}, but the tag is ${commit?.slice(0, 7) ?? 'gone'}`);
    }
    default:
      return nothing(`${packageManager} has no lockfile`);
  }
}

interface LockedComposer {
  name: string;
  version: string;
  dist?: { shasum?: string; reference?: string };
}

/** `text` with the characters a regular expression reads specially escaped. */
function literal(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');
}
