/**
 * The chunked list under immer configured as the engine's `applyChanges` is (auto-freeze off): one `produce` per
 * change. Appends one at a time from empty, and single-element updates on a list of the same size, at two
 * sizes ten times apart: when the per-operation cost stays flat, the total grows linearly (an unchunked
 * immer array copies the whole array on every change, so its total grows with the square).
 * The floor is the same loop on a plain mutable list, without immer.
 */
import { freeze, Immer, produce } from 'immer';
import {
  CHUNK_SIZE,
  type ChunkedList,
  emptyList,
  listFromArray,
  listPushInPlace,
  listSetInPlace,
  type MutableChunkedList,
} from '../src/kernel/collection.js';
import { type BenchOptions, type BenchRow, measure } from './harness.js';

/** The engine's immer: see src/engine/changes.ts. */
const engineProduce = new Immer({ autoFreeze: false }).produce;

interface State {
  readonly list: ChunkedList<number>;
}

/** Index of the i-th update: a fixed stride, so updates touch every chunk in turn. */
const target = (i: number, size: number): number => (i * 7919) % size;

function appendThroughImmer(count: number): State {
  let state: State = { list: emptyList() };
  for (let i = 0; i < count; i += 1) state = engineProduce(state, (draft) => listPushInPlace(draft.list, i));
  return state;
}

function updateThroughImmer(base: State, count: number, produceWith = engineProduce): State {
  let state = base;
  const size = base.list.length;
  for (let i = 0; i < count; i += 1) {
    state = produceWith(state, (draft) => listSetInPlace(draft.list, target(i, size), -i));
  }
  return state;
}

function appendPlain(count: number): ChunkedList<number> {
  const list: MutableChunkedList<number> = { length: 0, chunks: [] };
  for (let i = 0; i < count; i += 1) listPushInPlace(list, i);
  return list;
}

function updatePlain(base: ChunkedList<number>, count: number): ChunkedList<number> {
  const list: MutableChunkedList<number> = { length: base.length, chunks: base.chunks.map((c) => [...c]) };
  for (let i = 0; i < count; i += 1) listSetInPlace(list, target(i, list.length), -i);
  return list;
}

interface Case {
  readonly count: number;
  readonly ms: number;
  readonly floorMs: number;
}

const perOpMicros = (c: Case): number => (c.ms * 1000) / c.count;
const fmt = (n: number, digits = 2): string => n.toFixed(digits);
const count = (c: Case): string => c.count.toLocaleString('en-US');

export default function collectionBench(options: BenchOptions): BenchRow[] {
  const [large, small] = options.smoke ? [10_000, 1_000] : [100_000, 10_000];
  // A large case runs for seconds: once is enough. Both sizes run after the same JIT warm-up.
  const runsOf = (count: number): number => (count === large || options.smoke ? 1 : 3);
  const frozenList = (count: number): State =>
    freeze({ list: listFromArray(Array.from({ length: count }, (_, i) => i)) }, true);
  appendThroughImmer(2_000);
  updateThroughImmer(frozenList(2_000), 2_000);

  const append = (count: number): Case => ({
    count,
    ms: measure(() => appendThroughImmer(count), runsOf(count), 0),
    floorMs: measure(() => appendPlain(count), 3),
  });
  const update = (count: number, produceWith = engineProduce): Case => {
    // Fixtures outside the timed code: a frozen list of `count` elements, as state is after a produce.
    const base = frozenList(count);
    const check = updateThroughImmer(base, 1, produceWith);
    if (check.list.chunks[1] !== base.list.chunks[1] || base.list.chunks[0]?.[0] !== 0) {
      throw new Error('an update copied an untouched chunk or changed the base state');
    }
    return {
      count,
      ms: measure(() => updateThroughImmer(base, count, produceWith), runsOf(count), 0),
      floorMs: measure(() => updatePlain(base.list, count), 3),
    };
  };

  const appends = [append(small), append(large)] as const;
  const updates = [update(small), update(large)] as const;
  const rows: BenchRow[] = [];
  for (const [kind, [short, long], what] of [
    ['append', appends, 'appends one at a time from empty'],
    ['set', updates, 'single-element updates on a list of that size'],
  ] as const) {
    const ratio = perOpMicros(long) / perOpMicros(short);
    for (const c of [short, long]) {
      const linear =
        c === long
          ? `; per-op cost ×${fmt(ratio)} of the ${count(short)} case (≈1: the total grows linearly)`
          : '';
      rows.push({
        name: `collection: immer ${kind} ×${count(c)}`,
        ms: c.ms,
        floorMs: c.floorMs,
        note: `${count(c)} ${what} through the engine's produce (auto-freeze off): ${fmt(c.ms, 1)} ms total, ${fmt(perOpMicros(c))} µs/op${linear}`,
      });
    }
  }
  const frozen = update(small, produce);
  rows.push({
    name: `collection: immer set ×${count(frozen)}, auto-freeze on (not used)`,
    ms: frozen.ms,
    floorMs: frozen.floorMs,
    note: `${fmt(perOpMicros(frozen))} µs/op: with auto-freeze each change also freezes its copied ${CHUNK_SIZE}-element chunk`,
  });
  return rows;
}
