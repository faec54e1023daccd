/**
 * Standing votes by slot index, persistent: `with` returns a new book and leaves this one
 * as it was, so a fold can still be stopped, replayed or forked. A Map copied on every
 * vote made a Day of n votes among n players cost n² (3,000 players: most of the live
 * page's time); here a vote copies one chunk of 32 slots and the list of chunks, about
 * √n-sized work for any roster a game has. Iterates in slot order.
 */
const BITS = 5;
const CHUNK = 1 << BITS;
const MASK = CHUNK - 1;

type Chunk<V> = readonly (V | undefined)[];

export class VoteBook<V> implements ReadonlyMap<number, V> {
  static empty<V>(): VoteBook<V> {
    return new VoteBook<V>([], 0);
  }

  private constructor(
    private readonly chunks: readonly (Chunk<V> | undefined)[],
    readonly size: number,
  ) {}

  get(slot: number): V | undefined {
    return this.chunks[slot >> BITS]?.[slot & MASK];
  }

  has(slot: number): boolean {
    return this.get(slot) !== undefined;
  }

  /** This book with `slot`'s vote set (`undefined`: removed). */
  with(slot: number, value: V | undefined): VoteBook<V> {
    if (!Number.isInteger(slot) || slot < 0) throw new RangeError(`not a slot index: ${slot}`);
    const old = this.get(slot);
    if (old === value) return this;
    const c = slot >> BITS;
    const chunk = (this.chunks[c] ?? []).slice();
    chunk[slot & MASK] = value;
    const chunks = this.chunks.slice();
    chunks[c] = chunk;
    return new VoteBook(chunks, this.size + (old === undefined ? 1 : 0) - (value === undefined ? 1 : 0));
  }

  *entries(): MapIterator<[number, V]> {
    for (let c = 0; c < this.chunks.length; c++) {
      const chunk = this.chunks[c];
      if (!chunk) continue;
      for (let i = 0; i < chunk.length; i++) {
        const v = chunk[i];
        if (v !== undefined) yield [(c << BITS) + i, v];
      }
    }
  }

  *keys(): MapIterator<number> {
    for (const [k] of this.entries()) yield k;
  }

  *values(): MapIterator<V> {
    for (const [, v] of this.entries()) yield v;
  }

  [Symbol.iterator](): MapIterator<[number, V]> {
    return this.entries();
  }

  forEach(fn: (value: V, key: number, map: ReadonlyMap<number, V>) => void, thisArg?: unknown): void {
    for (const [k, v] of this.entries()) fn.call(thisArg, v, k, this);
  }
}
