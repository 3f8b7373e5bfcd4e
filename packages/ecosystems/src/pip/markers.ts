import * as pep440 from '@renovatebot/pep440';

/**
 * PEP 508 environment markers (https://peps.python.org/pep-0508/#environment-markers): `python_version < "3.8"`,
 * `sys_platform == "win32" and (python_version >= "3.9" or extra == "fast")`. Only the Python version is known here (the
 * project's, {@link ProjectPythonVersion}); the other variables are not evaluated.
 */

/** The Python a marker is evaluated with: PEP 508's `python_version` (`3.12`) and `python_full_version` (`3.12.11`). */
export interface MarkerPython {
  python_version: string;
  python_full_version: string;
}

/** A marker's syntax tree: `and`/`or` of comparisons between a variable and a string (either side). */
export type MarkerNode =
  | { kind: 'and' | 'or'; left: MarkerNode; right: MarkerNode }
  | { kind: 'compare'; left: MarkerValue; op: string; right: MarkerValue };

/** One side of a marker comparison: an environment variable (`python_version`) or a quoted string. */
export type MarkerValue = { variable: string } | { string: string };

const TOKEN = /\s*(?:(\(|\))|('[^']*'|"[^"]*")|(===|==|!=|<=|>=|~=|<|>)|(not\s+in\b|in\b|and\b|or\b)|([A-Za-z_][A-Za-z0-9_.]*))/y;

type Token = { kind: 'paren' | 'string' | 'op' | 'word' | 'name'; text: string };

function tokenize(marker: string): Token[] | undefined {
  const out: Token[] = [];
  TOKEN.lastIndex = 0;
  // Up to the trailing white space, found once (testing the rest of the marker before each token was quadratic).
  const end = marker.trimEnd().length;
  while (TOKEN.lastIndex < end) {
    const match = TOKEN.exec(marker);
    if (!match) return undefined;
    if (match[1]) out.push({ kind: 'paren', text: match[1] });
    else if (match[2]) out.push({ kind: 'string', text: match[2].slice(1, -1) });
    else if (match[3]) out.push({ kind: 'op', text: match[3] });
    else if (match[4]) out.push({ kind: 'word', text: match[4].replace(/\s+/, ' ') });
    else if (match[5]) out.push({ kind: 'name', text: match[5] });
  }
  return out;
}

/**
 * Parses a marker by PEP 508's grammar (`marker_or`, `marker_and`, `marker_expr` with parentheses; `and` binds tighter
 * than `or`; operators `<`, `<=`, `!=`, `==`, `>=`, `>`, `~=`, `===`, `in`, `not in`). Undefined when the text is not
 * one (pip rejects such a line with `InvalidMarker`).
 */
export function parseMarker(marker: string): MarkerNode | undefined {
  const tokens = tokenize(marker);
  if (!tokens || tokens.length === 0) return undefined;
  let at = 0;
  const value = (): MarkerValue | undefined => {
    const token = tokens[at];
    if (token?.kind === 'string') {
      at++;
      return { string: token.text };
    }
    if (token?.kind === 'name') {
      at++;
      return { variable: token.text };
    }
    return undefined;
  };
  const expression = (): MarkerNode | undefined => {
    if (tokens[at]?.text === '(') {
      at++;
      const inner = or();
      if (!inner || tokens[at]?.text !== ')') return undefined;
      at++;
      return inner;
    }
    const left = value();
    const op = tokens[at];
    if (!left || !op || !(op.kind === 'op' || op.text === 'in' || op.text === 'not in')) return undefined;
    at++;
    const right = value();
    return right && { kind: 'compare', left, op: op.text, right };
  };
  const chain = (kind: 'and' | 'or', operand: () => MarkerNode | undefined) => (): MarkerNode | undefined => {
    let node = operand();
    while (node && tokens[at]?.text === kind) {
      at++;
      const right = operand();
      node = right && { kind, left: node, right };
    }
    return node;
  };
  const and = chain('and', expression);
  const or = chain('or', and);
  const tree = or();
  return tree && at === tokens.length ? tree : undefined;
}

/** Python's string comparisons, which PEP 508 falls back to when the right side is not a PEP 440 specifier. */
const STRING_OPS: Record<string, (a: string, b: string) => boolean> = {
  '==': (a, b) => a === b,
  '!=': (a, b) => a !== b,
  '<': (a, b) => a < b,
  '<=': (a, b) => a <= b,
  '>': (a, b) => a > b,
  '>=': (a, b) => a >= b,
};

/**
 * One comparison of a Python version variable with a string, as `packaging.markers` evaluates it
 * (https://github.com/pypa/packaging, `markers.py` `_eval_op`): `in`/`not in` are substring tests; otherwise the operator
 * and the right side form a PEP 440 specifier that must contain the left side (`python_version < "3.8"`:
 * `Specifier("<3.8").contains("3.12")`; `"3.8" < python_version`: `Specifier("<3.12").contains("3.8")`), and when they
 * do not form one, the strings are compared. Undefined when neither applies (packaging's `UndefinedComparison`).
 */
function compare(left: string, op: string, right: string): boolean | undefined {
  if (op === 'in') return right.includes(left);
  if (op === 'not in') return !right.includes(left);
  const specifier = `${op}${right}`;
  if (pep440.valid(left) && pep440.validRange(specifier)) {
    try {
      return pep440.satisfies(left, specifier, { prereleases: true });
    } catch {
      // fall through to the string comparison
    }
  }
  return STRING_OPS[op]?.(left, right);
}

/**
 * Evaluates a marker for `python` with three values: a comparison of `python_version` or `python_full_version` with a
 * string is true or false; any other comparison (`sys_platform`, `platform_machine`, `implementation_name`, `extra`, …)
 * is unknown (undefined), and `and`/`or` combine them as Kleene's logic does (false `and` unknown is false, true `or`
 * unknown is true). So false means the marker excludes that Python whatever the other variables are.
 */
export function evaluateMarker(node: MarkerNode, python: MarkerPython): boolean | undefined {
  if (node.kind === 'compare') {
    const resolve = (value: MarkerValue) =>
      'string' in value ? value.string : value.variable in python ? python[value.variable as keyof MarkerPython] : undefined;
    const variables = [node.left, node.right].filter((v) => 'variable' in v);
    if (variables.length !== 1) return undefined;
    const left = resolve(node.left);
    const right = resolve(node.right);
    return left === undefined || right === undefined ? undefined : compare(left, node.op, right);
  }
  const left = evaluateMarker(node.left, python);
  const right = evaluateMarker(node.right, python);
  if (node.kind === 'and') return left === false || right === false ? false : left === true && right === true ? true : undefined;
  return left === true || right === true ? true : left === false && right === false ? false : undefined;
}

/** Does the marker name the Python version (`python_version`, `python_full_version`)? */
export function namesPythonVersion(marker: string): boolean {
  return /\bpython_(?:full_)?version\b/.test(marker);
}

/**
 * Why a requirements-file line is skipped for its marker, after dependabot-core's Python file parser
 * (https://github.com/dependabot/dependabot-core, `python/lib/dependabot/python/file_parser.rb`, `blocking_marker?` and
 * `marker_satisfied?`: "If a requirement has a `<`, `<=` or '==' marker then updating it is probably blocked"), or
 * undefined when it counts:
 * - a marker naming `python_version` or `python_full_version` is evaluated for the project's Python ({@link evaluateMarker});
 *   the line is skipped when the marker is false for it whatever the other variables are. Dependabot read only the first
 *   comparison of the marker with a number (`marker_satisfied?`), compared it with the full version (`python_version ==
 *   "3.12"` was false for 3.12.11) and sent `python_full_version` markers to the rule below; PEP 508's semantics are
 *   applied here instead. Without a known Python (`python` null) or a marker that does not parse, the line counts;
 * - any other marker (`sys_platform`, `platform_machine`, `implementation_name`, `extra`, …) is not evaluated, as
 *   Dependabot did not: the line is skipped when the marker's text holds `<`, counts when it holds `>`, and otherwise is
 *   skipped when the requirement's specifier holds `<` (`foo<2 ; sys_platform == "win32"`).
 */
export function blockingMarker(
  marker: string | null,
  specifier: string | null,
  python: (MarkerPython & { describe: string }) | null,
): string | undefined {
  if (marker === null || marker.trim() === '') return undefined;
  if (namesPythonVersion(marker)) {
    const tree = python && parseMarker(marker);
    if (!python || !tree || evaluateMarker(tree, python) !== false) return undefined;
    return `${marker} excludes the project's Python ${python.describe}`;
  }
  if (marker.includes('<')) return `the marker ${marker} holds '<' (Dependabot's blocking_marker?: an update is probably blocked)`;
  if (marker.includes('>')) return undefined;
  if (specifier?.includes('<'))
    return `the specifier ${specifier} holds '<' under the marker ${marker} (Dependabot's blocking_marker?: an update is probably blocked)`;
  return undefined;
}

/**
 * Why a PEP 621/735 string of pyproject.toml or a setup.py / setup.cfg requirement is skipped for its marker, or
 * undefined when it counts: dependabot-core's `PyprojectFilesParser` (PEP 621/735 dependencies) and `SetupFileParser`
 * skipped every requirement whose marker holds `<` ("If a requirement has a `<` or `<=` marker then updating it is
 * probably blocked. Ignore it."), whatever the Python version; they evaluated nothing else.
 */
export function lessThanMarker(marker: string | null): string | undefined {
  if (marker === null || !marker.includes('<')) return undefined;
  return `the marker ${marker} holds '<' (Dependabot skipped such requirements: an update is probably blocked)`;
}
