import type { RequirementStrategy, VersionScheme } from '../ecosystem.ts';

/**
 * Rewriting one requirement so that it allows a target version, after Dependabot's requirements updaters
 * (https://github.com/dependabot/dependabot-core, `<ecosystem>/lib/dependabot/<ecosystem>/update_checker/requirements_updater.rb`)
 * and their strategies (see {@link RequirementStrategy}). Only clauses are replaced (or one `||` alternative appended),
 * so spacing, `v` prefixes and stability flags stay as written.
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
 * target version, by `strategy` (`increase-if-necessary` when not given; rewriters of syntaxes without ranges ignore
 * it); see {@link clauseRewriter}.
 */
export type RequirementRewriter = (parts: readonly string[], target: string, strategy?: RequirementStrategy) => Rewrite;

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
  /**
   * What `widen` writes between a requirement without alternatives and the alternative it appends (` || ` for npm and
   * Composer, ` or ` for Elixir); absent when widening does not append alternatives in this syntax.
   */
  orSeparator?: string;
  /**
   * A range `>= lower` and `< upper` written as one clause's replacement (PEP 440 `>=2.2,<5.0`, Cargo `>=1.2, <3.0`),
   * which `widen` puts in place of a compatible clause when {@link orSeparator} is absent; absent when a clause cannot
   * be replaced by two (a Gemfile's literal holds one clause): `widen` then moves the clause as `increase-if-necessary` does.
   */
  range?(lower: string, upper: string): string;
}

