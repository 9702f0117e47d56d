/**
 * Collections that grow with the site, stored in fixed-size chunks of plain JSON.
 *
 * A copy-on-write update of a plain array copies it whole when one element changes; a log of a million
 * records or a table of 100,000 rows must not be copied to change one row. Every update here is a pure
 * function returning a new collection that shares every untouched chunk (or index group and leaf) with
 * the old one: a change copies one chunk (at most `CHUNK_SIZE` elements) and the short arrays holding it.
 * `applyChanges` computes the new collections outside immer and assigns each once, so no collection is
 * ever mutated and every earlier state stays valid.
 */
import { invariant } from './invariant.js';
import { keepLayoutOf } from './kept-layouts.js';

/** Elements per chunk. */
export const CHUNK_SIZE = 1000;

/** Chunks per group of a list's later chunks (see `ChunkedList`). */
export const GROUP_SIZE = 32;

/** An object a batch made (see `Owned`), as that batch may still change it in place. */
export type Mutable<T> = { -readonly [K in keyof T]: T[K] };

/**
 * An ordered list in chunks; every chunk but the last is full and none is empty. The first chunks are in
 * `chunks`; once it holds `GROUP_SIZE` of them, the later ones go to `more`, in groups of `GROUP_SIZE`
 * (every group full but the last), and `more` is absent while there are none. A write then copies one
 * chunk and a short array (the first chunks, or the groups and one group) whatever the list's length: an
 * array of every chunk would grow with the list (a thousand of them for a table of a million rows).
 * A list saved while all its chunks were in `chunks` keeps them there; the chunks it gains go to `more`.
 */
export interface ChunkedList<T> {
  readonly length: number;
  readonly chunks: readonly (readonly T[])[];
  readonly more?: readonly (readonly (readonly T[])[])[];
}

/** An empty list. @example emptyList<number>().length // 0 */
export const emptyList = <T>(): ChunkedList<T> => ({ length: 0, chunks: [] });

/** Builds a list from an array. @example listFromArray([1, 2]).length // 2 */
export function listFromArray<T>(items: readonly T[]): ChunkedList<T> {
  // Built at exact lengths (an array grown by push keeps room for half as many again), by loops:
  // `Array.from` with a callback costs microseconds even for the one chunk most lists have.
  const count = Math.ceil(items.length / CHUNK_SIZE);
  const chunkAtPosition = (n: number): T[] => items.slice(n * CHUNK_SIZE, (n + 1) * CHUNK_SIZE);
  const first = Math.min(count, GROUP_SIZE);
  const chunks: T[][] = new Array(first);
  for (let n = 0; n < first; n += 1) chunks[n] = chunkAtPosition(n);
  if (count <= GROUP_SIZE) return { length: items.length, chunks };
  const groups = Math.ceil((count - GROUP_SIZE) / GROUP_SIZE);
  const more: T[][][] = new Array(groups);
  for (let g = 0; g < groups; g += 1) {
    const start = GROUP_SIZE * (g + 1);
    const size = Math.min(GROUP_SIZE, count - start);
    const group: T[][] = new Array(size);
    for (let k = 0; k < size; k += 1) group[k] = chunkAtPosition(start + k);
    more[g] = group;
  }
  return { length: items.length, chunks, more };
}

/** The chunk at a 0-based chunk position, or undefined past the last. */
function chunkAt<T>(
  chunks: readonly (readonly T[])[],
  more: ChunkedList<T>['more'],
  position: number,
): readonly T[] | undefined {
  if (position < chunks.length) return chunks[position];
  const later = position - chunks.length;
  return more?.[Math.floor(later / GROUP_SIZE)]?.[later % GROUP_SIZE];
}

/** Every chunk of a list, in order. */
export function* listChunks<T>(list: ChunkedList<T>): Generator<readonly T[]> {
  yield* list.chunks;
  for (const group of list.more ?? []) yield* group;
}

/** The element at a 0-based index, or undefined. @example listGet(listFromArray(['a']), 0) // 'a' */
export function listGet<T>(list: ChunkedList<T>, index: number): T | undefined {
  if (!Number.isInteger(index) || index < 0 || index >= list.length) return undefined;
  return chunkAt(list.chunks, list.more, Math.floor(index / CHUNK_SIZE))?.[index % CHUNK_SIZE];
}

