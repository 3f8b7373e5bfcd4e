import { createHash } from 'node:crypto';
import { cratesIndexPath } from '@switchyard/registry-emulator';
import type { GitHubApi } from './clients.ts';
import { requestJson, Unexpected } from './http.ts';
import { hash1, unzip } from './zip.ts';

/**
 * What the registries say, read as their clients read them (each protocol's own routes on the registry emulator; the
 * code host's tags and branches): the versions a package lists, and what a lockfile must record of one version (its
 * digests). Descriptions are kept once read, so a version yanked later (gone from some protocols) is still known.
 */

/** A version as its registry lists it. */
export interface ListedVersion {
  version: string;
  /** Yanked, deprecated, unlisted or retired (still shown by the protocol). */
  yanked: boolean;
}

/**
 * What a lockfile must say of one version, per ecosystem (every field optional: each ecosystem records some):
 * `integrity` (npm `sha512-…`), `sha256` (RubyGems `sha`, crates.io `cksum`, Hex outer checksum, hex digits),
 * `innerSha256` (Hex inner checksum), `shasum` and `reference` (Packagist dist), `h1`/`goModH1` (go.sum), `zipSha256`
 * and `h1s` (a Terraform provider's builds: `zh:` and `h1:` hashes), `digest` (an OCI manifest), `commit` (a tag's commit).
 */
export interface VersionDescription {
  integrity?: string;
  sha256?: string;
  innerSha256?: string;
  shasum?: string;
  reference?: string;
  h1?: string;
  goModH1?: string;
  zipSha256?: string[];
  h1s?: string[];
  digest?: string;
  commit?: string;
}

/** Reads the registry emulator at `baseUrl()` (and the code host's tags through `github`). */
export class Registries {
  private readonly described = new Map<string, VersionDescription>();
  private readonly knownTags = new Map<string, Map<string, string>>();
  private readonly baseUrl: () => string;
  private readonly github: GitHubApi;

  constructor(baseUrl: () => string, github: GitHubApi) {
    this.baseUrl = baseUrl;
    this.github = github;
  }

  private async get(path: string, ok: readonly number[] = [200], headers: Record<string, string> = {}) {
    const answer = await requestJson('GET', `${this.baseUrl()}${path}`, { headers: { accept: '*/*', ...headers } });
    if (!ok.includes(answer.status)) throw new Unexpected(`GET ${path}`, answer);
    return answer;
  }

  private async bytes(path: string): Promise<Buffer> {
    const res = await fetch(`${this.baseUrl()}${path}`, { signal: AbortSignal.timeout(60_000) });
    if (res.status !== 200) throw new Error(`GET ${path}: ${res.status}`);
    return Buffer.from(await res.arrayBuffer());
  }

  /**
   * The versions `name` lists on the registry of `registry` (the emulator's name of its package manager), or for a
   * code-host source its tags. @throws Unexpected / Unreachable
   */
  async versions(registry: string, name: string): Promise<ListedVersion[]> {
    switch (registry) {
      case 'npm_and_yarn': {
        const doc = (await this.get(`/npm/${name.replace('/', '%2f')}`)).body;
        return Object.entries(doc.versions as Record<string, { deprecated?: string }>).map(([version, v]) => ({
          version,
          yanked: v.deprecated !== undefined,
        }));
      }
      case 'pip': {
        const doc = (await this.get(`/pypi/pypi/${name}/json`)).body;
        return Object.entries(doc.releases as Record<string, { yanked?: boolean }[]>).map(([version, files]) => ({
          version,
          yanked: files.some((f) => f.yanked === true),
        }));
      }
      case 'maven': {
        const [group = '', artifact = ''] = name.split(':');
        const xml = (await this.get(`/maven/${group.replaceAll('.', '/')}/${artifact}/maven-metadata.xml`)).text;
        return [...xml.matchAll(/<version>([^<]+)<\/version>/g)].map((m) => ({ version: m[1] as string, yanked: false }));
      }
      case 'bundler': {
        const list = (await this.get(`/rubygems/api/v1/versions/${name}.json`)).body as { number: string }[];
        return list.map((v) => ({ version: v.number, yanked: false }));
      }
      case 'cargo': {
        const text = (await this.get(`/crates/index/${cratesIndexPath(name)}`)).text;
        return text
          .split('\n')
          .filter((line) => line.trim() !== '')
          .map((line) => JSON.parse(line) as { vers: string; yanked: boolean })
          .map((v) => ({ version: v.vers, yanked: v.yanked }));
      }
      case 'composer':
        return (await this.packagistVersions(name)).map((v) => ({ version: v.version as string, yanked: false }));
      case 'docker': {
        const doc = (await this.get(`/docker/v2/${name}/tags/list`, [200], await this.dockerAuth(name))).body as { tags: string[] };
        return doc.tags.map((version) => ({ version, yanked: false }));
      }
      case 'nuget': {
        const doc = (await this.get(`/nuget/v3/registration/${name.toLowerCase()}/index.json`)).body;
        const leaves = (doc.items as { items: { catalogEntry: { version: string; listed?: boolean } }[] }[]).flatMap((page) => page.items);
        return leaves.map((leaf) => ({ version: leaf.catalogEntry.version, yanked: leaf.catalogEntry.listed === false }));
      }
      case 'go_modules': {
        const text = (await this.get(`/goproxy/${escapeGo(name)}/@v/list`)).text;
        return text
          .split('\n')
          .filter((line) => line.trim() !== '')
          .map((version) => ({ version: version.trim(), yanked: false }));
      }
      case 'terraform': {
        const parts = name.split('/');
        if (parts.length === 2) {
          const doc = (await this.get(`/terraform/v1/providers/${name}/versions`)).body as { versions: { version: string }[] };
          return doc.versions.map((v) => ({ version: v.version, yanked: false }));
        }
        const doc = (await this.get(`/terraform/v1/modules/${name}/versions`)).body as { modules: { versions: { version: string }[] }[] };
        return (doc.modules[0]?.versions ?? []).map((v) => ({ version: v.version, yanked: false }));
      }
      case 'hex': {
        const doc = (await this.get(`/hex/api/packages/${name}`)).body as {
          releases: { version: string }[];
          retirements?: Record<string, unknown>;
        };
        return doc.releases.map((r) => ({ version: r.version, yanked: doc.retirements?.[r.version] !== undefined }));
      }
      case 'elm': {
        const doc = (await this.get(`/elm/packages/${name}/releases.json`)).body as Record<string, number>;
        return Object.keys(doc).map((version) => ({ version, yanked: false }));
      }
      default:
        throw new Error(`no registry reader for ${registry}`);
    }
  }

