/**
 * The two-level ShardedIndex: its shape is a function of its keys alone (so states reached by different
 * histories compare equal), its entries are exactly its keys, and a write copies one small leaf while
 * sharing every other leaf with the index it came from.
 */
import { fc, test } from '@fast-check/vitest';
import { produce } from 'immer';
import { describe, expect } from 'vitest';
import {
  emptyIndex,
  emptyMutableIndex,
  indexDeleteInPlace,
  indexEntries,
  indexGet,
  indexSet,
  indexSetInPlace,
  type MutableShardedIndex,
  type ShardedIndex,
} from '../../src/kernel/collection.js';

type Op =
  | { readonly kind: 'set'; readonly key: string; readonly value: number }
  | { readonly kind: 'delete'; readonly key: string };

// Few distinct keys, so that sets and deletes of the same key meet often.
const key = fc.oneof(fc.constantFrom('a', 'b', 'c', '__proto__', 'k:x', ''), fc.string({ maxLength: 3 }));
const op: fc.Arbitrary<Op> = fc.oneof(
  fc.record({ kind: fc.constant('set' as const), key, value: fc.integer() }),
  fc.record({ kind: fc.constant('delete' as const), key }),
);

/** Applies ops through immer, one produce each, as `evolve` does. */
function applied(ops: readonly Op[]): { index: ShardedIndex<number>; model: Map<string, number> } {
  const model = new Map<string, number>();
  let index = emptyIndex<number>();
  for (const o of ops) {
    index = produce(index, (draft) => {
      if (o.kind === 'set') indexSetInPlace(draft as MutableShardedIndex<number>, o.key, o.value);
      else indexDeleteInPlace(draft as MutableShardedIndex<number>, o.key);
    });
    if (o.kind === 'set') model.set(o.key, o.value);
    else model.delete(o.key);
  }
  return { index, model };
}

/** Every leaf of an index, in slot order. */
const leaves = (index: ShardedIndex<number>) => index.groups.flatMap((group) => group ?? []);

describe('ShardedIndex', () => {
  test.prop([fc.array(op, { maxLength: 120 })], { numRuns: 60 })(
    'law: the shape depends only on the keys held, not on the order they came and went in',
    (ops) => {
      const { index, model } = applied(ops);
      const fresh = emptyMutableIndex<number>();
      for (const [k, v] of [...model].sort(([a], [b]) => (a < b ? -1 : 1))) indexSetInPlace(fresh, k, v);
      expect(index).toStrictEqual(fresh);
      expect(JSON.parse(JSON.stringify(index))).toStrictEqual(index);
    },
  );

  test.prop([fc.array(op, { maxLength: 120 })], { numRuns: 60 })(
    'law: indexEntries lists exactly the keys held, with their values',
    (ops) => {
      const { index, model } = applied(ops);
      expect(new Map(indexEntries(index))).toEqual(model);
    },
  );

  test.prop([fc.array(op, { maxLength: 60 }), key, fc.integer()], { numRuns: 60 })(
    'law: indexSet agrees with indexSetInPlace and leaves the original untouched',
    (ops, k, v) => {
      const { index } = applied(ops);
      const before = JSON.stringify(index);
      const next = indexSet(index, k, v);
      expect(JSON.stringify(index)).toBe(before);
      expect(indexGet(next, k)).toBe(v);
      const inPlace = produce(index, (draft) => {
        indexSetInPlace(draft as MutableShardedIndex<number>, k, v);
      });
      expect(next).toStrictEqual(inPlace);
    },
  );

  test('a write to an index of 100,000 keys copies one leaf of a few keys and shares the rest', () => {
    const big = emptyMutableIndex<number>();
    for (let n = 0; n < 100_000; n += 1) indexSetInPlace(big, `customer-${n}`, n);
    const next = produce(big as ShardedIndex<number>, (draft) => {
      indexSetInPlace(draft as MutableShardedIndex<number>, 'customer-new', -1);
    });
    const before = leaves(big);
    const changed = leaves(next).filter((leaf, slot) => leaf !== before[slot]);
    expect(changed).toHaveLength(1);
    expect(Object.keys(changed[0] ?? {}).length).toBeLessThan(20);
    expect(indexGet(next, 'customer-new')).toBe(-1);
    expect(indexGet(big, 'customer-new')).toBeUndefined();
  });
});
