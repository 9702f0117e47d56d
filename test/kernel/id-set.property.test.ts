import { fc, test } from '@fast-check/vitest';
import { describe, expect } from 'vitest';
import {
  EMPTY_ID_SET,
  type IdNode,
  type IdSet,
  idSetAdd,
  idSetDelete,
  idSetFrom,
  idSetHas,
  idSetRank,
  idSetsValues,
  idSetToArray,
  idSetValues,
} from '../../src/kernel/id-set.js';
import { InvariantError } from '../../src/kernel/invariant.js';

const range = (from: number, to: number): number[] => Array.from({ length: to - from }, (_, i) => from + i);

/** The model's page: `count` ids from `position` of the ascending (or descending) sorted ids. */
const modelPage = (ids: readonly number[], position: number, count: number, descending: boolean) =>
  (descending ? [...ids].reverse() : [...ids]).slice(position, position + count);

const take = (values: Iterable<number>, count: number): number[] => {
  const taken: number[] = [];
  if (count <= 0) return taken;
  for (const value of values) {
    taken.push(value);
    if (taken.length >= count) break;
  }
  return taken;
};

/** Every broken structural rule of a set: counts, digit order, leaf bounds, least height, empty nodes. */
function shapeProblems(set: IdSet): string[] {
  const problems: string[] = [];
  const fail = (problem: string) => problems.push(problem);
  if (set.root === null) {
    if (set.size !== 0 || set.height !== 0) fail('an empty set with a size or a height');
    return problems;
  }
  const walk = (node: IdNode, height: number, low: number): number => {
    const span = 256 * 64 ** height;
    if ('ids' in node) {
      if (height !== 0) fail(`a leaf at height ${height}`);
      if (node.ids.length === 0 || node.ids.length > 256) fail(`a leaf of ${node.ids.length}`);
      node.ids.forEach((id, i) => {
        if (id < low || id >= low + span) fail(`id ${id} outside its leaf's block at ${low}`);
        if (i > 0 && id <= (node.ids[i - 1] as number)) fail(`ids out of order at ${id}`);
      });
      return node.ids.length;
    }
    if (height === 0) fail('a branch at height 0');
    if (node.digits.length === 0) fail('an empty branch');
    if (node.counts.length !== node.digits.length || node.children.length !== node.digits.length)
      fail('a branch with arrays of different lengths');
    let total = 0;
    node.digits.forEach((digit, i) => {
      if (i > 0 && digit <= (node.digits[i - 1] as number)) fail(`digits out of order at ${digit}`);
      if (digit < 0 || digit >= 64) fail(`digit ${digit}`);
      const count = walk(node.children[i] as IdNode, height - 1, low + (digit * span) / 64);
      if (node.counts[i] !== count) fail(`count ${node.counts[i]} of a child holding ${count}`);
      total += count;
    });
    return total;
  };
  if (walk(set.root, set.height, 0) !== set.size) fail('a size that is not the number of ids');
  // The least height: a branch root holds something beyond its first child's span.
  if (!('ids' in set.root) && set.root.digits.every((digit) => digit === 0))
    fail('a root that could come down');
  return problems;
}

const checkShape = (set: IdSet): void => {
  expect(shapeProblems(set)).toEqual([]);
};

type Op = { readonly add: boolean; readonly id: number };

/** Ids that crowd a few leaves, spread over several, and jump heights. */
const idArb = fc.oneof(
  { weight: 4, arbitrary: fc.integer({ min: 0, max: 1200 }) },
  { weight: 2, arbitrary: fc.integer({ min: 0, max: 70_000 }) },
  { weight: 1, arbitrary: fc.integer({ min: 0, max: Number.MAX_SAFE_INTEGER }) },
);
const opsArb = fc.array(fc.record({ add: fc.boolean(), id: idArb }), { maxLength: 300 });

/** Applies operations to a set and to a sorted-array model, keeping every version of both. */
function run(ops: readonly Op[], start: readonly number[] = []) {
  let set = idSetFrom(start);
  let model = [...new Set(start)].sort((a, b) => a - b);
  const versions: { set: IdSet; model: number[] }[] = [{ set, model }];
  for (const { add, id } of ops) {
    const before = set;
    set = add ? idSetAdd(set, id) : idSetDelete(set, id);
    const had = model.includes(id);
    if (add && !had) model = [...model, id].sort((a, b) => a - b);
    if (!add && had) model = model.filter((other) => other !== id);
    // No change gives back the very same set.
    if (add === had) expect(set).toBe(before);
    versions.push({ set, model });
  }
  return versions;
}