  /** A pull token of the OCI registry for `name` (Docker's token auth: `GET /token?scope=repository:<name>:pull`). */
  private async dockerAuth(name: string): Promise<Record<string, string>> {
    const scope = encodeURIComponent(`repository:${name}:pull`);
    const answer = await this.get(`/docker/token?service=registry&scope=${scope}`);
    return { authorization: `Bearer ${answer.body.token as string}` };
  }

  /** The tags of the code host's `repo` (as versions) with their commits (each kept: a tag deleted later is still known). */
  async tags(repo: string): Promise<{ name: string; sha: string }[]> {
    const tags = await this.github.tags(repo);
    for (const tag of tags) this.noteTag(repo, tag.name, tag.sha);
    return tags;
  }

  /** Notes that `tag` of `repo` is (or was) commit `sha`. */
  noteTag(repo: string, tag: string, sha: string): void {
    const known = this.knownTags.get(repo) ?? new Map<string, string>();
    this.knownTags.set(repo, known);
    known.set(tag, sha);
  }

  /** The commit `tag` of the code host's `repo` is or was, undefined when it never existed. @throws Unexpected / Unreachable */
  async tagCommit(repo: string, tag: string): Promise<string | undefined> {
    const known = this.knownTags.get(repo)?.get(tag);
    if (known) return known;
    return (await this.tags(repo)).find((t) => t.name === tag)?.sha;
  }

  /** Packagist's p2 versions of `name`, expanded from Composer's minified form (each version has every key). */
  private async packagistVersions(name: string): Promise<Record<string, unknown>[]> {
    const doc = (await this.get(`/packagist/p2/${name.toLowerCase()}.json`)).body as {
      packages: Record<string, Record<string, unknown>[]>;
    };
    const minified = Object.values(doc.packages)[0] ?? [];
    const out: Record<string, unknown>[] = [];
    let current: Record<string, unknown> = {};
    for (const changes of minified) {
      current = { ...current };
      for (const [key, value] of Object.entries(changes)) {
        if (value === '__unset') delete current[key];
        else current[key] = value;
      }
      out.push(current);
    }
    return out;
  }

  /**
   * The dependencies `version` of `name` declares, as the admin API takes them (name → requirement): Elm's elm.json
   * `dependencies`, a Go module's `require` lines; undefined for other registries. @throws Unexpected / Unreachable
   */
  async dependenciesOf(registry: string, name: string, version: string): Promise<Record<string, string> | undefined> {
    if (registry === 'elm') {
      const doc = (await this.get(`/elm/packages/${name}/${version}/elm.json`)).body as { dependencies?: Record<string, string> };
      return doc.dependencies ?? {};
    }
    if (registry === 'go_modules') {
      const text = (await this.get(`/goproxy/${escapeGo(name)}/@v/${escapeGo(version)}.mod`)).text;
      const requires: Record<string, string> = {};
      for (const match of text.matchAll(/^\s*(?:require\s+)?([a-z0-9.\-_~/]+\.[a-z0-9.\-_~/]+)\s+(v\S+)\s*$/gm)) {
        if (match[1] && match[2] && match[1] !== name) requires[match[1]] = match[2];
      }
      return requires;
    }
    return undefined;
  }

