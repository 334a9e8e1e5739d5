/**
 * A bounded in-memory cache whose entries each expire at their own time: reading an expired
 * entry deletes it, and past `maxEntries` the least recently used entry goes. A `Map` keeps
 * insertion order, so moving a hit to the end keeps the oldest first.
 *
 * Small on purpose: `lru-cache` would be one more dependency for every user of a portable entry,
 * and its Node build loads `node:diagnostics_channel`.
 */
export class ExpiringCache<V> {
  readonly #entries = new Map<string, { readonly value: V; readonly expires: number }>();
  readonly #maxEntries: number;

  /** @param maxEntries - how many entries it keeps at most; 0 keeps none. */
  constructor(maxEntries: number) {
    this.#maxEntries = maxEntries;
  }

  /** How many entries it holds, expired ones not yet read included. */
  get size(): number {
    return this.#entries.size;
  }

  /** The value under `key` if it has not expired by `now` (milliseconds since the epoch). */
  get(key: string, now: number): V | undefined {
    const entry = this.#entries.get(key);
    if (entry === undefined) return undefined;
    this.#entries.delete(key);
    if (entry.expires <= now) return undefined;
    this.#entries.set(key, entry);
    return entry.value;
  }

  /** Keeps `value` under `key` until `expires`; one already expired by `now` is not kept. */
  set(key: string, value: V, expires: number, now: number): void {
    this.#entries.delete(key);
    if (expires <= now || this.#maxEntries === 0) return;
    this.#entries.set(key, { value, expires });
    if (this.#entries.size > this.#maxEntries) {
      const oldest = this.#entries.keys().next();
      if (oldest.done !== true) this.#entries.delete(oldest.value);
    }
  }
}
