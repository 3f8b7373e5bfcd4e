/**
 * A reader of a files map (path → text) that remembers its last answer for each map object: `findDependency` called once
 * per dependency over the same files (the worker's extract stage, `listDependencies` checks, updates re-reading their
 * result) then parses the manifests once. An answer is reused only while the map holds exactly the same paths and texts
 * (checked entry by entry, which costs a comparison per file), so a map changed in place is read again. Throws are not
 * remembered. The answer is shared: callers must not mutate it.
 */
export function memoByFiles<T>(read: (files: Readonly<Record<string, string>>) => T): (files: Readonly<Record<string, string>>) => T {
  const memo = new WeakMap<object, { entries: [string, string][]; value: T }>();
  return (files) => {
    const entries = Object.entries(files);
    const known = memo.get(files);
    if (
      known &&
      known.entries.length === entries.length &&
      known.entries.every(([path, text], i) => entries[i]?.[0] === path && entries[i]?.[1] === text)
    ) {
      return known.value;
    }
    const value = read(files);
    memo.set(files, { entries, value });
    return value;
  };
}