  /** Notes what the registry says of a version now (before a yank that would hide it), so it stays known. */
  async remember(registry: string, name: string, version: string): Promise<void> {
    await this.describe(registry, name, version).catch(() => undefined);
  }

  /**
   * What a lockfile must record of `version` of `name` (see {@link VersionDescription}), or undefined when the registry
   * does not know the version (and it was never described before). @throws Unreachable
   */
  async describe(registry: string, name: string, version: string): Promise<VersionDescription | undefined> {
    const key = `${registry}\u0000${name}\u0000${version}`;
    const known = this.described.get(key);
    if (known) return known;
    const found = await this.read(registry, name, version);
    if (found) this.described.set(key, found);
    return found;
  }

  private async read(registry: string, name: string, version: string): Promise<VersionDescription | undefined> {
    switch (registry) {
      case 'npm_and_yarn': {
        const doc = (await this.get(`/npm/${name.replace('/', '%2f')}`, [200, 404])).body;
        const dist = doc?.versions?.[version]?.dist;
        return dist ? { integrity: dist.integrity, shasum: dist.shasum } : undefined;
      }
      case 'bundler': {
        const answer = await this.get(`/rubygems/api/v2/rubygems/${name}/versions/${version}.json`, [200, 404]);
        return answer.status === 200 ? { sha256: answer.body.sha } : undefined;
      }
      case 'cargo': {
        const answer = await this.get(`/crates/index/${cratesIndexPath(name)}`, [200, 404]);
        const line = answer.text
          .split('\n')
          .filter((l) => l.trim() !== '')
          .map((l) => JSON.parse(l) as { vers: string; cksum: string })
          .find((v) => v.vers === version);
        return line ? { sha256: line.cksum } : undefined;
      }
      case 'composer': {
        const found = (await this.packagistVersions(name)).find((v) => v.version === version);
        const dist = found?.dist as { shasum?: string; reference?: string } | undefined;
        return dist ? { shasum: dist.shasum ?? '', reference: dist.reference ?? '' } : undefined;
      }
      case 'hex': {
        const answer = await this.get(`/hex/api/packages/${name}/releases/${version}`, [200, 404]);
        return answer.status === 200 ? { sha256: answer.body.checksum, innerSha256: answer.body.inner_checksum } : undefined;
      }
      case 'go_modules': {
        const base = `/goproxy/${escapeGo(name)}/@v/${escapeGo(version)}`;
        const mod = await requestJson('GET', `${this.baseUrl()}${base}.mod`, { headers: { accept: '*/*' } });
        if (mod.status !== 200) return undefined;
        const zip = unzip(await this.bytes(`${base}.zip`));
        return { h1: hash1(zip), goModH1: hash1(new Map([['go.mod', Buffer.from(mod.text, 'utf8')]])) };
      }
      case 'terraform': {
        if (name.split('/').length !== 2) return {};
        const zipSha256: string[] = [];
        const h1s: string[] = [];
        for (const [os, arch] of [
          ['darwin', 'arm64'],
          ['linux', 'amd64'],
          ['linux', 'arm64'],
          ['windows', 'amd64'],
        ] as const) {
          const answer = await this.get(`/terraform/v1/providers/${name}/${version}/download/${os}/${arch}`, [200, 404]);
          if (answer.status !== 200) return undefined;
          const zip = await this.bytes(new URL(answer.body.download_url as string).pathname);
          zipSha256.push(createHash('sha256').update(zip).digest('hex'));
          h1s.push(hash1(unzip(zip)));
        }
        return { zipSha256, h1s };
      }
      case 'docker': {
        const res = await fetch(`${this.baseUrl()}/docker/v2/${name}/manifests/${version}`, {
          method: 'HEAD',
          headers: { accept: 'application/vnd.oci.image.manifest.v1+json', ...(await this.dockerAuth(name)) },
          signal: AbortSignal.timeout(60_000),
        });
        const digest = res.headers.get('docker-content-digest');
        return res.status === 200 && digest ? { digest } : undefined;
      }
      default:
        return {};
    }
  }
}

/** A Go module path or version as GOPROXY URLs write it (a capital letter as `!` and its lower case). */
function escapeGo(path: string): string {
  return path.replace(/[A-Z]/g, (c) => `!${c.toLowerCase()}`);
}
