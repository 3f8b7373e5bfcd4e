import type { PackageManager } from '@switchyard/contracts';
import type { GitHubApi, RegistryAdmin } from './clients.ts';
import type { Journal } from './journal.ts';
import type { Random } from './random.ts';
import type { Registries } from './registries.ts';
import { nextVersion, type VersionBump, type VersionLine } from './versions.ts';
import { CONFIGS, PACKAGES, type ReleasePackage } from './world.ts';

/**
 * New versions of the dependencies the configs use, for all sixteen package managers, at random moments: patches,
 * minors, majors, pre-releases and yanks, on the registry emulator's admin API (`POST /admin/publish`,
 * `POST /admin/yank`), or on the code host as the upstream repositories' maintainers release (a commit and a tag for
 * dep and GitHub Actions, a new head of the branch a submodule follows), as e2e/ecosystems.e2e.test.ts does. Each new
 * version is derived from the versions the registry lists (`versions.ts`).
 */

/** What one release does. */
export type ReleaseKind = VersionBump | 'yank';

/** How often each kind comes (a yank without a version to yank becomes a patch). */
const KIND_WEIGHTS: readonly (readonly [ReleaseKind, number])[] = [
  ['patch', 35],
  ['minor', 24],
  ['major', 12],
  ['pre-release', 14],
  ['yank', 15],
];

/** A package's releases during the run. */
interface PackageState {
  pkg: ReleasePackage;
  /** Versions the soak published, oldest first. */
  published: string[];
  /** Versions known to exist or to have existed (a yanked version's number is not used again). */
  taken: Set<string>;
  yanked: Set<string>;
}

/** What the releaser works with. */
export interface ReleaserDeps {
  registries: Registries;
  admin: RegistryAdmin;
  /** The bot, which may push to the upstream repositories (acme-oss) and tag them. */
  upstream: GitHubApi;
  journal: Journal;
  random: Random;
}

/** Releases new versions; one call of {@link Releaser.releaseOne} is one release. */
export class Releaser {
  private readonly packages: PackageState[];
  /** Package managers in the order of the current round (each gets a release before any gets a second). */
  private round: PackageManager[] = [];
  private releaseCount = 0;
  private readonly deps: ReleaserDeps;

  /** A releaser of the world's packages. */
  constructor(deps: ReleaserDeps) {
    this.deps = deps;
    this.packages = PACKAGES.map((pkg) => ({ pkg, published: [], taken: new Set(), yanked: new Set() }));
  }

  /** The package managers of the configs, each with the packages its configs use. */
  private packagesOf(pm: PackageManager): PackageState[] {
    const keys = new Set(CONFIGS.filter((c) => c.packageManager === pm).map((c) => c.key));
    return this.packages.filter((state) => state.pkg.usedBy.some((k) => keys.has(k)));
  }

  /**
   * One release: the next package manager of the round, one of its packages, and a kind by weight.
   * @returns what was released (also in the journal), or undefined when nothing could be (each failure is a note)
   */
  async releaseOne(): Promise<{ kind: string; packageManager: PackageManager; version: string } | undefined> {
    const { random, journal } = this.deps;
    if (this.round.length === 0) this.round = random.shuffle([...new Set(CONFIGS.map((c) => c.packageManager))]);
    const pm = this.round.shift() as PackageManager;
    const state = random.pick(this.packagesOf(pm));
    const kind = state.pkg.source.kind === 'branch' ? 'commit' : random.weighted(KIND_WEIGHTS);
    this.releaseCount += 1;
    try {
      if (kind === 'yank') {
        const yanked = await this.yank(state, pm);
        if (yanked) return yanked;
      }
      return await this.publish(state, pm, kind === 'yank' || kind === 'commit' ? 'patch' : kind);
    } catch (error) {
      journal.note(`release of ${state.pkg.key} (${kind}) failed: ${(error as Error).message}`);
      return undefined;
    }
  }