/** A new list with one more element at the end. @example listAppend(emptyList(), 'a').length // 1 */
export function listAppend<T>(list: ChunkedList<T>, item: T): ChunkedList<T> {
  const writer = new ListWriter(list);
  writer.append(item);
  return writer.result();
}

/**
 * A new list with `items` appended: copies the last chunk and the arrays that hold it once, however many
 * items.
 * @example listAppendAll(emptyList(), ['a', 'b']).length // 2
 */
export function listAppendAll<T>(list: ChunkedList<T>, items: readonly T[]): ChunkedList<T> {
  return listAppendAllOwned(list, items, new Set());
}

/** A new list with the element at `index` replaced. */
export function listSet<T>(list: ChunkedList<T>, index: number, item: T): ChunkedList<T> {
  const writer = new ListWriter(list);
  writer.set(index, item);
  return writer.result();
}

/** Elements from `start` (inclusive) to `end` (exclusive), in order. */
export function* listRange<T>(list: ChunkedList<T>, start = 0, end = list.length): Generator<T> {
  const from = Math.max(0, start);
  const to = Math.min(list.length, end);
  for (let index = from; index < to; ) {
    const position = Math.floor(index / CHUNK_SIZE);
    const chunk = chunkAt(list.chunks, list.more, position) ?? [];
    const stop = Math.min(chunk.length, to - position * CHUNK_SIZE);
    for (let offset = index - position * CHUNK_SIZE; offset < stop; offset += 1) yield chunk[offset] as T;
    index = (position + 1) * CHUNK_SIZE;
  }
}

/** Elements from `start` (inclusive) down to `end` (exclusive), newest first. */
export function* listRangeReverse<T>(list: ChunkedList<T>, start = list.length - 1, end = -1): Generator<T> {
  for (let index = Math.min(start, list.length - 1); index > end && index >= 0; index -= 1) {
    yield listGet(list, index) as T;
  }
}

/** The whole list as an array (a copy). */
export function listToArray<T>(list: ChunkedList<T>): T[] {
  if (list.more === undefined) return list.chunks.flat() as T[];
  const items: T[] = [];
  for (const chunk of listChunks(list)) for (const item of chunk) items.push(item);
  return items;
}

/**
 * The first index whose element is not below `target` by `key` (a list sorted ascending by key), or
 * `length` when none is.
 */
export function listLowerBound<T>(
  list: ChunkedList<T>,
  target: number | string,
  key: (item: T) => number | string,
) {
  let low = 0;
  let high = list.length;
  while (low < high) {
    const mid = (low + high) >>> 1;
    if (key(listGet(list, mid) as T) < target) low = mid + 1;
    else high = mid;
  }
  return low;
}

/**
 * A table keyed by sequential integer ids starting at 1: the row with id `n` lives at index `n - 1`,
 * deleted rows are `null`. Reads and writes by id are O(1); nothing is ever scanned to find an id.
 */
export interface Table<T> {
  readonly rows: ChunkedList<T | null>;
  readonly count: number;
}

/** An empty table. */
export const emptyTable = <T>(): Table<T> => ({ rows: emptyList(), count: 0 });

/** The id the next inserted row gets. @example nextId(emptyTable()) // 1 */
export const nextId = <T>(table: Table<T>): number => table.rows.length + 1;

/** The row with an id, or undefined (deleted, never existed, or not an integer id). */
export const tableGet = <T>(table: Table<T>, id: number): T | undefined =>
  listGet(table.rows, id - 1) ?? undefined;

/** A new table with a row inserted; its id must be the table's next id. */
export function tableInsert<T extends { readonly id: number }>(table: Table<T>, row: T): Table<T> {
  invariant(row.id === table.rows.length + 1, `row id ${row.id} is not the next id ${table.rows.length + 1}`);
  return { rows: listAppend(table.rows, row), count: table.count + 1 };
}

/** A new table with the live row `id` replaced by `row`, or deleted when `row` is null. */
export function tableReplace<T>(table: Table<T>, id: number, row: T | null): Table<T> {
  invariant(listGet(table.rows, id - 1) != null, `row ${id} exists`);
  return { rows: listSet(table.rows, id - 1, row), count: row === null ? table.count - 1 : table.count };
}

/** Live rows in id order. */
export function* tableRows<T>(table: Table<T>): Generator<T> {
  for (const row of listRange(table.rows)) if (row !== null) yield row;
}

/** Live rows in descending id order. */
export function* tableRowsReverse<T>(table: Table<T>): Generator<T> {
  for (const row of listRangeReverse(table.rows)) if (row !== null) yield row;
}

