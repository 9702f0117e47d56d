/**
 * The two-level ShardedIndex: its shape is a function of its keys alone (so states reached by different
 * histories compare equal), its entries are exactly its keys, and a write is pure: it copies one small
 * leaf (and the arrays on its path) while the index it came from stays as it was and shares every other
 * group and leaf with the new one.
 */
import { fc, test } from '@fast-check/vitest';
import { describe, expect } from 'vitest';
import {
  emptyIndex,
  indexDelete,
  indexEntries,
  indexGet,
  indexSet,
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

const apply = (index: ShardedIndex<number>, o: Op): ShardedIndex<number> =>
  o.kind === 'set' ? indexSet(index, o.key, o.value) : indexDelete(index, o.key);

/** Applies ops one pure update each, as `applyChanges` does, alongside a Map model. */
function applied(ops: readonly Op[]): { index: ShardedIndex<number>; model: Map<string, number> } {
  const model = new Map<string, number>();
  let index = emptyIndex<number>();
  for (const o of ops) {
    index = apply(index, o);
    if (o.kind === 'set') model.set(o.key, o.value);
    else model.delete(o.key);
  }
  return { index, model };
}

/** Every leaf slot of an index, in slot order (a missing group counts as 128 empty slots). */
const leaves = (index: ShardedIndex<number>) =>
  index.groups.flatMap((group) => group ?? Array.from({ length: 128 }, () => null));

/**
 * How many group slots and leaf slots of `after` are not the very same object as in `before` (a missing
 * group counts as empty leaf slots; a shared group shares all its leaves).
 */
function copiedSlots(before: ShardedIndex<number>, after: ShardedIndex<number>) {
  let groups = 0;
  let leafSlots = 0;
  after.groups.forEach((group, slot) => {
    const old = before.groups[slot];
    if (group === old) return;
    groups += 1;
    for (let leaf = 0; leaf < 128; leaf += 1)
      if ((group?.[leaf] ?? null) !== (old?.[leaf] ?? null)) leafSlots += 1;
  });
  return { groups, leaves: leafSlots };
}

describe('ShardedIndex', () => {
  test.prop([fc.array(op, { maxLength: 120 })], { numRuns: 60 })(
    'law: the shape depends only on the keys held, not on the order they came and went in',
    (ops) => {
      const { index, model } = applied(ops);
      const sorted = [...model].sort(([a], [b]) => (a < b ? -1 : 1));
      const fresh = sorted.reduce((built, [k, v]) => indexSet(built, k, v), emptyIndex<number>());
      const reversed = sorted
        .reverse()
        .reduce((built, [k, v]) => indexSet(built, k, v), emptyIndex<number>());
      expect(index).toStrictEqual(fresh);
      expect(reversed).toStrictEqual(fresh);
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

  test.prop([fc.array(op, { maxLength: 60 }), fc.array(op, { minLength: 1, maxLength: 20 })], {
    numRuns: 60,
  })(
    'law: a write leaves the index it came from as it was and copies only the group and leaf of its key',
    (history, writes) => {
      let { index, model } = applied(history);
      for (const o of writes) {
        const snapshot = JSON.stringify(index);
        const next = apply(index, o);
        expect(JSON.stringify(index)).toBe(snapshot);
        for (const [k, v] of model) expect(indexGet(index, k)).toBe(v);
        if (o.kind === 'delete' && !model.has(o.key)) {
          // Deleting a missing key changes nothing: the very same index.
          expect(next).toBe(index);
          continue;
        }
        expect(next.groups).not.toBe(index.groups);
        // A delete that empties a group drops the group and with it the slot of its last leaf.
        expect(copiedSlots(index, next)).toEqual({ groups: 1, leaves: 1 });
        if (o.kind === 'set') model.set(o.key, o.value);
        else model.delete(o.key);
        expect(new Map(indexEntries(next))).toEqual(model);
        index = next;
      }
    },
  );

  test('a write to an index of 100,000 keys copies one leaf of a few keys and shares the rest', () => {
    let big = emptyIndex<number>();
    for (let n = 0; n < 100_000; n += 1) big = indexSet(big, `customer-${n}`, n);
    const next = indexSet(big, 'customer-new', -1);
    const before = leaves(big);
    const changed = leaves(next).filter((leaf, slot) => leaf !== before[slot]);
    expect(changed).toHaveLength(1);
    expect(Object.keys(changed[0] ?? {}).length).toBeLessThan(20);
    expect(copiedSlots(big, next)).toEqual({ groups: 1, leaves: 1 });
    expect(indexGet(next, 'customer-new')).toBe(-1);
    expect(indexGet(big, 'customer-new')).toBeUndefined();

    const removed = indexDelete(next, 'customer-7');
    expect(copiedSlots(next, removed)).toEqual({ groups: 1, leaves: 1 });
    expect(indexGet(removed, 'customer-7')).toBeUndefined();
    expect(indexGet(next, 'customer-7')).toBe(7);
    expect(indexGet(removed, 'customer-8')).toBe(8);
  });
});
