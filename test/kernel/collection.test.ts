import { fc, test } from '@fast-check/vitest';
import { describe, expect } from 'vitest';
import {
  CHUNK_SIZE,
  emptyIndex,
  emptyList,
  emptyTable,
  indexDelete,
  indexGet,
  indexSet,
  listAppend,
  listFromArray,
  listGet,
  listLowerBound,
  listRange,
  listRangeReverse,
  listSet,
  listToArray,
  nextId,
  type ShardedIndex,
  type Table,
  tableGet,
  tableInsert,
  tableReplace,
  tableRows,
} from '../../src/kernel/collection.js';
import { InvariantError } from '../../src/kernel/invariant.js';

const range = (n: number): number[] => Array.from({ length: n }, (_, i) => i);

describe('ChunkedList examples', () => {
  test('chunks of CHUNK_SIZE around the boundaries', () => {
    expect(CHUNK_SIZE).toBe(1000);
    for (const n of [0, 1, 999, 1000, 1001, 2000, 2001]) {
      const list = listFromArray(range(n));
      expect(list.length).toBe(n);
      expect(list.chunks.map((chunk) => chunk.length)).toEqual(
        range(Math.ceil(n / CHUNK_SIZE)).map((k) => Math.min(CHUNK_SIZE, n - k * CHUNK_SIZE)),
      );
      expect(listToArray(list)).toEqual(range(n));
    }
    const grown = listAppend(listFromArray(range(1000)), 1000);
    expect(grown.chunks.map((chunk) => chunk.length)).toEqual([1000, 1]);
  });

  test('get, set and ranges', () => {
    const list = listFromArray(range(2001));
    expect([listGet(list, 0), listGet(list, 999), listGet(list, 1000), listGet(list, 2000)]).toEqual([
      0, 999, 1000, 2000,
    ]);
    expect([listGet(list, -1), listGet(list, 2001), listGet(list, 1.5)]).toEqual([
      undefined,
      undefined,
      undefined,
    ]);
    expect([...listRange(list, 998, 1002)]).toEqual([998, 999, 1000, 1001]);
    expect([...listRange(list, 1999, 5000)]).toEqual([1999, 2000]);
    expect([...listRange(list, 5, 5)]).toEqual([]);
    expect([...listRangeReverse(list, 1001, 997)]).toEqual([1001, 1000, 999, 998]);
    expect([...listRangeReverse(list, 1)]).toEqual([1, 0]);
    expect([...listRangeReverse(emptyList<number>())]).toEqual([]);
    const changed = listSet(list, 1000, -1);
    expect(listGet(changed, 1000)).toBe(-1);
    expect(listGet(list, 1000)).toBe(1000);
    expect(changed.chunks[0]).toBe(list.chunks[0]);
    expect(changed.chunks[2]).toBe(list.chunks[2]);
    expect(() => listSet(list, 2001, 0)).toThrow(InvariantError);
    expect(() => listSet(list, -1, 0)).toThrow(InvariantError);
  });

  test('state stays plain JSON', () => {
    const list = listAppend(listFromArray(range(1500)), 7);
    expect(JSON.parse(JSON.stringify(list))).toEqual(list);
  });
});

describe('listLowerBound', () => {
  test('examples', () => {
    const list = listFromArray([1, 3, 3, 3, 7]);
    const id = (x: number) => x;
    expect([0, 1, 2, 3, 4, 7, 8].map((t) => listLowerBound(list, t, id))).toEqual([0, 0, 1, 1, 4, 4, 5]);
    expect(listLowerBound(emptyList<number>(), 3, id)).toBe(0);
    const words = listFromArray([{ at: '2026-01-01' }, { at: '2026-02-01' }]);
    expect(listLowerBound(words, '2026-01-15', (w) => w.at)).toBe(1);
  });

  test.prop([
    fc.array(fc.integer({ min: 0, max: 60 }), { maxLength: 2600 }),
    fc.integer({ min: -1, max: 61 }),
  ])('law: listLowerBound is the first index whose key is not below the target', (values, target) => {
    const sorted = [...values].sort((a, b) => a - b);
    const expected = sorted.findIndex((x) => x >= target);
    expect(listLowerBound(listFromArray(sorted), target, (x) => x)).toBe(
      expected === -1 ? sorted.length : expected,
    );
  });
});