interface Clause {
  operator: string;
  version: string;
  /** Where the clause (its operator) starts in its part. */
  clauseStart: number;
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
    const clauseStart = match.index + match[0].length - match[0].trimStart().length;
    out.push({ operator: match[1] ?? '', version, clauseStart, start: end - version.length, end, part });
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

/**
 * The exclusive upper bound of a compatible clause, written with as many segments as its version's release has: the
 * smallest version made by bumping one release segment (the later ones zero) that the clause does not allow, as the
 * scheme reads it (`^1.2.3` → `2.0.0`, `^0.2.3` → `0.3.0`, `~=2.2` → `3.0`, `~=2.2.0` → `2.3.0`, `==2.2.*` → `2.3`,
 * `~> 6.0` → `7.0`, Cargo's `1.2` → `2.0`). Dependabot derives the same bound operator by operator (`convert_to_range`
 * of the Python updater, `convert_twiddle_to_range` of Bundler's). Null when the version has no release segments, a
 * probe is not a version of the scheme, or every bump is allowed.
 */
function compatibleCeiling(syntax: RequirementSyntax, clause: Clause): string | null {
  const release = /^\d+(?:\.\d+)*/.exec(clause.version)?.[0];
  if (release === undefined) return null;
  const segments = release.split('.').map(Number);
  const text = syntax.clauseText(clause.operator, clause.version);
  for (let i = segments.length - 1; i >= 0; i--) {
    const bumped = segments.map((n, j) => (j < i ? n : j === i ? n + 1 : 0));
    const probe = [...bumped, 0, 0].slice(0, Math.max(3, bumped.length)).join('.');
    if (!syntax.scheme.isValid(probe)) return null;
    if (!allows(syntax.scheme, probe, text)) return bumped.join('.');
  }
  return null;
}

/** A compatible clause's version without its wildcard segments (`2.2.*` → `2.2`), the lower bound of the range it stands for. */
const lowerOf = (version: string) =>
  version
    .split('.')
    .filter((segment) => !isWildcard(segment))
    .join('.');

/** One clause's new text under `strategy`, the offset it starts at, or why it cannot move; null when it stays. */
function rewriteClause(
  syntax: RequirementSyntax,
  clause: Clause,
  target: string,
  strategy: RequirementStrategy,
): { start: number; text: string } | { cannot: string } | null {
  const kind = syntax.kind(clause.operator, clause.version);
  const compatible = () => (syntax.scheme.isPrerelease(target) ? target : atSamePrecision(clause.version, target));
  const moved = (text: string | null) => (text === null || text === clause.version ? null : { start: clause.start, text });
  if (allows(syntax.scheme, target, syntax.clauseText(clause.operator, clause.version))) {
    if (strategy !== 'increase') return null;
    // Increase raises what the target already satisfies too: compatible clauses and inclusive lower bounds.
    if (kind === 'compatible') return moved(compatible());
    const op = clause.operator.replace(/[\svV]/g, '');
    return kind === 'lower' && (op === '>=' || op === '=>') ? moved(target) : null;
  }
  switch (kind) {
    case 'exact':
    case 'upperInclusive':
      return { start: clause.start, text: target };
    case 'compatible': {
      if (strategy !== 'widen' || !syntax.range || syntax.orSeparator !== undefined) return { start: clause.start, text: compatible() };
      const ceiling = compatibleCeiling(syntax, clause);
      const upper = ceiling === null ? null : widenedUpperBound(ceiling, target);
      if (upper === null) return { cannot: `'${clause.operator}${clause.version}' cannot be widened to admit ${target}` };
      return { start: clause.clauseStart, text: syntax.range(lowerOf(clause.version), upper) };
    }
    case 'upper': {
      const bound = widenedUpperBound(clause.version, target);
      return bound === null
        ? { cannot: `upper bound '${clause.version}' cannot be widened to admit ${target}` }
        : { start: clause.start, text: bound };
    }
    default:
      return {
        cannot: `'${clause.operator}${clause.version}' excludes ${target}, and ${kind === 'not' ? 'an exclusion' : 'a lower bound'} is not moved`,
      };
  }
}

/** Rewrites one `and` of clauses (all in `parts`) so that it allows `target` by `strategy`; the edits by part. */
function rewriteClauses(
  syntax: RequirementSyntax,
  parts: readonly string[],
  clauses: readonly Clause[],
  target: string,
  strategy: RequirementStrategy,
): Rewrite {
  const edits: { part: number; start: number; end: number; text: string }[] = [];
  for (const clause of clauses) {
    const rewritten = rewriteClause(syntax, clause, target, strategy);
    if (rewritten === null) continue;
    if ('cannot' in rewritten) return rewritten;
    edits.push({ part: clause.part, start: rewritten.start, end: clause.end, text: rewritten.text });
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
 * The {@link RequirementRewriter} of a syntax, for a requirement that does not already allow the target (a
 * requirement that does is `unchanged`, whatever the strategy; for an exact pin: it is the target):
 * - exact clauses (`=1.2.3`, `==1.2.3`, a bare pinned version) become the target;
 * - compatible clauses (`^`, `~`, `~>`, `~=`, wildcards, partial versions) take the target at their precision
 *   (the whole target when it is a pre-release); with `widen`, a syntax with {@link RequirementSyntax.orSeparator}
 *   keeps the requirement and appends the rewritten one as an alternative (`^1.2.3` → `^1.2.3 || ^2.0.1`) unless it
 *   has an upper bound, and a syntax with {@link RequirementSyntax.range} writes the clause as a range from its version
 *   to its ceiling ({@link compatibleCeiling}) widened for the target (`~=2.2` → `>=2.2,<5.0` for 4.2.16);
 * - an exclusive upper bound (`<2`) is widened by {@link widenedUpperBound}, an inclusive one becomes the target;
 * - with `increase`, inclusive lower bounds (`>=`) become the target and compatible clauses move to it even where they
 *   allow it (`>=2.2,<3.0` → `>=4.2.16,<5.0`); otherwise clauses the target already satisfies stay;
 * - a lower bound or exclusion that excludes the target makes the rewrite fail;
 * - with `||` alternatives none of which allows the target, a new alternative, the last one rewritten, is appended
 *   with the separator as written (`^5.4 || ^6.0` → `^5.4 || ^6.0 || ^7.0`); with `increase` the last one rewritten
 *   replaces them all (`^5.4 || ^6.0` → `^7.0`), as Dependabot's npm and Composer updaters bump an application's;
 * - a hyphen range `a - b` moves its upper end like an inclusive bound.
 * The result is checked with `scheme.satisfies`; a requirement it cannot read, or a rewrite that still does not
 * allow the target, gives `cannot`. A part longer than {@link MAX_PART_LENGTH} characters gives `cannot` before
 * anything reads it (the clause patterns would backtrack on long blank runs).
 */
export function clauseRewriter(syntax: RequirementSyntax): RequirementRewriter {
  const clausesOfAnd = (parts: readonly string[]): Clause[] | null => {
    const clauses: Clause[] = [];
    for (const [i, text] of parts.entries()) {
      const hyphen = syntax.hyphen ? new RegExp(`^\\s*(?:${syntax.version})\\s+-\\s+(${syntax.version})\\s*$`).exec(text) : null;
      if (hyphen?.[1]) {
        const upper = hyphen[1];
        const end = text.trimEnd().length;
        clauses.push({ operator: '<=', version: upper, clauseStart: end - upper.length, start: end - upper.length, end, part: i });
        continue;
      }
      const found = clausesOf(syntax, text, i);
      if (found === null || found.length === 0) return null;
      clauses.push(...found);
    }
    return clauses;
  };
  const rewriteAnd = (parts: readonly string[], target: string, strategy: RequirementStrategy): Rewrite => {
    const clauses = clausesOfAnd(parts);
    if (clauses === null) return { cannot: `requirement '${parts.join(syntax.join)}' is not in a form that is rewritten` };
    return rewriteClauses(syntax, parts, clauses, target, strategy);
  };
  /** Does `widen` append an alternative to this requirement (a compatible clause excludes the target, no upper bound)? */
  const appendsAlternative = (requirement: string, target: string): boolean => {
    const clauses = clausesOfAnd([requirement]) ?? [];
    const kinds = clauses.map((c) => ({ c, kind: syntax.kind(c.operator, c.version) }));
    return (
      !kinds.some(({ kind }) => kind === 'upper' || kind === 'upperInclusive') &&
      kinds.some(({ c, kind }) => kind === 'compatible' && !allows(syntax.scheme, target, syntax.clauseText(c.operator, c.version)))
    );
  };
  return (parts, target, strategy = 'increase-if-necessary') => {
    if (parts.some((part) => part.length > MAX_PART_LENGTH)) return { cannot: 'the requirement is too long to rewrite' };
    const requirement = parts.join(syntax.join);
    if (allows(syntax.scheme, target, requirement)) return { unchanged: `'${requirement.trim()}' already allows ${target}` };
    let result: Rewrite;
    const separators = syntax.or === null ? [] : [...requirement.matchAll(new RegExp(`\\s*(?:${syntax.or})\\s*`, 'g'))];
    const last = separators.at(-1);
    const leading = requirement.slice(0, requirement.length - requirement.trimStart().length);
    const trailing = requirement.slice(requirement.trimEnd().length);
    if (last && parts.length === 1) {
      const tail = requirement.slice(last.index + last[0].length);
      const rewritten = rewriteAnd([tail.trimEnd()], target, strategy === 'increase' ? 'increase' : 'increase-if-necessary');
      if (!('parts' in rewritten)) return rewritten;
      result = {
        parts: [
          strategy === 'increase'
            ? `${leading}${rewritten.parts[0]}${trailing}`
            : `${requirement.trimEnd()}${last[0]}${rewritten.parts[0]}${trailing}`,
        ],
      };
    } else if (strategy === 'widen' && syntax.orSeparator !== undefined && parts.length === 1 && appendsAlternative(requirement, target)) {
      const rewritten = rewriteAnd([requirement.trim()], target, 'increase-if-necessary');
      if (!('parts' in rewritten)) return rewritten;
      result = { parts: [`${requirement.trimEnd()}${syntax.orSeparator}${rewritten.parts[0]}${trailing}`] };
    } else {
      result = rewriteAnd(parts, target, strategy);
    }
    if (!('parts' in result)) return result;
    const rewritten = result.parts.join(syntax.join);
    if (!allows(syntax.scheme, target, rewritten))
      return { cannot: `rewriting '${requirement.trim()}' as '${rewritten.trim()}' still does not allow ${target}` };
    return result;
  };
}
