import { parse } from '@cdktf/hcl2json';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { terraform } from '../src/index.ts';
import { moduleName, providerName, readTerraformFile, readTerraformLock } from '../src/terraform/terraform-files.ts';
import { corpusDirectories } from './corpus.ts';
import { fixture } from './fixtures.ts';
import { aroundExpression, aroundShape, HCL_SHAPES, hclExpressions } from './terraform-hcl-shapes.ts';

/**
 * `@cdktf/hcl2json` (HashiCorp's HCL parser, hashicorp/hcl's `hclsyntax`, compiled to WebAssembly) as the reference
 * for the HCL reader: every file it accepts, ours accepts, and both find the same provider requirements and module
 * calls, with the same sources and versions.
 */

/** `kind key name requirement` of one declaration, as both sides are compared. */
type Row = string;

const row = (kind: string, key: string, name: string, requirement: string | null): Row => `${kind} ${key} ${name} ${requirement}`;

/** A version attribute as hcl2json gives it: a literal string's text (trimmed, null when empty), null for an expression. */
const versionOf = (value: unknown): string | null =>
  typeof value === 'string' && !value.includes(`$\{`) && value.trim() !== '' ? value.trim() : null;

/** hcl2json's value of a block as a list of its instances. */
const instances = (value: unknown): Record<string, unknown>[] =>
  (Array.isArray(value) ? value : value === undefined ? [] : [value]).filter(
    (item): item is Record<string, unknown> => typeof item === 'object' && item !== null,
  );

/** The declarations hcl2json's JSON of a `.tf` file holds, in the reader's terms, sorted. */
function referenceRows(json: Record<string, unknown>): Row[] {
  const out: Row[] = [];
  for (const block of instances(json.terraform)) {
    for (const providers of instances(block.required_providers)) {
      for (const [key, value] of Object.entries(providers)) {
        if (typeof value === 'string') {
          if (!value.startsWith(`$\{`)) out.push(row('provider', key, `hashicorp/${key.toLowerCase()}`, versionOf(value)));
        } else if (typeof value === 'object' && value !== null && !Array.isArray(value)) {
          const entry = value as Record<string, unknown>;
          const source = typeof entry.source === 'string' && !entry.source.includes(`$\{`) ? entry.source : key;
          out.push(row('provider', key, providerName(source).name, versionOf(entry.version)));
        }
      }
    }
  }
  const modules = json.module as Record<string, unknown> | undefined;
  for (const [key, value] of Object.entries(modules ?? {})) {
    for (const call of instances(value)) {
      if (typeof call.source !== 'string' || call.source.includes(`$\{`)) continue;
      out.push(row('module', key, moduleName(call.source) ?? call.source, versionOf(call.version)));
    }
  }
  return out.sort();
}

/** The declarations our reader finds in a `.tf` file, sorted. */
const ourRows = (file: string, text: string): Row[] =>
  readTerraformFile(file, text)
    .map((d) => row(d.kind, d.key, d.name, d.requirement))
    .sort();

/** Asserts our reader accepts `text` when hcl2json does, and finds what hcl2json finds. */
async function agrees(file: string, text: string): Promise<boolean> {
  let json: Record<string, unknown>;
  try {
    json = await parse(file, text);
  } catch {
    return false;
  }
  expect(ourRows(file, text), file).toEqual(referenceRows(json));
  return true;
}

const corpusFiles = corpusDirectories(terraform).flatMap((directory) =>
  Object.entries(directory.files).map(([name, text]) => [`${directory.label}/${name}`, text] as const),
);
const fixtures = Object.entries(fixture('terraform'));

describe('the HCL reader against hcl2json (HashiCorp’s parser)', () => {
  it.each([...corpusFiles, ...fixtures].filter(([name]) => name.endsWith('.tf') || (name.endsWith('.hcl') && !name.endsWith('.lock.hcl'))))(
    '%s: accepted by both, with the same providers and modules',
    async (name, text) => {
      expect(await agrees(name.endsWith('.tf') ? name : `${name}.tf`, text)).toBe(true);
    },
  );

  it.each([...corpusFiles, ...fixtures].filter(([name]) => name.endsWith('.terraform.lock.hcl')))(
    '%s: the same locked provider versions',
    async (name, text) => {
      const json = await parse(name, text);
      const reference = Object.entries(json.provider ?? {}).map(
        ([address, blocks]) => `${providerName(address).name} ${instances(blocks)[0]?.version ?? null}`,
      );
      expect(
        readTerraformLock(name, text)
          .map((p) => `${p.name} ${p.version}`)
          .sort(),
      ).toEqual(reference.sort());
    },
  );

  it.each(Object.entries(HCL_SHAPES))('%s: accepted by both, with the same providers and modules', async (_, shape) => {
    expect(await agrees('main.tf', aroundShape(shape))).toBe(true);
  });

  it('accepts every generated expression hcl2json accepts, finding the same declarations', async () => {
    let accepted = 0;
    await fc.assert(
      fc.asyncProperty(hclExpressions.out, async (expression) => {
        if (await agrees('main.tf', aroundExpression(expression))) accepted++;
      }),
      { numRuns: 150 },
    );
    expect(accepted).toBeGreaterThan(100);
  });

  it('accepts every arbitrary text hcl2json accepts, finding the same declarations', async () => {
    const piece = fc.constantFrom(
      ...['terraform', 'required_providers', 'module', 'for', 'in', 'if', 'x', 'a-b', 'é', 'source', 'version', '1'],
      ...['"m"', '"a/b/c"', '"~> 1.0"', `"$\{x}"`, '"%{ if x }y%{ endif }"', `<<EOT\nz $\{"}"}\nEOT\n`],
      ...['=', ':', '?', '{', '}', '[', ']', '(', ')', ',', '...', '=>', '.', '*', '#c\n', '/*c*/', '\n', ' '],
    );
    let accepted = 0;
    await fc.assert(
      fc.asyncProperty(fc.array(piece, { maxLength: 30 }), async (pieces) => {
        if (await agrees('main.tf', pieces.join(''))) accepted++;
      }),
      { numRuns: 1500 },
    );
    expect(accepted).toBeGreaterThan(50);
  });
});