/**
 * A string-keyed index split over two levels of shards: 128 groups of 128 leaves, each leaf a plain
 * object of about n/16,384 keys. A plain object copies key by key (about 1 µs a key under immer when, as
 * here, every leaf has its own set of keys; a spread is cheaper but still per key), while an array of
 * slots copies as one block; so a write copies the 128-slot array of groups, one 128-slot group and one
 * small leaf rather than a shard of n/64 keys: at 100,000 keys a leaf holds ~6 keys instead of the ~1,500
 * of one flat shard. Groups and leaves are created on the first key that lands in them and dropped (back
 * to `null`) when their last key goes, so an index holds the same shape whatever order its keys came and
 * went in. Keys are stored with a prefix so that `__proto__` and its kin are plain keys.
 */
export interface ShardedIndex<V> {
  readonly groups: readonly (readonly (Readonly<Record<string, V>> | null)[] | null)[];
}

/** Groups in an index, and leaves in a group. */
const FANOUT = 128;
const LEVEL_BITS = 7;

// `Array.from` with a callback took 13 µs for these 128 slots, `fill` a fraction of one.
const nulls = <T>(): (T | null)[] => new Array<T | null>(FANOUT).fill(null);

/** An empty index. */
export const emptyIndex = <V>(): ShardedIndex<V> => ({ groups: nulls() });

/** The group and the leaf a key lives in (FNV-1a: the low bits pick the group, the next bits the leaf). */
function slotsOf(key: string): { readonly group: number; readonly leaf: number } {
  let hash = 0x811c9dc5;
  for (let i = 0; i < key.length; i += 1) hash = Math.imul(hash ^ key.charCodeAt(i), 0x01000193);
  return { group: hash & (FANOUT - 1), leaf: (hash >>> LEVEL_BITS) & (FANOUT - 1) };
}

const slotKey = (key: string): string => `k:${key}`;

/** The value under a key in an index's groups. */
function groupsGet<V>(groups: ShardedIndex<V>['groups'], key: string): V | undefined {
  const { group, leaf: at } = slotsOf(key);
  const leaf = groups[group]?.[at];
  const slot = slotKey(key);
  return leaf != null && Object.hasOwn(leaf, slot) ? leaf[slot] : undefined;
}

/** The value under a key. */
export const indexGet = <V>(index: ShardedIndex<V>, key: string): V | undefined =>
  groupsGet(index.groups, key);

/**
 * A new index with a key set, sharing every untouched group and leaf with the old one.
 */
export function indexSet<V>(index: ShardedIndex<V>, key: string, value: V): ShardedIndex<V> {
  const slots = slotsOf(key);
  const groups = index.groups.slice();
  const group = (groups[slots.group] ?? nulls<Readonly<Record<string, V>>>()).slice();
  // Spread, then set: a spread into a literal with a new key takes V8's slow path (twice the time).
  const leaf: Record<string, V> = { ...group[slots.leaf] };
  leaf[slotKey(key)] = value;
  group[slots.leaf] = leaf;
  groups[slots.group] = group;
  return { groups };
}

/**
 * A new index without a key (the very same index when it has no such key), sharing every untouched
 * group and leaf with the old one; a leaf or group left empty goes back to `null`, so that the index has
 * the shape it would have had if the key had never been set.
 */
export function indexDelete<V>(index: ShardedIndex<V>, key: string): ShardedIndex<V> {
  const slots = slotsOf(key);
  const leaf = index.groups[slots.group]?.[slots.leaf];
  const slot = slotKey(key);
  if (leaf == null || !Object.hasOwn(leaf, slot)) return index;
  const rest: Record<string, V> = {};
  let kept = 0;
  for (const other of Object.keys(leaf))
    if (other !== slot) {
      rest[other] = leaf[other] as V;
      kept += 1;
    }
  const groups = index.groups.slice();
  const group = (groups[slots.group] ?? nulls<Readonly<Record<string, V>>>()).slice();
  group[slots.leaf] = kept > 0 ? rest : null;
  groups[slots.group] = group.every((other) => other === null) ? null : group;
  return { groups };
}

/** Every key with its value (in no particular order). */
export function* indexEntries<V>(index: ShardedIndex<V>): Generator<readonly [string, V]> {
  for (const group of index.groups) {
    for (const leaf of group ?? []) {
      if (leaf === null) continue;
      for (const slot of Object.keys(leaf)) yield [slot.slice(2), leaf[slot] as V];
    }
  }
}

