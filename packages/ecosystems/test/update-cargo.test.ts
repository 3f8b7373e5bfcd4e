import { describe, expect, it } from 'vitest';
import { cargo, type DependencyUse } from '../src/index.ts';
import { fixture } from './fixtures.ts';
import { checkedUpdate } from './update-check.ts';

const files = fixture('cargo');
const toml = files['Cargo.toml'] ?? '';
const use = (f: Record<string, string>, name: string) => cargo.findDependency(f, name) as DependencyUse;

describe('cargo updateManifest', () => {
  it.each([
    ['tokio', '2.0.1', '{ version = "1.34", features', '{ version = "2.0", features', '2.0'],
    ['serde_json', '2.1.0', 'serde_json = "1"', 'serde_json = "2"', '2'],
    ['axum', '0.8.1', 'axum = "0.7.1"', 'axum = "0.8.1"', '0.8.1'],
    ['tracing', '0.1.41', 'tracing = "=0.1.40"', 'tracing = "=0.1.41"', '=0.1.41'],
    ['actix-web', '5.0.0', 'version = "4.4.0", optional', 'version = "5.0.0", optional', '5.0.0'],
    ['reqwest', '0.12.4', 'version = "0.11.22"', 'version = "0.12.4"', '0.12.4'],
    ['proptest', '1.5.0', 'proptest = "~1.4"', 'proptest = "~1.5"', '~1.5'],
    ['winapi', '0.4.0', '{ version = "0.3.9", features', '{ version = "0.4.0", features', '0.4.0'],
  ])('%s to %s edits only the requirement string', (name, target, before, after, requirement) => {
    expect(checkedUpdate(cargo, files, name, target)).toEqual({ files: { 'Cargo.toml': toml.replace(before, after) }, requirement });
  });
  it('updates a crate declared in several tables', () => {
    expect(checkedUpdate(cargo, files, 'rand', '0.9.1')).toEqual({
      files: { 'Cargo.toml': toml.replace('rand = "0.8"', 'rand = "0.9"').replace('rand = "0.7"', 'rand = "0.9"') },
      requirement: '0.9',
    });
  });
  it('leaves requirements that allow the target', () => {
    expect(cargo.updateManifest(files, use(files, 'serde'), '1.0.200')).toEqual({
      unchanged: expect.stringContaining("'1.0.193' already allows 1.0.200"),
    });
  });
  it('edits [workspace.dependencies] for inherited crates, keeps comments, literal strings and CRLF, and refuses path crates', () => {
    const text = [
      '[workspace]',
      'members = ["crates/*"]',
      '',
      '[workspace.dependencies]',
      "anyhow = '1.0.75' # errors",
      'core-types = { path = "crates/core-types", version = "0.3.0" }',
      'serde.version = ">= 1.0.100, < 1.1"',
      '',
      '[dependencies]',
      'anyhow = { workspace = true }',
      'core-types = { workspace = true }',
    ].join('\r\n');
    const ws = { 'Cargo.toml': text };
    expect(checkedUpdate(cargo, ws, 'anyhow', '2.0.2')).toEqual({
      files: { 'Cargo.toml': text.replace("'1.0.75'", "'2.0.2'") },
      requirement: '2.0.2',
    });
    expect(checkedUpdate(cargo, ws, 'serde', '1.2.0')).toEqual({
      files: { 'Cargo.toml': text.replace('< 1.1', '< 1.3') },
      requirement: '>= 1.0.100, < 1.3',
    });
    expect(cargo.updateManifest(ws, use(ws, 'core-types'), '0.4.0')).toEqual({ cannot: expect.stringContaining('path or git') });
    const member = { 'Cargo.toml': '[dependencies]\nanyhow = { workspace = true }\n' };
    expect(cargo.updateManifest(member, use(member, 'anyhow'), '2.0.0')).toEqual({ cannot: expect.stringContaining('workspace root') });
  });
});
