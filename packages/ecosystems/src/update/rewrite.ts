import type { VersionScheme } from '../ecosystem.ts';

/**
 * Rewriting one requirement so that it allows a target version, after Dependabot's requirements updaters
 * (https://github.com/dependabot/dependabot-core, `<ecosystem>/lib/dependabot/<ecosystem>/update_checker/requirements_updater.rb`,
 * strategy "bump versions if necessary"). Only version tokens are replaced (or one `||` alternative appended),
 * so operators, spacing, `v` prefixes and stability flags stay as written.
 */

/**
 * The clause kinds of the syntaxes whose `~>` is the compatible ("pessimistic") operator: RubyGems, Elixir (Hex) and
 * Terraform. A bare version, `=` and `==` are exact; `<` and `<=` upper bounds; `!=` an exclusion; `>` and `>=` lower bounds.
 */
export function pessimisticKind(operator: string): ClauseKind {
  if (operator === '' || operator === '=' || operator === '==') return 'exact';
  if (operator === '~>') return 'compatible';
  if (operator === '<') return 'upper';
  if (operator === '<=') return 'upperInclusive';
  return operator === '!=' ? 'not' : 'lower';
}

/** The outcome for one requirement: its new parts, or why it stays, or why it cannot be rewritten. */
export type Rewrite = { parts: string[] } | { unchanged: string } | { cannot: string };

/**
 * Rewrites a requirement given as its parts as written (one part, or one per Gemfile string literal) for a
 * target version; see {@link clauseRewriter}.
 */
export type RequirementRewriter = (parts: readonly string[], target: string) => Rewrite;

/** What a clause's operator means for the rewrite. */
export type ClauseKind = 'exact' | 'compatible' | 'upper' | 'upperInclusive' | 'lower' | 'not';

/** How one ecosystem writes requirements, for {@link clauseRewriter}. */
export interface RequirementSyntax {
  scheme: VersionScheme;
  /** Operators, longest first, as a regex alternation source, e.g. `<=|>=|<|>|=|\\^|~`. */
  operators: string;
  /** A version token (after any `v` prefix the syntax keeps outside it), as a regex source. */
  version: string;
  /** A regex source for the text allowed between clauses (separators, stability flags), e.g. `[\\s,]*`. */
  between: string;
  /** The `||` separator as a regex source, or null when the syntax has no alternatives. */
  or: string | null;
  /** Does the syntax read `a - b` as an inclusive range (npm, Composer)? */
  hyphen: boolean;
  kind(operator: string, version: string): ClauseKind;
  /** One clause written alone so that `scheme.satisfies` reads it, e.g. `>= 1.2` for RubyGems. */
  clauseText(operator: string, version: string): string;
  /** How a part joins the next in the requirement `scheme.satisfies` reads (`, ` for Gemfile literals). */
  join: string;
}

interface Clause {
  operator: string;
  version: string;
  /** Span of the version token in its part. */
  start: number;
  end: number;
  part: number;
}

const isWildcard = (segment: string) => /^[*xX]$/.test(segment);

/**
 * `target` written with the precision of `old` (Dependabot's `at_same_precision`): as many dot segments as
 * `old` has, wildcards kept where `old` has them (`1.2` → `2.0`, `1.x` → `2.x`, `1.2.*` → `1.3.*`), padded with
 * zeros. The whole target when either version carries a pre-release or other non-numeric part in the segments kept.
 */
export function atSamePrecision(old: string, target: string): string {
  const plain = (segment: string) => /^\d+$/.test(segment) || isWildcard(segment);
  const oldSegments = old.split('.');
  if (!oldSegments.every(plain)) return target;
  const targetSegments = target.split('.');
  const kept = oldSegments.map((segment, i) => (isWildcard(segment) ? segment : (targetSegments[i] ?? '0')));
  return kept.every(plain) ? kept.join('.') : target;
}

/**
 * A new exclusive upper bound that admits `target` (Dependabot's `update_greatest_version`): the last non-zero
 * segment of `bound` is the one to move; segments before it take the target's, it takes the target's + 1,
 * later ones become 0, keeping `bound`'s segment count: (`2`, 2.3.1) → `3`; (`1.5`, 1.7.2) → `1.8`;
 * (`2.0.0`, 3.1.0) → `4.0.0`. Null when `bound` or the target's leading segments are not plain numbers.
 */
export function widenedUpperBound(bound: string, target: string): string | null {
  const segments = bound.split('.');
  if (!segments.every((s) => /^\d+$/.test(s))) return null;
  const targetSegments = target.split(/[.+-]/);
  const index = Math.max(0, ...segments.map((s, i) => (Number(s) === 0 ? 0 : i)));
  const out: string[] = [];
  for (let i = 0; i < segments.length; i++) {
    const t = targetSegments[i] ?? '0';
    if (i < index) {
      if (!/^\d+$/.test(t)) return null;
      out.push(t);
    } else if (i === index) {
      const n = /^\d+/.exec(t)?.[0];
      if (n === undefined) return null;
      out.push(String(Number(n) + 1));
    } else out.push('0');
  }
  return out.join('.');
}

/** Does the scheme say `target` satisfies `requirement`? An unreadable requirement does not. */
export function allows(scheme: VersionScheme, target: string, requirement: string): boolean {
  try {
    return scheme.satisfies(target, requirement);
  } catch {
    return false;
  }
}

/** The longest part of a requirement (in UTF-16 units) {@link clauseRewriter} reads. */
const MAX_PART_LENGTH = 512;

