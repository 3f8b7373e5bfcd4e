/**
 * The soak's randomness, from its seed (`--seed`): what is released, what people do and when the faults come. Each
 * concern draws from a stream of its own ({@link Random.fork}), so a change in what one draws does not move the others.
 * What the system does in between is timing, not randomness: two runs with one seed plan the same world, and the
 * system's own order of work may differ.
 */

/** A seeded source of random choices. */
export interface Random {
  /** A number in [0, 1). */
  next(): number;
  /** A whole number in [min, max] (both included). */
  int(min: number, max: number): number;
  /** True with probability `p` (0 to 1). */
  chance(p: number): boolean;
  /** One of `items` (not empty). @throws RangeError when `items` is empty */
  pick<T>(items: readonly T[]): T;
  /** One of `items` by weight (`[item, weight]`, weights ≥ 0, not all 0). @throws RangeError when no weight is positive */
  weighted<T>(items: readonly (readonly [T, number])[]): T;
  /** A shuffled copy of `items`. */
  shuffle<T>(items: readonly T[]): T[];
  /** An independent stream named `label`, the same for the same seed and label. */
  fork(label: string): Random;
}

/** sfc32 (Chris Doty-Humphrey's small fast counter generator) from four 32-bit words. */
function sfc32(a: number, b: number, c: number, d: number): () => number {
  return () => {
    a >>>= 0;
    b >>>= 0;
    c >>>= 0;
    d >>>= 0;
    let t = (a + b) | 0;
    a = b ^ (b >>> 9);
    b = (c + (c << 3)) | 0;
    c = (c << 21) | (c >>> 11);
    d = (d + 1) | 0;
    t = (t + d) | 0;
    c = (c + t) | 0;
    return (t >>> 0) / 4294967296;
  };
}

/** A 32-bit hash of `text` (FNV-1a), to seed a stream from a label. */
function hash32(text: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return h >>> 0;
}

/**
 * A {@link Random} from `seed` (any whole number; the same seed gives the same choices).
 * @param label the stream's name (forks append theirs)
 */
export function seededRandom(seed: number, label = 'soak'): Random {
  const next = sfc32(seed >>> 0, hash32(label), 0x9e3779b9, (seed / 4294967296) >>> 0);
  for (let i = 0; i < 12; i++) next();
  const random: Random = {
    next,
    int: (min, max) => min + Math.floor(next() * (max - min + 1)),
    chance: (p) => next() < p,
    pick(items) {
      if (items.length === 0) throw new RangeError('pick from an empty list');
      return items[Math.floor(next() * items.length)] as (typeof items)[number];
    },
    weighted(items) {
      const total = items.reduce((sum, [, weight]) => sum + Math.max(0, weight), 0);
      if (!(total > 0)) throw new RangeError('weighted pick without a positive weight');
      let left = next() * total;
      for (const [item, weight] of items) {
        left -= Math.max(0, weight);
        if (left < 0) return item;
      }
      return (items.findLast(([, weight]) => weight > 0) as readonly [(typeof items)[number][0], number])[0];
    },
    shuffle(items) {
      const out = [...items];
      for (let i = out.length - 1; i > 0; i--) {
        const j = Math.floor(next() * (i + 1));
        [out[i], out[j]] = [out[j] as (typeof out)[number], out[i] as (typeof out)[number]];
      }
      return out;
    },
    fork: (name) => seededRandom(seed, `${label}/${name}`),
  };
  return random;
}
