/**
 * AMQP 0-9-1 topic matching, as RabbitMQ's topic exchange does it: routing keys and patterns are
 * dot-separated words; in a pattern `*` stands for exactly one word and `#` for zero or more words.
 * `a.#` matches `a`, `a.b` and `a.b.c`; `*.created` matches `repo.created` but not `created` or `a.b.created`.
 * Runs in O(words × pattern words), so patterns like `#.#.#` cannot blow up.
 * @param pattern a binding pattern, e.g. `update_config.*`
 * @param routingKey a concrete routing key, e.g. `update_config.created`
 */
export function topicMatches(pattern: string, routingKey: string): boolean {
  const p = pattern.split('.');
  const k = routingKey.split('.');
  // reachable[j]: the pattern words consumed so far can match the first j key words.
  let reachable: boolean[] = new Array(k.length + 1).fill(false);
  reachable[0] = true;
  for (const word of p) {
    const next: boolean[] = new Array(k.length + 1).fill(false);
    if (word === '#') {
      let seen = false;
      for (let j = 0; j <= k.length; j++) {
        seen ||= reachable[j] === true;
        next[j] = seen;
      }
    } else {
      for (let j = 1; j <= k.length; j++) {
        next[j] = reachable[j - 1] === true && (word === '*' || word === k[j - 1]);
      }
    }
    reachable = next;
  }
  return reachable[k.length] === true;
}

/**
 * Whether `pattern` is a usable binding pattern: non-empty dot-separated words, each `*`, `#`, or
 * made of characters other than `*`, `#` and `.` (RabbitMQ would take `a*b` literally, which is almost
 * always a mistake, so it is refused here).
 */
export function isTopicPattern(pattern: string): boolean {
  if (pattern.length === 0 || pattern.length > 255) return false;
  return pattern.split('.').every((word) => word === '*' || word === '#' || (word.length > 0 && !/[*#]/.test(word)));
}
