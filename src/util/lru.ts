/**
 * A map that keeps its most recently used entries: at most `maxEntries`, and at most
 * `maxWeight` of their keys' weight (a key's length by default) — what a per-process cache of
 * computed values (a query's vector, a member's vector) is held in.
 *
 * @module
 */

/**
 * A least-recently-used map bounded by entries and by its keys' weight.
 *
 * @example
 * ```ts
 * const c = new Lru<string, number>(2);
 * c.set("a", 1); c.set("b", 2); c.get("a"); c.set("c", 3);
 * [...c.keys()]; // ["a", "c"]: "b" was the least recently used
 * ```
 */
export class Lru<K, V> {
  readonly #map = new Map<K, V>();
  #weight = 0;

  constructor(
    readonly maxEntries: number,
    readonly maxWeight = Infinity,
    readonly weigh: (key: K) => number = (key) => String(key).length,
  ) {}

  /** The value of `key`, now the most recently used; undefined when it is not kept. */
  get(key: K): V | undefined {
    const v = this.#map.get(key);
    if (v === undefined) return undefined;
    this.#map.delete(key);
    this.#map.set(key, v);
    return v;
  }

  /** Keeps `value` for `key`, the least recently used going first while over a bound. */
  set(key: K, value: V): void {
    if (this.#map.delete(key)) this.#weight -= this.weigh(key);
    const w = this.weigh(key);
    while (
      this.#map.size > 0 &&
      (this.#map.size >= this.maxEntries || this.#weight + w > this.maxWeight)
    ) {
      const oldest = this.#map.keys().next().value as K;
      this.#map.delete(oldest);
      this.#weight -= this.weigh(oldest);
    }
    this.#map.set(key, value);
    this.#weight += w;
  }

  /** The keys kept, least recently used first. */
  keys(): IterableIterator<K> {
    return this.#map.keys();
  }

  /** How many entries are kept. */
  get size(): number {
    return this.#map.size;
  }

  /** Forgets every entry. */
  clear(): void {
    this.#map.clear();
    this.#weight = 0;
  }
}