  /** Publishes a new version of `state`'s package (`bump` of its newest; a new commit for a branch). */
  private async publish(state: PackageState, pm: PackageManager, bump: VersionBump) {
    const { pkg } = state;
    const source = pkg.source;
    if (source.kind === 'branch') {
      const sha = await this.deps.upstream.commit(
        source.repo,
        source.branch,
        { [`NEWS/${this.releaseCount}.md`]: `# News ${this.releaseCount}\n\nA fix on ${source.branch}.\n` },
        `News ${this.releaseCount}`,
      );
      return this.record(state, pm, 'commit', sha);
    }
    if (source.kind === 'tags') {
      const tags = await this.deps.registries.tags(source.repo);
      for (const tag of tags) state.taken.add(tag.name);
      const line: VersionLine = source.style === 'action' ? { fullTagsOnly: true } : {};
      const version = this.derive(
        pkg.versionsOf,
        bump,
        tags.map((t) => t.name),
        state,
        line,
      );
      if (!version) return undefined;
      const sha = await this.deps.upstream.commit(
        source.repo,
        'main',
        { [`CHANGELOG/${version}.md`]: `# ${version}\n\nReleased by the soak.\n` },
        `Release ${version}`,
      );
      await this.deps.upstream.ok('POST', `/repos/${source.repo}/git/refs`, { ref: `refs/tags/${version}`, sha });
      this.deps.registries.noteTag(source.repo, version, sha);
      // A new major of an action also gets its moving major tag (v5), as actions publish them.
      const major = /^v(\d+)\.0\.0$/.exec(version)?.[1];
      if (source.style === 'action' && major && !state.taken.has(`v${major}`)) {
        await this.deps.upstream.ok('POST', `/repos/${source.repo}/git/refs`, { ref: `refs/tags/v${major}`, sha });
        state.taken.add(`v${major}`);
      }
      return this.record(state, pm, bump, version);
    }
    const listed = await this.deps.registries.versions(source.registry, source.name);
    for (const v of listed) state.taken.add(v.version);
    const version = this.derive(
      pkg.versionsOf,
      bump,
      listed.filter((v) => !v.yanked).map((v) => v.version),
      state,
      source.docker ? { docker: source.docker } : {},
    );
    if (!version) return undefined;
    const dependencies = await this.dependenciesToKeep(
      source.registry,
      source.name,
      listed.map((v) => v.version),
    );
    await this.deps.admin.publish(source.registry, source.name, version, dependencies);
    return this.record(state, pm, bump, version);
  }

  /** `bump` of the newest listed version; a bump the ecosystem cannot have (a Go major of a v1 module…) becomes a minor. */
  private derive(versionsOf: PackageManager, bump: VersionBump, listed: string[], state: PackageState, line: VersionLine) {
    // Go modules: v2 and later are other module paths (/v2): a v1 module gets no v2.0.0.
    const goV1Major = versionsOf === 'go_modules' && bump === 'major' && listed.some((v) => /^v[1-9]/.test(v));
    const first = goV1Major ? undefined : nextVersion(versionsOf, bump, listed, state.taken, line);
    return first ?? (bump === 'minor' ? undefined : nextVersion(versionsOf, 'minor', listed, state.taken, line));
  }

  /**
   * The dependencies a new version declares, kept from the newest version where the ecosystem checks them against the
   * project (Elm's application pins; Go's go.sum): none elsewhere.
   */
  private async dependenciesToKeep(registry: string, name: string, versions: string[]): Promise<Record<string, string> | undefined> {
    if (registry !== 'elm' && registry !== 'go_modules') return undefined;
    const newest = versions.at(-1);
    if (!newest) return undefined;
    return this.deps.registries.dependenciesOf(registry, name, newest);
  }

  /** Yanks one of the versions the soak published of the package (the newest, mostly: a bad release). */
  private async yank(state: PackageState, pm: PackageManager) {
    const { pkg } = state;
    const source = pkg.source;
    const candidates = state.published.filter((v) => !state.yanked.has(v));
    // Elm's site never withdraws a release: nothing to yank there.
    if (candidates.length === 0 || source.kind === 'branch' || (source.kind === 'registry' && source.registry === 'elm')) return undefined;
    const version = this.deps.random.chance(0.7) ? (candidates.at(-1) as string) : this.deps.random.pick(candidates);
    if (source.kind === 'tags') {
      await this.deps.upstream.ok('DELETE', `/repos/${source.repo}/git/refs/tags/${version}`);
    } else {
      await this.deps.registries.remember(source.registry, source.name, version);
      await this.deps.admin.yank(source.registry, source.name, version, `${version} was released by mistake`);
    }
    state.yanked.add(version);
    return this.record(state, pm, 'yank', version);
  }

  private record(state: PackageState, pm: PackageManager, kind: string, version: string) {
    if (kind !== 'yank') {
      state.published.push(version);
      state.taken.add(version);
    }
    this.deps.journal.release({ kind, packageKey: state.pkg.key, packageManager: pm, version });
    return { kind, packageManager: pm, version };
  }
}