describe('IdSet examples', () => {
  test('empty set', () => {
    expect(EMPTY_ID_SET.size).toBe(0);
    expect(idSetToArray(EMPTY_ID_SET)).toEqual([]);
    expect([...idSetValues(EMPTY_ID_SET, 0, true)]).toEqual([]);
    expect(idSetHas(EMPTY_ID_SET, 0)).toBe(false);
    expect(idSetRank(EMPTY_ID_SET, 10)).toBe(0);
    expect(idSetDelete(EMPTY_ID_SET, 3)).toBe(EMPTY_ID_SET);
  });

  test('100,000 ids: height 2, leaves of 256, a page from any offset', () => {
    const ids = range(1, 100_001);
    const set = idSetFrom(ids);
    expect(set.size).toBe(100_000);
    expect(set.height).toBe(2);
    checkShape(set);
    expect(take(idSetValues(set, 54_321), 5)).toEqual([54_322, 54_323, 54_324, 54_325, 54_326]);
    expect(take(idSetValues(set, 54_321, true), 3)).toEqual([45_679, 45_678, 45_677]);
    expect(take(idSetValues(set, 99_999), 5)).toEqual([100_000]);
    expect(take(idSetValues(set, 100_000), 5)).toEqual([]);
    expect(idSetRank(set, 50_000)).toBe(49_999);
    expect(idSetRank(set, 1e12)).toBe(100_000);
  });

  test('an add or a delete copies one leaf and one branch per level, sharing the rest', () => {
    const set = idSetFrom(range(1, 100_001));
    const next = idSetAdd(idSetDelete(set, 70_000), 200_000);
    const root = set.root as Exclude<IdNode, { ids: readonly number[] }>;
    const nextRoot = next.root as Exclude<IdNode, { ids: readonly number[] }>;
    const shared = root.children.filter((child, i) => nextRoot.children[i] === child).length;
    expect(shared).toBe(root.children.length - 1);
    // The old version is unchanged.
    expect(idSetHas(set, 70_000)).toBe(true);
    expect(idSetHas(set, 200_000)).toBe(false);
    expect(idSetHas(next, 70_000)).toBe(false);
    expect(idSetHas(next, 200_000)).toBe(true);
    expect(next.size).toBe(100_000);
  });

  test('the height grows for a large id and comes back down when it goes', () => {
    const small = idSetFrom([1, 2, 3]);
    expect(small.height).toBe(0);
    const tall = idSetAdd(small, 2 ** 40);
    expect(tall.height).toBeGreaterThan(3);
    checkShape(tall);
    expect(idSetDelete(tall, 2 ** 40)).toStrictEqual(small);
  });

  test('the shape check sees a broken set', () => {
    const set = idSetFrom([1, 300]);
    expect(shapeProblems(set)).toEqual([]);
    expect(shapeProblems({ ...set, size: 3 })).toEqual(['a size that is not the number of ids']);
    expect(
      shapeProblems({ size: 1, height: 1, root: { digits: [0], counts: [1], children: [{ ids: [1] }] } }),
    ).toEqual(['a root that could come down']);
  });

  test('refuses ids that are not non-negative safe integers', () => {
    for (const id of [-1, 1.5, Number.NaN, 2 ** 53])
      expect(() => idSetAdd(EMPTY_ID_SET, id)).toThrow(InvariantError);
    expect(idSetDelete(idSetFrom([1]), -1).size).toBe(1);
    expect(idSetHas(idSetFrom([1]), 1.5)).toBe(false);
  });

  test('the union of disjoint sets pages in order, both ways', () => {
    const odd = idSetFrom(range(0, 3000).filter((id) => id % 2 === 1));
    const tens = idSetFrom(range(0, 100_000).filter((id) => id % 10 === 0));
    const union = [
      ...range(0, 3000).filter((id) => id % 2 === 1 || id % 10 === 0),
      ...range(3000, 100_000).filter((id) => id % 10 === 0),
    ];
    expect(take(idSetsValues([odd, tens], 0), 6)).toEqual(union.slice(0, 6));
    expect(take(idSetsValues([odd, tens], 1700), 20)).toEqual(union.slice(1700, 1720));
    expect(take(idSetsValues([odd, tens, EMPTY_ID_SET], 1700, true), 20)).toEqual(
      [...union].reverse().slice(1700, 1720),
    );
    expect(take(idSetsValues([], 0), 3)).toEqual([]);
    expect(take(idSetsValues([odd, tens], union.length), 3)).toEqual([]);
  });
});

