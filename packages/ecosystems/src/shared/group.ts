/**
 * Groups `items` by `keyOf(item)`: a map from key to the items with that key, keys in order of first
 * appearance and items in their original order. Ecosystems use it to gather a package's declarations
 * by normalised name, e.g. `groupBy(gems, (g) => g.name.toLowerCase())`.
 */
export function groupBy<T>(items: readonly T[], keyOf: (item: T) => string): Map<string, T[]> {
  const groups = new Map<string, T[]>();
  for (const item of items) {
    const key = keyOf(item);
    const group = groups.get(key);
    if (group) group.push(item);
    else groups.set(key, [item]);
  }
  return groups;
}
