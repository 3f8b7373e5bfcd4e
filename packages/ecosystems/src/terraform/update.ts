import { filesOf } from '../shared/files.ts';
import type { Declaration, Located } from '../update/declarations.ts';
import { clauseRewriter, pessimisticKind, type RequirementSyntax } from '../update/rewrite.ts';
import { readTerraformAny } from './terraform-files.ts';
import { terraformVersions } from './versions.ts';

/**
 * Terraform constraints as written (https://developer.hashicorp.com/terraform/language/expressions/version-constraints):
 * comma-separated clauses; a bare version or `=` is a pin, `~>` compatible (the target at the written precision:
 * `~> 5.0` → `~> 6.2`), `<` an upper bound to widen, `<=` an inclusive one, `>`/`>=` lower bounds and `!=` exclusions.
 */
export const terraformSyntax: RequirementSyntax = {
  scheme: terraformVersions,
  operators: '~>|>=|<=|!=|>|<|=',
  version: String.raw`\d+(?:\.\d+){0,2}(?:-[0-9A-Za-z.-]+)?(?:\+[0-9A-Za-z.-]+)?`,
  between: String.raw`[\s,]*`,
  or: null,
  hyphen: false,
  kind: pessimisticKind,
  clauseText: (operator, version) => `${operator} ${version}`,
  join: ', ',
};

const rewrite = clauseRewriter(terraformSyntax);

/**
 * The declarations of `name` (a provider `namespace/type` or module `namespace/name/provider`, any case) in every `*.tf`
 * and `*.tf.json` file: the `version` string of each `required_providers` entry and module block. Declarations without a version are
 * `unchanged`; a non-registry source, a version that is not a plain string literal (an expression, escapes) is `cannot`.
 * @throws ManifestParseError when a `.tf` file does not parse
 */
export function locateTerraform(files: Readonly<Record<string, string>>, name: string): Located {
  const wanted = name.trim().toLowerCase();
  const declarations: Declaration[] = [];
  const unchanged: string[] = [];
  for (const [file, text] of [...filesOf(files, '*.tf'), ...filesOf(files, '*.tf.json')]) {
    for (const declaration of readTerraformAny(file, text)) {
      if (declaration.name !== wanted) continue;
      if (declaration.source !== 'registry') return { cannot: `${file} (${declaration.where}): not a registry source` };
      if (declaration.computedVersion) return { cannot: `${file} (${declaration.where}): the version is not a string literal` };
      const literal = declaration.literal;
      if (literal === undefined || declaration.requirement === null) {
        unchanged.push(`${file} (${declaration.where}): no version constraint`);
        continue;
      }
      if (literal.escaped) return { cannot: `${file} (${declaration.where}): the version string holds escapes` };
      declarations.push({ file, where: declaration.where, parts: [{ start: literal.start, end: literal.end }], rewrite });
    }
  }
  return { declarations, unchanged };
}
