/**
 * An index keyed by row ids (positive integers): the value under id `n` sits at position `n - 1` of a
 * chunked list, `null` where no value is. A sharded index keyed by the same ids as text costs V8 a key
 * string, a descriptor and a share of a hidden class per key (about 120 bytes at a million keys); here a
 * key costs one slot of eight bytes, and a read or a write goes straight to its chunk, with no hashing.
 * The list ends at its last value (trailing empty slots are dropped), so it has the same shape whatever
 * order its keys came and went in.
 */
import { type ChunkedList, emptyList, ListWriter, listChunks, listGet, type Owned } from './collection.js';
import { keepLayoutOf } from './kept-layouts.js';

/** Values by row id. */
export type IdKeyedIndex<V> = ChunkedList<V | null>;

/** An empty index. @example emptyIdKeyed<number>().length // 0 */
export const emptyIdKeyed = <V>(): IdKeyedIndex<V> => emptyList<V | null>();

/** Whether `key` can key such an index. */
const isIdKey = (key: number): boolean => Number.isSafeInteger(key) && key > 0;

/** The value under an id, or undefined. @example idKeyedGet(emptyIdKeyed<number>(), 3) // undefined */
export function idKeyedGet<V>(index: IdKeyedIndex<V>, key: number): V | undefined {
  if (!isIdKey(key)) return undefined;
  return listGet(index, key - 1) ?? undefined;
}

/** Every id with its value, in id order. */
export function* idKeyedEntries<V>(index: IdKeyedIndex<V>): Generator<readonly [number, V]> {
  let position = 0;
  for (const chunk of listChunks(index)) {
    for (const value of chunk) {
      position += 1;
      if (value !== null) yield [position, value];
    }
  }
}

/**
 * A batch of writes to an id-keyed index that copies each chunk at most once per batch (see
 * `ListWriter`).
 */
export class IdKeyedWriter<V> {
  readonly #slots: ListWriter<V | null>;

  constructor(index: IdKeyedIndex<V>, owned: Owned = new Set()) {
    this.#slots = new ListWriter(index, owned);
  }

  /** The value under an id, as this batch has left it. */
  get(key: number): V | undefined {
    if (!isIdKey(key)) return undefined;
    return this.#slots.get(key - 1) ?? undefined;
  }

  /** Sets the value under an id, growing the list with empty slots up to it. */
  set(key: number, value: V): void {
    if (!isIdKey(key)) throw new RangeError(`${key} is not a row id`);
    while (this.#slots.length < key - 1) this.#slots.append(null);
    if (this.#slots.length === key - 1) this.#slots.append(value);
    else this.#slots.set(key - 1, value);
  }

  /** Removes the value under an id; empty slots left at the end go. */
  delete(key: number): void {
    if (this.get(key) === undefined) return;
    this.#slots.set(key - 1, null);
    let length = this.#slots.length;
    while (length > 0 && this.#slots.get(length - 1) === null) length -= 1;
    this.#slots.truncate(length);
  }

  /** The index with every write so far. */
  result(): IdKeyedIndex<V> {
    return this.#slots.result();
  }
}

// Full collections must not take this class's hidden class away between requests (kept-layouts.ts).
keepLayoutOf(new IdKeyedWriter(emptyIdKeyed()));