describe('Table examples', () => {
  interface Row {
    readonly id: number;
    readonly name: string;
  }

  /** A table of `count` rows, every array and row frozen as a state shared with earlier versions is. */
  function frozenTable(count: number): Table<Row> {
    let table = emptyTable<Row>();
    for (let id = 1; id <= count; id += 1)
      table = tableInsert(table, Object.freeze({ id, name: `row ${id}` }));
    for (const chunk of table.rows.chunks) Object.freeze(chunk);
    Object.freeze(table.rows.chunks);
    return Object.freeze({ rows: Object.freeze(table.rows), count: table.count });
  }

  test('ids are sequential, rows are found by id, null marks a deleted row', () => {
    const empty = emptyTable<Row>();
    expect(nextId(empty)).toBe(1);
    const one = tableInsert(empty, { id: 1, name: 'a' });
    const table = tableInsert(one, { id: 2, name: 'b' });
    expect(nextId(table)).toBe(3);
    expect(table.count).toBe(2);
    expect(tableGet(table, 2)).toEqual({ id: 2, name: 'b' });
    expect([tableGet(table, 0), tableGet(table, 3), tableGet(table, 1.5)]).toEqual([
      undefined,
      undefined,
      undefined,
    ]);
    // The earlier versions still hold what they held.
    expect([nextId(empty), empty.count, nextId(one), one.count, tableGet(one, 2)]).toEqual([
      1,
      0,
      2,
      1,
      undefined,
    ]);
    expect(() => tableInsert(table, { id: 5, name: 'x' })).toThrow(InvariantError);
    expect(() => tableInsert(table, { id: 2, name: 'x' })).toThrow(InvariantError);
    expect(() => tableReplace(table, 3, { id: 3, name: 'x' })).toThrow(InvariantError);
    expect(() => tableReplace(table, 0, null)).toThrow(InvariantError);
  });

  test('a replacement copies one chunk and leaves the old table alone', () => {
    const table = frozenTable(2500);
    // Frozen input: any write to the old version would throw here (ES modules are strict).
    const next = tableReplace(table, 1500, { id: 1500, name: 'changed' });
    expect(tableGet(next, 1500)?.name).toBe('changed');
    expect(tableGet(table, 1500)?.name).toBe('row 1500');
    expect(next.rows.chunks[0]).toBe(table.rows.chunks[0]);
    expect(next.rows.chunks[2]).toBe(table.rows.chunks[2]);
    expect(next.rows.chunks[1]).not.toBe(table.rows.chunks[1]);
    expect(next.count).toBe(2500);
    expect([...tableRows(next)]).toHaveLength(2500);
  });

  test('replacing with null deletes a row: its id is never reused nor replaceable again', () => {
    const table = frozenTable(1500);
    const deleted = tableReplace(table, 7, null);
    expect(tableGet(deleted, 7)).toBeUndefined();
    expect(deleted.count).toBe(1499);
    expect(nextId(deleted)).toBe(1501);
    expect(deleted.rows.chunks[1]).toBe(table.rows.chunks[1]);
    expect(tableGet(table, 7)).toEqual({ id: 7, name: 'row 7' });
    expect(table.count).toBe(1500);
    expect([...tableRows(deleted)].map((row) => row.id)).toHaveLength(1499);
    expect(() => tableReplace(deleted, 7, { id: 7, name: 'back' })).toThrow(InvariantError);
    expect(() => tableReplace(deleted, 7, null)).toThrow(InvariantError);
    expect(() => tableReplace(table, 1501, { id: 1501, name: 'beyond' })).toThrow(InvariantError);
    expect(() => tableInsert(deleted, { id: 7, name: 'reused' })).toThrow(InvariantError);
  });
});

describe('ShardedIndex', () => {
  const DANGEROUS = [
    '__proto__',
    'constructor',
    'prototype',
    'toString',
    'hasOwnProperty',
    'valueOf',
    '',
    'k:',
    'k:x',
  ];
  const key = fc.oneof(fc.constantFrom(...DANGEROUS), fc.string({ maxLength: 8 }));
  const prototypeNames = () => Object.getOwnPropertyNames(Object.prototype).sort();

  test('dangerous keys are plain keys and Object.prototype is untouched', () => {
    const before = prototypeNames();
    const empty = emptyIndex<number>();
    for (const k of DANGEROUS) expect(indexGet(empty, k)).toBeUndefined();
    const index = DANGEROUS.reduce((built, k, i) => indexSet(built, k, i), empty);
    for (const k of DANGEROUS) expect(indexGet(empty, k)).toBeUndefined();
    DANGEROUS.forEach((k, i) => {
      expect(indexGet(index, k)).toBe(i);
    });
    expect(prototypeNames()).toEqual(before);
    expect(({} as Record<string, unknown>)['polluted']).toBeUndefined();
    expect(typeof ({} as { toString: unknown }).toString).toBe('function');
    for (const group of index.groups)
      for (const leaf of group ?? [])
        if (leaf !== null) expect(Object.getPrototypeOf(leaf)).toBe(Object.prototype);
    const without = indexDelete(index, '__proto__');
    expect(indexGet(without, '__proto__')).toBeUndefined();
    expect(indexGet(without, 'constructor')).toBe(1);
    expect(indexGet(index, '__proto__')).toBe(0);
    expect(prototypeNames()).toEqual(before);
  });

  type Op =
    | { readonly kind: 'set'; readonly key: string; readonly value: number }
    | { readonly kind: 'delete'; readonly key: string };
  const op: fc.Arbitrary<Op> = fc.oneof(
    fc.record({ kind: fc.constant('set' as const), key, value: fc.integer() }),
    fc.record({ kind: fc.constant('delete' as const), key }),
  );

  test.prop([fc.array(op, { maxLength: 200 })])(
    'law: the index agrees with a Map model, survives JSON and never touches Object.prototype',
    (ops) => {
      const before = prototypeNames();
      const model = new Map<string, number>();
      let index: ShardedIndex<number> = emptyIndex<number>();
      for (const o of ops) {
        index = o.kind === 'set' ? indexSet(index, o.key, o.value) : indexDelete(index, o.key);
        if (o.kind === 'set') model.set(o.key, o.value);
        else model.delete(o.key);
      }
      const revived = JSON.parse(JSON.stringify(index)) as ShardedIndex<number>;
      for (const k of new Set([...DANGEROUS, ...ops.map((o) => o.key)])) {
        expect(indexGet(index, k)).toBe(model.get(k));
        expect(indexGet(revived, k)).toBe(model.get(k));
      }
      expect(prototypeNames()).toEqual(before);
    },
  );
});
