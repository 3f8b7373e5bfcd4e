/**
 * PEP 503 name normalisation (https://peps.python.org/pep-0503/#normalized-names): lowercase, and every run
 * of `-`, `_` and `.` becomes one `-`. `Django`, `zope.interface` and `typing_extensions` become `django`,
 * `zope-interface`, `typing-extensions`.
 */
export function normalisePythonName(name: string): string {
  return name
    .trim()
    .toLowerCase()
    .replace(/[-_.]+/g, '-');
}
