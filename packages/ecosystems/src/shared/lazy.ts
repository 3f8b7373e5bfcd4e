/**
 * Wraps `make` so it runs at most once, on the first call, and later calls return its result. Used to parse
 * a lockfile only when a dependency needs its version, and then only once.
 */
export function lazy<T>(make: () => T): () => T {
  let done = false;
  let value: T;
  return () => {
    if (!done) {
      value = make();
      done = true;
    }
    return value;
  };
}
