/**
 * The kernel's pure collection updates, as `applyChanges` runs them (one new collection per write, sharing
 * every untouched chunk): appends one at a time from empty, single-element updates on a list of that size
 * and single-key writes on an index of that many keys, at two sizes ten times apart. When the cost per
 * operation stays flat the total grows linearly (copying an unchunked array on every change would make
 * it grow with the square). The floor is the same loop on a plain mutable array (or `Map`), which copies
 * nothing. One more row freezes each copied chunk, as immer's auto-freeze did: why the engine never freezes them.
 */
import {
  CHUNK_SIZE,
  type ChunkedList,
  emptyIndex,
  emptyList,
  indexGet,
  indexSet,
  listAppend,
  listFromArray,
  listGet,
  listSet,
  type ShardedIndex,
} from '../src/kernel/collection.js';
import { type BenchOptions, type BenchRow, type HostFigures, label, measureAgainstFloor } from './harness.js';

/** Index of the i-th update: a fixed stride, so updates touch every chunk in turn. */
const target = (i: number, size: number): number => (i * 7919) % size;
const keyOf = (n: number): string => `customer-${n}`;

function appendPure(count: number): ChunkedList<number> {
  let list = emptyList<number>();
  for (let i = 0; i < count; i += 1) list = listAppend(list, i);
  return list;
}

function appendPlain(count: number): number[] {
  const list: number[] = [];
  for (let i = 0; i < count; i += 1) list.push(i);
  return list;
}

function setPure(base: ChunkedList<number>, count: number, freeze = false): ChunkedList<number> {
  let list = base;
  const size = base.length;
  for (let i = 0; i < count; i += 1) {
    const index = target(i, size);
    list = listSet(list, index, -i);
    if (freeze) Object.freeze(list.chunks[Math.floor(index / CHUNK_SIZE)]);
  }
  return list;
}

function setPlain(list: number[], count: number): number[] {
  for (let i = 0; i < count; i += 1) list[target(i, list.length)] = -i;
  return list;
}

function indexSetPure(base: ShardedIndex<number>, size: number, count: number): ShardedIndex<number> {
  let index = base;
  for (let i = 0; i < count; i += 1) index = indexSet(index, keyOf(target(i, size)), -i);
  return index;
}

function indexSetPlain(map: Map<string, number>, size: number, count: number): Map<string, number> {
  for (let i = 0; i < count; i += 1) map.set(keyOf(target(i, size)), -i);
  return map;
}

/** Throws unless one pure update left its base as it was and shared the chunks it did not touch. */
function checkSharing(size: number): void {
  const base = listFromArray(Array.from({ length: Math.max(size, 2001) }, (_, i) => i));
  const next = listSet(base, 1500, -1);
  if (next.chunks[0] !== base.chunks[0] || next.chunks[2] !== base.chunks[2] || listGet(base, 1500) !== 1500)
    throw new Error('a list update copied an untouched chunk or changed the list it came from');
  const index = indexSetPure(emptyIndex(), 1, 1);
  if (indexGet(indexSet(index, 'other', 1), keyOf(0)) !== 0 || indexGet(index, 'other') !== undefined)
    throw new Error('an index write lost a key or changed the index it came from');
}

interface Case {
  readonly count: number;
  readonly ms: number;
  readonly floorMs: number;
  readonly host: HostFigures;
}

const perOpMicros = (c: Case): number => (c.ms * 1000) / c.count;
const fmt = (n: number, digits = 2): string => n.toFixed(digits);

export default function collectionBench(options: BenchOptions): BenchRow[] {
  const [small, large] = options.smoke ? [1_000, 10_000] : [10_000, 100_000];
  const runsOf = (count: number): number => (count === large || options.smoke ? 1 : 3);
  checkSharing(large);
  // JIT warm-up of every loop, so that the first case measured is not the only cold one.
  const warm = appendPure(2_000);
  setPure(warm, 2_000);
  indexSetPure(indexSetPure(emptyIndex(), 2_000, 2_000), 2_000, 2_000);

  // Fixtures outside the timed code; updates on a base never change it, so every run starts alike.
  const append = (count: number): Case => ({
    count,
    ...measureAgainstFloor(
      () => appendPure(count),
      () => appendPlain(count),
      runsOf(count),
      1,
    ),
  });
  const set = (count: number, freeze = false): Case => {
    const base = listFromArray(Array.from({ length: count }, (_, i) => i));
    const plain = Array.from({ length: count }, (_, i) => i);
    return {
      count,
      ...measureAgainstFloor(
        () => setPure(base, count, freeze),
        () => setPlain(plain, count),
        runsOf(count),
        1,
      ),
    };
  };
  const write = (count: number): Case => {
    let base = emptyIndex<number>();
    for (let n = 0; n < count; n += 1) base = indexSet(base, keyOf(n), n);
    const plain = new Map(Array.from({ length: count }, (_, n) => [keyOf(n), n]));
    return {
      count,
      ...measureAgainstFloor(
        () => indexSetPure(base, count, count),
        () => indexSetPlain(plain, count, count),
        runsOf(count),
        1,
      ),
    };
  };

  const rows: BenchRow[] = [];
  const row = (name: string, c: Case, note: string): void => {
    rows.push({ name: `collection: ${name}`, ms: c.ms, floorMs: c.floorMs, host: c.host, note });
  };
  const sets: Case[] = [];
  for (const [name, measureAt, what] of [
    ['listAppend', append, 'appends one at a time from empty'],
    ['listSet', set, 'single-element updates on a list of that size'],
    ['indexSet', write, 'writes of existing keys on an index of that many keys'],
  ] as const) {
    const short = measureAt(small);
    const long = measureAt(large);
    if (name === 'listSet') sets.push(short);
    const ratio = perOpMicros(long) / perOpMicros(short);
    row(
      `${name} ×${label(short.count)}`,
      short,
      `${label(short.count)} ${what}: ${fmt(perOpMicros(short))} µs/op`,
    );
    row(
      `${name} ×${label(long.count)}`,
      long,
      `${label(long.count)} ${what}: ${fmt(perOpMicros(long))} µs/op; ×${fmt(ratio)} the ${label(short.count)} case's (≈1: linear total)`,
    );
  }
  const frozen = set(small, true);
  const unfrozen = sets[0] ?? frozen;
  row(
    `listSet ×${label(small)}, each copied chunk frozen (auto-freeze, not used)`,
    frozen,
    `${fmt(perOpMicros(frozen))} µs/op against ${fmt(perOpMicros(unfrozen))} unfrozen: freezing a copied ${CHUNK_SIZE}-element chunk costs ×${fmt(frozen.ms / unfrozen.ms)}`,
  );
  return rows;
}