describe('IdSet against a sorted array', () => {
  test.prop([opsArb])('adds and deletes: the same ids, size, membership and ranks; a valid shape', (ops) => {
    for (const { set, model } of run(ops)) {
      expect(idSetToArray(set)).toEqual(model);
      expect(set.size).toBe(model.length);
      checkShape(set);
    }
    const last = run(ops).at(-1) as { set: IdSet; model: number[] };
    for (const { id } of ops) {
      expect(idSetHas(last.set, id)).toBe(last.model.includes(id));
      expect(idSetRank(last.set, id)).toBe(last.model.filter((other) => other < id).length);
      expect(idSetRank(last.set, id + 1)).toBe(last.model.filter((other) => other <= id).length);
    }
  });

  test.prop([opsArb, opsArb])(
    'a batch (owned nodes changed in place) ends where one version per write ends, and leaves the set it started from as it was',
    (before, batch) => {
      const start = run(before).at(-1) as { set: IdSet; model: number[] };
      const startText = JSON.stringify(start.set);
      const owned = new Set<object>();
      let inPlace = start.set;
      let copied = start.set;
      for (const { add, id } of batch) {
        inPlace = add ? idSetAdd(inPlace, id, owned) : idSetDelete(inPlace, id, owned);
        copied = add ? idSetAdd(copied, id) : idSetDelete(copied, id);
        expect(idSetToArray(inPlace)).toEqual(idSetToArray(copied));
        checkShape(inPlace);
      }
      expect(inPlace).toStrictEqual(copied);
      expect(JSON.stringify(start.set)).toBe(startText);
      expect(idSetToArray(start.set)).toEqual(start.model);
    },
  );

  test.prop([opsArb])('every earlier version still holds what it held', (ops) => {
    const versions = run(ops);
    for (const { set, model } of versions) expect(idSetToArray(set)).toEqual(model);
  });

  test.prop([
    fc.uniqueArray(fc.integer({ min: 0, max: 5000 }), { maxLength: 1500 }),
    fc.nat(1600),
    fc.integer({ min: 0, max: 300 }),
    fc.boolean(),
  ])(
    'a page from any position, either way, is the slice of the sorted ids',
    (ids, position, count, descending) => {
      const set = idSetFrom(ids);
      const sorted = [...ids].sort((a, b) => a - b);
      expect(take(idSetValues(set, position, descending), count)).toEqual(
        modelPage(sorted, position, count, descending),
      );
    },
  );

  test.prop([opsArb, fc.nat(400), fc.integer({ min: 1, max: 50 }), fc.boolean()])(
    'pages after adds and deletes match the model',
    (ops, position, count, descending) => {
      const { set, model } = run(ops, range(0, 700)).at(-1) as { set: IdSet; model: number[] };
      expect(take(idSetValues(set, position, descending), count)).toEqual(
        modelPage(model, position, count, descending),
      );
    },
  );

  test.prop([fc.uniqueArray(idArb, { maxLength: 400 }), fc.uniqueArray(idArb, { maxLength: 400 })])(
    'the shape depends only on the ids held, not on the order they came and went in',
    (ids, extra) => {
      const direct = idSetFrom(ids);
      const reversed = idSetFrom([...ids].reverse());
      let roundabout = idSetFrom([...extra, ...ids]);
      for (const id of extra) if (!ids.includes(id)) roundabout = idSetDelete(roundabout, id);
      expect(reversed).toStrictEqual(direct);
      expect(roundabout).toStrictEqual(direct);
      expect(JSON.stringify(roundabout)).toBe(JSON.stringify(direct));
    },
  );

  test.prop([
    fc.uniqueArray(fc.integer({ min: 0, max: 20_000 }), { maxLength: 1500 }),
    fc.integer({ min: 1, max: 5 }),
    fc.nat(1600),
    fc.integer({ min: 0, max: 120 }),
    fc.boolean(),
  ])('the union of disjoint sets pages as the sorted union', (ids, parts, position, count, descending) => {
    const sets = Array.from({ length: parts }, (_, part) =>
      idSetFrom(ids.filter((_, index) => index % parts === part)),
    );
    const sorted = [...ids].sort((a, b) => a - b);
    expect(take(idSetsValues(sets, position, descending), count)).toEqual(
      modelPage(sorted, position, count, descending),
    );
  });
});
