import { ManifestParseError } from '../errors.ts';

/** A locked gem: name, version and the platform suffix of a platform-specific gem (`x86_64-linux`), else null. */
export interface LockedGem {
  name: string;
  version: string;
  platform: string | null;
}

const SECTIONS = new Set(['GEM', 'GIT', 'PATH', 'PLUGIN SOURCE', 'PLATFORMS', 'DEPENDENCIES', 'RUBY VERSION', 'BUNDLED WITH', 'CHECKSUMS']);
const SOURCES = new Set(['GEM', 'GIT', 'PATH', 'PLUGIN SOURCE']);

/**
 * Reads the locked gems of a Gemfile.lock: the 4-space indented `name (version)` lines under `specs:` of the
 * `GEM`, `GIT`, `PATH` and `PLUGIN SOURCE` sections (6-space lines are their dependencies and are skipped).
 * A platform-specific gem `nokogiri (1.15.4-x86_64-linux)` is split at the first `-` (RubyGems writes a
 * version's own `-` as `.pre.`, so a `-` always starts the platform).
 * @throws ManifestParseError on merge conflict markers, an unknown top-level section or an unreadable spec line
 */
export function readGemfileLock(file: string, text: string): LockedGem[] {
  const out: LockedGem[] = [];
  let section: string | null = null;
  let inSpecs = false;
  for (const [index, raw] of text.split(/\r?\n/).entries()) {
    const line = raw.trimEnd();
    if (line === '') continue;
    if (/^(<{7}|={7}|>{7})/.test(line)) throw new ManifestParseError(file, `line ${index + 1}: unresolved merge conflict`);
    if (!/^\s/.test(line)) {
      if (!SECTIONS.has(line)) throw new ManifestParseError(file, `line ${index + 1}: unknown section '${line}'`);
      section = line;
      inSpecs = false;
      continue;
    }
    if (section === null) throw new ManifestParseError(file, `line ${index + 1}: content before the first section`);
    if (!SOURCES.has(section)) continue;
    if (/^ {2}\S/.test(line)) {
      inSpecs = line.trim() === 'specs:';
      continue;
    }
    if (!inSpecs || !/^ {4}\S/.test(line)) continue;
    const spec = /^ {4}(\S+) \(([^)\s]+)\)$/.exec(line);
    if (!spec?.[1] || !spec[2]) throw new ManifestParseError(file, `line ${index + 1}: cannot read spec '${line.trim()}'`);
    const dash = spec[2].indexOf('-');
    out.push({
      name: spec[1],
      version: dash === -1 ? spec[2] : spec[2].slice(0, dash),
      platform: dash === -1 ? null : spec[2].slice(dash + 1),
    });
  }
  return out;
}