/**
 * The arrays and objects a batch of writes has made so far: the batch may still change them in place,
 * because nothing outside it can hold them yet. A request is a batch, and so is a catch-up of many due
 * steps, whose in-between states nobody keeps. Once the batch ends its set is dropped and everything it
 * made is as immutable as the rest.
 */
export type Owned = Set<object>;

/**
 * A batch of writes to a list that copies each chunk, and each array holding chunks, at most once per
 * batch and only when the batch writes into it: what it copied is the batch's own (`Owned`), so later
 * writes change it in place. A request that writes 1,000 rows of one chunk copies that chunk once, not
 * 1,000 times. The list it started from is never changed unless the batch made it.
 */
export class ListWriter<T> {
  readonly #list: ChunkedList<T>;
  readonly #owned: Owned;
  /** The first chunks, and the groups of the later ones: the list's own until the batch writes there. */
  #chunks: (readonly T[])[];
  #more: (readonly T[])[][] | undefined;
  #length: number;
  /** The list object this batch made for this list, which `result()` updates rather than copies. */
  #made: Mutable<ChunkedList<T>> | undefined;

  constructor(list: ChunkedList<T>, owned: Owned = new Set()) {
    this.#list = list;
    this.#owned = owned;
    this.#chunks = list.chunks as (readonly T[])[];
    this.#more = list.more as (readonly T[])[][] | undefined;
    this.#length = list.length;
    if (owned.has(list)) this.#made = list as Mutable<ChunkedList<T>>;
  }

  get length(): number {
    return this.#length;
  }