/** The clauses of one part, or null when text outside the clauses is not what `between` allows. */
function clausesOf(syntax: RequirementSyntax, text: string, part: number): Clause[] | null {
  const pattern = new RegExp(`(${syntax.operators})?\\s*(${syntax.version})`, 'g');
  const between = new RegExp(`^(?:${syntax.between})$`);
  const out: Clause[] = [];
  let last = 0;
  for (const match of text.matchAll(pattern)) {
    if (!between.test(text.slice(last, match.index))) return null;
    const version = match[2] ?? '';
    const end = match.index + match[0].length;
    out.push({ operator: match[1] ?? '', version, start: end - version.length, end, part });
    last = end;
  }
  return between.test(text.slice(last)) ? out : null;
}

/** Replaces spans of `text` (non-overlapping) with new text. */
function replaceSpans(text: string, edits: readonly { start: number; end: number; text: string }[]): string {
  let out = text;
  for (const edit of [...edits].sort((a, b) => b.start - a.start)) out = out.slice(0, edit.start) + edit.text + out.slice(edit.end);
  return out;
}

/** Rewrites one `and` of clauses (all in `parts`) so that it allows `target`; the edits by part. */
function rewriteClauses(syntax: RequirementSyntax, parts: readonly string[], clauses: readonly Clause[], target: string): Rewrite {
  const edits: { part: number; start: number; end: number; text: string }[] = [];
  const pre = syntax.scheme.isPrerelease(target);
  for (const clause of clauses) {
    const kind = syntax.kind(clause.operator, clause.version);
    if (allows(syntax.scheme, target, syntax.clauseText(clause.operator, clause.version))) continue;
    let replacement: string | null;
    switch (kind) {
      case 'exact':
        replacement = target;
        break;
      case 'compatible':
        replacement = pre ? target : atSamePrecision(clause.version, target);
        break;
      case 'upper':
        replacement = widenedUpperBound(clause.version, target);
        break;
      case 'upperInclusive':
        replacement = target;
        break;
      default:
        return {
          cannot: `'${clause.operator}${clause.version}' excludes ${target}, and ${kind === 'not' ? 'an exclusion' : 'a lower bound'} is not moved`,
        };
    }
    if (replacement === null) return { cannot: `upper bound '${clause.version}' cannot be widened to admit ${target}` };
    edits.push({ part: clause.part, start: clause.start, end: clause.end, text: replacement });
  }
  const out = parts.map((text, i) =>
    replaceSpans(
      text,
      edits.filter((e) => e.part === i),
    ),
  );
  return { parts: out };
}

/**
 * The {@link RequirementRewriter} of a syntax, for a requirement that does not already allow the target:
 * - exact clauses (`=1.2.3`, `==1.2.3`, a bare pinned version) become the target;
 * - compatible clauses (`^`, `~`, `~>`, `~=`, wildcards, partial versions) take the target at their precision
 *   (the whole target when it is a pre-release);
 * - an exclusive upper bound (`<2`) is widened by {@link widenedUpperBound}, an inclusive one becomes the target;
 * - clauses the target already satisfies stay; a lower bound or exclusion that excludes it makes the rewrite fail;
 * - with `||` alternatives none of which allows the target, a new alternative, the last one rewritten, is
 *   appended with the separator as written (`^5.4 || ^6.0` → `^5.4 || ^6.0 || ^7.0`);
 * - a hyphen range `a - b` moves its upper end like an inclusive bound.
 * The result is checked with `scheme.satisfies`; a requirement it cannot read, or a rewrite that still does not
 * allow the target, gives `cannot`. `unchanged` when the requirement already allows the target (for an exact pin:
 * it is the target). A part longer than {@link MAX_PART_LENGTH} characters gives `cannot` before anything reads it
 * (the clause patterns would backtrack on long blank runs).
 */
export function clauseRewriter(syntax: RequirementSyntax): RequirementRewriter {
  const rewriteAnd = (parts: readonly string[], target: string): Rewrite => {
    const clauses: Clause[] = [];
    for (const [i, text] of parts.entries()) {
      const hyphen = syntax.hyphen ? new RegExp(`^\\s*(?:${syntax.version})\\s+-\\s+(${syntax.version})\\s*$`).exec(text) : null;
      if (hyphen?.[1]) {
        const upper = hyphen[1];
        const end = text.trimEnd().length;
        clauses.push({ operator: '<=', version: upper, start: end - upper.length, end, part: i });
        continue;
      }
      const found = clausesOf(syntax, text, i);
      if (found === null || found.length === 0)
        return { cannot: `requirement '${parts.join(syntax.join)}' is not in a form that is rewritten` };
      clauses.push(...found);
    }
    return rewriteClauses(syntax, parts, clauses, target);
  };
  return (parts, target) => {
    if (parts.some((part) => part.length > MAX_PART_LENGTH)) return { cannot: 'the requirement is too long to rewrite' };
    const requirement = parts.join(syntax.join);
    if (allows(syntax.scheme, target, requirement)) return { unchanged: `'${requirement.trim()}' already allows ${target}` };
    let result: Rewrite;
    const separators = syntax.or === null ? [] : [...requirement.matchAll(new RegExp(`\\s*(?:${syntax.or})\\s*`, 'g'))];
    const last = separators.at(-1);
    if (last && parts.length === 1) {
      const tail = requirement.slice(last.index + last[0].length);
      const rewritten = rewriteAnd([tail.trimEnd()], target);
      if (!('parts' in rewritten)) return rewritten;
      const trailing = requirement.slice(requirement.trimEnd().length);
      result = { parts: [`${requirement.trimEnd()}${last[0]}${rewritten.parts[0]}${trailing}`] };
    } else {
      result = rewriteAnd(parts, target);
    }
    if (!('parts' in result)) return result;
    const rewritten = result.parts.join(syntax.join);
    if (!allows(syntax.scheme, target, rewritten))
      return { cannot: `rewriting '${requirement.trim()}' as '${rewritten.trim()}' still does not allow ${target}` };
    return result;
  };
}
