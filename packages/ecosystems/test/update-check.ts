import { expect } from 'vitest';
import { locateBundler } from '../src/bundler/update.ts';
import { locateCargo } from '../src/cargo/update.ts';
import { locateComposer } from '../src/composer/update.ts';
import { locateDep } from '../src/dep/update.ts';
import { locateElm } from '../src/elm/update.ts';
import { locateGradle } from '../src/gradle/update.ts';
import { locateHex } from '../src/hex/update.ts';
import type { DependencyUse, Ecosystem, ManifestUpdate, RegistryVersionDetails, VersioningStrategy } from '../src/index.ts';
import { locateMaven, mavenAllows } from '../src/maven/update.ts';
import { locateNpm } from '../src/npm/update.ts';
import { locateNuGet } from '../src/nuget/update.ts';
import { locatePip } from '../src/pip/update.ts';
import { locateTerraform } from '../src/terraform/update.ts';
import type { Located } from '../src/update/declarations.ts';

type Files = Readonly<Record<string, string>>;

/**
 * Each ecosystem's declaration locator, to find the requirement spans before and after an update; undefined for the
 * ecosystems whose updates rewrite references rather than located requirements (Docker, GitHub Actions, Go modules,
 * submodules: {@link checkedLineUpdate} checks those).
 */
export function locatorOf(ecosystem: Ecosystem): ((files: Files, name: string) => Located) | undefined {
  switch (ecosystem.packageManager) {
    case 'npm_and_yarn':
      return locateNpm;
    case 'pip':
      return (files, name) =>
        locatePip(
          files,
          name,
          [...ecosystem.files.required.flat(), ...ecosystem.files.optional].filter((f) => f.endsWith('.txt')),
        );
    case 'maven':
      return locateMaven;
    case 'bundler':
      return locateBundler;
    case 'cargo':
      return locateCargo;
    case 'hex':
      return locateHex;
    case 'composer':
      return locateComposer;
    case 'dep':
      return locateDep;
    case 'elm':
      return locateElm;
    case 'gradle':
      return locateGradle;
    case 'nuget':
      return locateNuGet;
    case 'terraform':
      return locateTerraform;
    default:
      return undefined;
  }
}

/** Does the ecosystem let `target` be used under `requirement` (a Maven soft version only allows itself)? */
export function allowsTarget(ecosystem: Ecosystem, target: string, requirement: string): boolean {
  if (ecosystem.packageManager === 'maven') return mavenAllows(target, requirement);
  return ecosystem.versions.satisfies(target, requirement);
}

/** The text of `file` outside the requirement spans `located` gives for it (the pieces between spans). */
function outside(located: Located, file: string, text: string): string[] {
  if ('cannot' in located) throw new Error(located.cannot);
  const spans = located.declarations
    .filter((d) => d.file === file)
    .flatMap((d) => d.parts)
    .sort((a, b) => a.start - b.start)
    .filter((span, i, all) => i === 0 || span.start !== all[i - 1]?.start);
  const pieces: string[] = [];
  let at = 0;
  for (const span of spans) {
    pieces.push(text.slice(at, span.start));
    at = span.end;
  }
  pieces.push(text.slice(at));
  return pieces;
}

/**
 * Runs `updateManifest` for `name` and `target` (by `strategy` when given) and checks its guarantees: `unchanged` only when the requirement
 * already allows the target; with `files`, only changed files, `findDependency` on the merged files gives a
 * requirement the target satisfies, every declaration allows the target, and each changed file differs from the
 * old one only inside the requirement spans (the text between and around them is identical).
 */
export function checkedUpdate(
  ecosystem: Ecosystem,
  files: Files,
  name: string,
  target: string,
  strategy?: VersioningStrategy,
  details?: RegistryVersionDetails,
): ManifestUpdate {
  const use = ecosystem.findDependency(files, name);
  expect(use, name).toBeDefined();
  if (!use) throw new Error('unreachable');
  const result = ecosystem.updateManifest(files, use, target, details, strategy);
  if ('unchanged' in result && use.requirement !== null) {
    expect(ecosystem.versions.satisfies(target, use.requirement), `${use.requirement} allows ${target}`).toBe(true);
  }
  if (!('files' in result)) return result;
  const merged = { ...files, ...result.files };
  const after = ecosystem.findDependency(merged, name);
  expect(after?.requirement).toBe(result.requirement);
  if (after?.requirement)
    expect(ecosystem.versions.satisfies(target, after.requirement), `${after.requirement} allows ${target}`).toBe(true);
  const locate = locatorOf(ecosystem);
  if (!locate) return checkedLines(files, use, result);
  const before = locate(files, name);
  const again = locate(merged, name);
  if ('cannot' in again) throw new Error(again.cannot);
  for (const declaration of again.declarations) {
    const requirement =
      declaration.requirement ?? declaration.parts.map((p) => (merged[declaration.file] ?? '').slice(p.start, p.end)).join(', ');
    expect(allowsTarget(ecosystem, target, requirement), `${declaration.where}: ${requirement} allows ${target}`).toBe(true);
  }
  for (const [file, text] of Object.entries(result.files)) {
    expect(files[file], `${file} was read`).toBeDefined();
    expect(text).not.toBe(files[file]);
    expect(outside(again, file, text)).toEqual(outside(before, file, files[file] ?? ''));
  }
  return result;
}

/**
 * The guarantees of an update by an ecosystem without a locator (references rewritten in place: Docker `FROM`, a
 * workflow's `uses:`, a go.mod `require`): every changed file was read and has the same lines, and in each line that
 * changed each word replaced is part of the version or requirement in use (a Docker `ARG` default holding its number,
 * a workflow's `# v4.1.0` comment) or a digest or commit the reference pins.
 */
function checkedLines(files: Files, use: DependencyUse, result: Extract<ManifestUpdate, { files: unknown }>): ManifestUpdate {
  const old = [use.requirement, use.version].filter((text): text is string => text !== null && text !== '');
  for (const [file, text] of Object.entries(result.files)) {
    const before = files[file];
    expect(before, `${file} was read`).toBeDefined();
    const oldLines = (before ?? '').split('\n');
    const newLines = text.split('\n');
    expect(newLines.length, `${file} keeps its lines`).toBe(oldLines.length);
    oldLines.forEach((line, i) => {
      const now = newLines[i] ?? '';
      if (now === line) return;
      let start = 0;
      while (start < line.length && line[start] === now[start]) start++;
      let end = 0;
      while (end < line.length - start && line[line.length - 1 - end] === now[now.length - 1 - end]) end++;
      const changed = line.slice(start, line.length - end);
      const tokens = changed.split(/[\s#]+/).filter((token) => token !== '');
      expect(
        tokens.every((token) => /^(sha256:)?[0-9a-f]{7,}$/i.test(token) || old.some((was) => was.includes(token))),
        `${file}:${i + 1}: '${changed}' is part of ${old.join(' or ')} (or a digest): ${line}`,
      ).toBe(true);
    });
  }
  return result;
}