  /** The element at a 0-based index, as this batch has left it. */
  get(index: number): T | undefined {
    if (!Number.isInteger(index) || index < 0 || index >= this.#length) return undefined;
    return chunkAt(this.#chunks, this.#more, Math.floor(index / CHUNK_SIZE))?.[index % CHUNK_SIZE];
  }

  /** Replaces the element at `index`. */
  set(index: number, item: T): void {
    // Each check's message is made only when the check fails: a template argument is built on every
    // call, a string per row a batch writes (a thousand for a renewal of a thousand components).
    if (!(Number.isInteger(index) && index >= 0 && index < this.#length))
      invariant(false, `index ${index} out of range`);
    this.#ownChunk(Math.floor(index / CHUNK_SIZE))[index % CHUNK_SIZE] = item;
  }

  /** Adds an element at the end. */
  append(item: T): void {
    const count = Math.ceil(this.#length / CHUNK_SIZE);
    const tail = count > 0 ? chunkAt(this.#chunks, this.#more, count - 1) : undefined;
    if (tail !== undefined && tail.length < CHUNK_SIZE) {
      if (!this.#owned.has(tail)) {
        // Copied with the new element in one allocation of the exact length: a copy then a push would
        // allocate the chunk twice (the push regrows it by half), for the most common write of all.
        const copy = tail.concat([item]);
        this.#owned.add(copy);
        this.#putChunk(count - 1, copy);
      } else {
        const chunk = tail as T[];
        chunk.push(item);
        // A chunk that fills is sealed at its exact length: grown by push it holds room for up to half
        // as many elements again, kept for as long as the state is.
        if (chunk.length === CHUNK_SIZE) {
          const sealed = chunk.slice();
          this.#owned.add(sealed);
          this.#putChunk(count - 1, sealed);
        }
      }
    } else {
      const chunk = [item];
      this.#owned.add(chunk);
      this.#putChunk(count, chunk);
    }
    this.#length += 1;
  }

  /** Drops the elements from `length` on (nothing when the list is not longer). */
  truncate(length: number): void {
    if (length >= this.#length) return;
    invariant(Number.isInteger(length) && length >= 0, `length ${length} is not a list length`);
    const kept = Math.ceil(length / CHUNK_SIZE);
    if (kept <= this.#chunks.length) {
      if (kept < this.#chunks.length) this.#ownChunks().length = kept;
      this.#more = undefined;
    } else {
      const later = kept - this.#chunks.length;
      const groups = Math.ceil(later / GROUP_SIZE);
      const more = this.#ownMore();
      more.length = groups;
      const inLastGroup = later - (groups - 1) * GROUP_SIZE;
      if ((more[groups - 1]?.length ?? 0) > inLastGroup) this.#ownGroup(groups - 1).length = inLastGroup;
    }
    const last = kept > 0 ? chunkAt(this.#chunks, this.#more, kept - 1) : undefined;
    const inLast = length - (kept - 1) * CHUNK_SIZE;
    if (last !== undefined && last.length > inLast) {
      const cut = last.slice(0, inLast);
      this.#owned.add(cut);
      this.#putChunk(kept - 1, cut);
    }
    this.#length = length;
  }

  /**
   * The list with every write so far (sharing what the batch owns: later writes of the batch show); the
   * very list it started from when nothing was written. The list object is the batch's own too: each
   * step of a catch-up updates the one the first step made instead of leaving a new one behind.
   */
  result(): ChunkedList<T> {
    const chunks = this.#chunks;
    const more = this.#more !== undefined && this.#more.length > 0 ? this.#more : undefined;
    const list = this.#list;
    if (chunks === list.chunks && more === list.more && this.#length === list.length) return list;
    const made = this.#made;
    if (made !== undefined && made.chunks === chunks && made.more === more) {
      made.length = this.#length;
      return made;
    }
    const next: Mutable<ChunkedList<T>> =
      more === undefined ? { length: this.#length, chunks } : { length: this.#length, chunks, more };
    this.#owned.add(next);
    this.#made = next;
    return next;
  }

  /** The chunk at `position`, the batch's own (copied on the first write into it). */
  #ownChunk(position: number): T[] {
    const chunk = chunkAt(this.#chunks, this.#more, position) ?? [];
    if (this.#owned.has(chunk)) return chunk as T[];
    const copy = chunk.slice();
    this.#owned.add(copy);
    this.#putChunk(position, copy);
    return copy;
  }

  /** Puts `chunk` at `position`: over the chunk there, or as the next one after the last. */
  #putChunk(position: number, chunk: readonly T[]): void {
    const first = this.#chunks.length;
    if (position < first || (position === first && first < GROUP_SIZE && this.#more === undefined)) {
      this.#ownChunks()[position] = chunk;
      return;
    }
    const later = position - first;
    const group = Math.floor(later / GROUP_SIZE);
    if (group === (this.#more?.length ?? 0)) {
      const opened = [chunk];
      this.#owned.add(opened);
      this.#ownMore().push(opened);
    } else this.#ownGroup(group)[later % GROUP_SIZE] = chunk;
  }

  #ownChunks(): (readonly T[])[] {
    if (!this.#owned.has(this.#chunks)) {
      this.#chunks = this.#chunks.slice();
      this.#owned.add(this.#chunks);
    }
    return this.#chunks;
  }

  #ownMore(): (readonly T[])[][] {
    const more = this.#more;
    if (more !== undefined && this.#owned.has(more)) return more;
    const copy = more === undefined ? [] : more.slice();
    this.#owned.add(copy);
    this.#more = copy;
    return copy;
  }

  #ownGroup(position: number): (readonly T[])[] {
    const more = this.#ownMore();
    const group = more[position] ?? [];
    if (this.#owned.has(group)) return group;
    const copy = group.slice();
    this.#owned.add(copy);
    more[position] = copy;
    return copy;
  }
}

/**
 * `listAppendAll` inside a batch: the tail chunk and the array of chunks copied at most once per batch.
 * @example listAppendAllOwned(emptyList(), ['a', 'b'], new Set()).length // 2
 */
export function listAppendAllOwned<T>(
  list: ChunkedList<T>,
  items: readonly T[],
  owned: Owned,
): ChunkedList<T> {
  if (items.length === 0) return list;
  const writer = new ListWriter(list, owned);
  for (const item of items) writer.append(item);
  return writer.result();
}

/** What each writer of a batch left, by name. */
export function writerResults<K, V>(writers: ReadonlyMap<K, { result(): V }>): Map<K, V> {
  const values = new Map<K, V>();
  for (const [name, writer] of writers) values.set(name, writer.result());
  return values;
}

/** A batch of writes to a table that copies each chunk of its rows at most once (see `ListWriter`). */
export class TableWriter<T extends { readonly id: number }> {
  readonly #rows: ListWriter<T | null>;
  readonly #owned: Owned;
  #count: number;
  /** The table object this batch made, which `result()` updates (see `ListWriter.result`). */
  #made: Mutable<Table<T>> | undefined;

  constructor(table: Table<T>, owned: Owned = new Set()) {
    this.#rows = new ListWriter(table.rows, owned);
    this.#owned = owned;
    this.#count = table.count;
    if (owned.has(table)) this.#made = table as Mutable<Table<T>>;
  }

  /** The row with an id, as this batch has left it. */
  get(id: number): T | undefined {
    return this.#rows.get(id - 1) ?? undefined;
  }

  /** Inserts a row; its id must be the table's next id. */
  insert(row: T): void {
    if (row.id !== this.#rows.length + 1)
      invariant(false, `row id ${row.id} is not the next id ${this.#rows.length + 1}`);
    this.#rows.append(row);
    this.#count += 1;
  }

  /** Replaces the live row `id` by `row`, or deletes it when `row` is null. */
  replace(id: number, row: T | null): void {
    if (this.#rows.get(id - 1) == null) invariant(false, `row ${id} exists`);
    this.#rows.set(id - 1, row);
    if (row === null) this.#count -= 1;
  }

  /** The table with every write so far. */
  result(): Table<T> {
    const rows = this.#rows.result();
    const made = this.#made;
    if (made !== undefined) {
      made.rows = rows;
      made.count = this.#count;
      return made;
    }
    const table = { rows, count: this.#count };
    this.#owned.add(table);
    this.#made = table;
    return table;
  }
}

type Groups<V> = (readonly (Readonly<Record<string, V>> | null)[] | null)[];

/**
 * A batch of writes to a sharded index that copies the array of groups, each group and each leaf at most
 * once per batch (see `ListWriter`); `result()` has the shape `indexSet` and `indexDelete` would have left.
 */
export class IndexWriter<V> {
  readonly #groups: Groups<V>;
  readonly #owned: Owned;
  /** The index object this batch made, which `result()` returns again (see `ListWriter.result`). */
  #made: ShardedIndex<V> | undefined;

  constructor(index: ShardedIndex<V>, owned: Owned = new Set()) {
    this.#owned = owned;
    if (owned.has(index.groups)) this.#groups = index.groups as Groups<V>;
    else {
      this.#groups = index.groups.slice();
      owned.add(this.#groups);
    }
    if (owned.has(index)) this.#made = index;
  }

  /** The value under a key, as this batch has left it. */
  get(key: string): V | undefined {
    return groupsGet(this.#groups, key);
  }

  /** Sets a key. */
  set(key: string, value: V): void {
    const slots = slotsOf(key);
    const group = this.#ownGroup(slots.group);
    let leaf = group[slots.leaf] ?? null;
    if (leaf === null || !this.#owned.has(leaf)) {
      // Spread, then set: a spread into a literal with a new key takes V8's slow path (twice the time).
      const copy: Record<string, V> = { ...leaf };
      this.#owned.add(copy);
      group[slots.leaf] = copy;
      leaf = copy;
    }
    (leaf as Record<string, V>)[slotKey(key)] = value;
  }

  /** Deletes a key (nothing when it is absent); a leaf or group left empty goes back to `null`. */
  delete(key: string): void {
    const slots = slotsOf(key);
    const leaf = this.#groups[slots.group]?.[slots.leaf];
    const slot = slotKey(key);
    if (leaf == null || !Object.hasOwn(leaf, slot)) return;
    const rest: Record<string, V> = {};
    let kept = 0;
    for (const other of Object.keys(leaf))
      if (other !== slot) {
        rest[other] = leaf[other] as V;
        kept += 1;
      }
    const group = this.#ownGroup(slots.group);
    if (kept > 0) this.#owned.add(rest);
    group[slots.leaf] = kept > 0 ? rest : null;
    if (group.every((other) => other === null)) this.#groups[slots.group] = null;
  }

  /** The index with every write so far. */
  result(): ShardedIndex<V> {
    const made = this.#made;
    if (made !== undefined && made.groups === this.#groups) return made;
    const index = { groups: this.#groups };
    this.#owned.add(index);
    this.#made = index;
    return index;
  }

  #ownGroup(position: number): (Readonly<Record<string, V>> | null)[] {
    const group = this.#groups[position] ?? null;
    if (group !== null && this.#owned.has(group)) return group as (Readonly<Record<string, V>> | null)[];
    const copy = group === null ? nulls<Readonly<Record<string, V>>>() : group.slice();
    this.#owned.add(copy);
    this.#groups[position] = copy;
    return copy;
  }
}

// Full collections must not take this class's hidden class away between requests (kept-layouts.ts).
keepLayoutOf(new TableWriter(emptyTable<{ readonly id: number }>()));
keepLayoutOf(new IndexWriter(emptyIndex()));
