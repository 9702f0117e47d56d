import { fc, test } from '@fast-check/vitest';
import { produce } from 'immer';
import { describe, expect } from 'vitest';
import {
  CHUNK_SIZE,
  emptyIndex,
  emptyList,
  emptyTable,
  indexDeleteInPlace,
  indexGet,
  indexSetInPlace,
  listAppend,
  listFromArray,
  listGet,
  listLowerBound,
  listRange,
  listRangeReverse,
  listSet,
  listToArray,
  type MutableShardedIndex,
  type MutableTable,
  nextId,
  type ShardedIndex,
  type Table,
  tableGet,
  tableInsertInPlace,
  tableOverwriteInPlace,
  tableRows,
  tableSetInPlace,
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

  test('ids are sequential, rows are found by id, null marks a deleted row', () => {
    const table = emptyTable<Row>() as MutableTable<Row>;
    expect(nextId(table)).toBe(1);
    tableInsertInPlace(table, { id: 1, name: 'a' });
    tableInsertInPlace(table, { id: 2, name: 'b' });
    expect(tableGet(table, 2)).toEqual({ id: 2, name: 'b' });
    expect([tableGet(table, 0), tableGet(table, 3), tableGet(table, 1.5)]).toEqual([
      undefined,
      undefined,
      undefined,
    ]);
    expect(() => tableInsertInPlace(table, { id: 5, name: 'x' })).toThrow(InvariantError);
    expect(() => tableSetInPlace(table, { id: 3, name: 'x' })).toThrow(InvariantError);
  });

  test('a change through immer copies one chunk and leaves the old state alone', () => {
    const table = emptyTable<Row>() as MutableTable<Row>;
    for (let id = 1; id <= 2500; id += 1) tableInsertInPlace(table, { id, name: `row ${id}` });
    const state = produce({ table: table as Table<Row> }, () => {});
    const next = produce(state, (draft) => {
      tableSetInPlace(draft.table as MutableTable<Row>, { id: 1500, name: 'changed' });
    });
    expect(tableGet(next.table, 1500)?.name).toBe('changed');
    expect(tableGet(state.table, 1500)?.name).toBe('row 1500');
    expect(next.table.rows.chunks[0]).toBe(state.table.rows.chunks[0]);
    expect(next.table.rows.chunks[2]).toBe(state.table.rows.chunks[2]);
    expect(next.table.rows.chunks[1]).not.toBe(state.table.rows.chunks[1]);
    expect([...tableRows(next.table)]).toHaveLength(2500);
    expect(Object.isFrozen(next.table.rows.chunks[1])).toBe(true);
  });

  test('an overwrite through immer replaces or deletes a row without making a draft of the old one', () => {
    const table = emptyTable<Row>() as MutableTable<Row>;
    for (let id = 1; id <= 1500; id += 1) tableInsertInPlace(table, Object.freeze({ id, name: `row ${id}` }));
    const state = { table: table as Table<Row> };
    const next = produce(state, (draft) => {
      const rows = draft.table as MutableTable<Row>;
      tableOverwriteInPlace(rows, 1200, { id: 1200, name: 'changed' });
      tableOverwriteInPlace(rows, 7, null);
    });
    expect(tableGet(next.table, 1200)).toEqual({ id: 1200, name: 'changed' });
    expect(tableGet(next.table, 7)).toBeUndefined();
    expect(next.table.count).toBe(1499);
    expect(tableGet(state.table, 7)).toEqual({ id: 7, name: 'row 7' });
    expect(state.table.count).toBe(1500);
    expect([...tableRows(next.table)].map((row) => row.id)).toHaveLength(1499);
    expect(() => tableOverwriteInPlace(table, 1501, { id: 1501, name: 'beyond' })).toThrow(InvariantError);
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
    const index = emptyIndex<number>() as MutableShardedIndex<number>;
    for (const k of DANGEROUS) expect(indexGet(index, k)).toBeUndefined();
    DANGEROUS.forEach((k, i) => {
      indexSetInPlace(index, k, i);
    });
    DANGEROUS.forEach((k, i) => {
      expect(indexGet(index, k)).toBe(i);
    });
    expect(prototypeNames()).toEqual(before);
    expect(({} as Record<string, unknown>)['polluted']).toBeUndefined();
    expect(typeof ({} as { toString: unknown }).toString).toBe('function');
    for (const group of index.groups)
      for (const leaf of group ?? [])
        if (leaf !== null) expect(Object.getPrototypeOf(leaf)).toBe(Object.prototype);
    indexDeleteInPlace(index, '__proto__');
    expect(indexGet(index, '__proto__')).toBeUndefined();
    expect(indexGet(index, 'constructor')).toBe(1);
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
        // Through immer, as evolve does.
        index = produce(index, (draft) => {
          if (o.kind === 'set') indexSetInPlace(draft as MutableShardedIndex<number>, o.key, o.value);
          else indexDeleteInPlace(draft as MutableShardedIndex<number>, o.key);
        });
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
