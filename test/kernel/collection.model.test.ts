/**
 * Model-based tests of kernel/collection.ts: random command sequences run against the structure and a
 * plain array (or Map) model, crossing chunk boundaries (CHUNK_SIZE is 1000).
 */

import { fc, test } from '@fast-check/vitest';
import { produce } from 'immer';
import { describe, expect } from 'vitest';
import {
  CHUNK_SIZE,
  type ChunkedList,
  emptyTable,
  listAppend,
  listFromArray,
  listGet,
  listPushInPlace,
  listRange,
  listRangeReverse,
  listSet,
  listSetInPlace,
  listToArray,
  type MutableChunkedList,
  type MutableTable,
  nextId,
  tableDeleteInPlace,
  tableGet,
  tableInsertInPlace,
  tableRows,
  tableRowsReverse,
  tableSetInPlace,
} from '../../src/kernel/collection.js';
import { InvariantError } from '../../src/kernel/invariant.js';

/** How a flavour appends and replaces: returns the list after the change. */
interface Flavour {
  readonly name: string;
  readonly from: (items: number[]) => ChunkedList<number>;
  readonly push: (list: ChunkedList<number>, item: number) => ChunkedList<number>;
  readonly set: (list: ChunkedList<number>, index: number, item: number) => ChunkedList<number>;
  /** Whether the list before a change is left as it was (and shares untouched chunks). */
  readonly persistent: boolean;
}

const mutable = (list: ChunkedList<number>) => list as MutableChunkedList<number>;
const FLAVOURS: readonly Flavour[] = [
  { name: 'pure', from: listFromArray, push: listAppend, set: listSet, persistent: true },
  {
    name: 'in place',
    from: (items) => mutable(listFromArray(items)),
    push: (list, item) => {
      listPushInPlace(mutable(list), item);
      return list;
    },
    set: (list, index, item) => {
      listSetInPlace(mutable(list), index, item);
      return list;
    },
    persistent: false,
  },
  {
    name: 'in place through immer',
    from: (items) => produce(listFromArray(items), () => {}),
    push: (list, item) =>
      produce(list, (draft) => listPushInPlace(draft as MutableChunkedList<number>, item)),
    set: (list, index, item) =>
      produce(list, (draft) => listSetInPlace(draft as MutableChunkedList<number>, index, item)),
    persistent: true,
  },
];

interface Model {
  items: number[];
}
interface Real {
  list: ChunkedList<number>;
}
type ListCommand = fc.Command<Model, Real>;

/** The structure's own invariant: every chunk but the last is full, none is empty, lengths agree. */
function expectWellFormed(list: ChunkedList<number>, model: Model): void {
  expect(list.length).toBe(model.items.length);
  list.chunks.forEach((chunk, k) => {
    if (k < list.chunks.length - 1) expect(chunk.length).toBe(CHUNK_SIZE);
    else expect(chunk.length).toBeGreaterThan(0);
  });
  expect(listToArray(list)).toEqual(model.items);
}

/** Runs a change and, for persistent flavours, checks the old version is intact and shares untouched chunks. */
function change(
  flavour: Flavour,
  real: Real,
  model: Model,
  update: () => ChunkedList<number>,
  touched: number,
  verify = true,
) {
  const before = real.list;
  const snapshot = flavour.persistent && verify ? listToArray(before) : [];
  real.list = update();
  if (!flavour.persistent || !verify) return;
  expect(listToArray(before)).toEqual(snapshot);
  before.chunks.forEach((chunk, k) => {
    if (k !== touched) expect(real.list.chunks[k]).toBe(chunk);
  });
  expect(model.items.length).toBe(real.list.length);
}

function listCommands(flavour: Flavour): fc.Arbitrary<ListCommand>[] {
  const value = fc.integer({ min: -1e6, max: 1e6 });
  const position = fc.integer({ min: -5, max: 2100 });
  return [
    fc.tuple(value, fc.integer({ min: 1, max: 1100 })).map(
      ([first, count]): ListCommand => ({
        check: () => true,
        run: (model, real) => {
          for (let i = 0; i < count; i += 1) {
            const touched = Math.floor(real.list.length / CHUNK_SIZE);
            model.items.push(first + i);
            const verify = i === 0 || i === count - 1;
            change(flavour, real, model, () => flavour.push(real.list, first + i), touched, verify);
          }
          expectWellFormed(real.list, model);
        },
        toString: () => `append ${count} from ${first}`,
      }),
    ),
    fc.tuple(fc.nat(), value).map(
      ([at, item]): ListCommand => ({
        check: (model) => model.items.length > 0,
        run: (model, real) => {
          const index = at % model.items.length;
          model.items[index] = item;
          change(
            flavour,
            real,
            model,
            () => flavour.set(real.list, index, item),
            Math.floor(index / CHUNK_SIZE),
          );
          expectWellFormed(real.list, model);
        },
        toString: () => `set ${at} ${item}`,
      }),
    ),
    fc.oneof(position, fc.constantFrom(-1, 0.5, 999.5, Number.NaN, Number.POSITIVE_INFINITY)).map(
      (index): ListCommand => ({
        check: () => true,
        run: (model, real) => {
          const expected = Number.isInteger(index) && index >= 0 ? model.items[index] : undefined;
          expect(listGet(real.list, index)).toBe(expected);
        },
        toString: () => `get ${index}`,
      }),
    ),
    fc.tuple(position, position).map(
      ([start, end]): ListCommand => ({
        check: () => true,
        run: (model, real) => {
          const expected: number[] = [];
          for (let i = Math.max(0, start); i < Math.min(model.items.length, end); i += 1) {
            expected.push(model.items[i] ?? Number.NaN);
          }
          expect([...listRange(real.list, start, end)]).toEqual(expected);
          expect([...listRange(real.list)]).toEqual(model.items);
        },
        toString: () => `range ${start} ${end}`,
      }),
    ),
    fc.tuple(position, position).map(
      ([start, end]): ListCommand => ({
        check: () => true,
        run: (model, real) => {
          const expected: number[] = [];
          for (let i = Math.min(start, model.items.length - 1); i > end && i >= 0; i -= 1) {
            expected.push(model.items[i] ?? Number.NaN);
          }
          expect([...listRangeReverse(real.list, start, end)]).toEqual(expected);
          expect([...listRangeReverse(real.list)]).toEqual([...model.items].reverse());
        },
        toString: () => `rangeReverse ${start} ${end}`,
      }),
    ),
  ];
}

const initialLength = fc.oneof(
  fc.constantFrom(0, 1, 999, 1000, 1001, 1999, 2000, 2001),
  fc.integer({ min: 990, max: 2010 }),
);

describe.each(FLAVOURS)('ChunkedList ($name) against an array model', (flavour) => {
  test.prop([initialLength, fc.commands(listCommands(flavour), { maxCommands: 30 })], { numRuns: 60 })(
    'law: every command sequence agrees with the array model',
    (length, commands) => {
      const items = Array.from({ length }, (_, i) => i * 3);
      const list = flavour.from(items);
      expectWellFormed(list, { items });
      fc.modelRun(() => ({ model: { items: [...items] }, real: { list } }), commands);
    },
  );
});

interface Row {
  readonly id: number;
  readonly name: string;
}
interface TableModel {
  rows: Map<number, Row>;
  next: number;
}
type TableCommand = fc.Command<TableModel, MutableTable<Row>>;

function expectTableMatches(model: TableModel, table: MutableTable<Row>): void {
  const live = [...model.rows.values()].sort((a, b) => a.id - b.id);
  expect(table.count).toBe(model.rows.size);
  expect(nextId(table)).toBe(model.next);
  expect([...tableRows(table)]).toEqual(live);
  expect([...tableRowsReverse(table)]).toEqual(live.reverse());
}

const tableCommands: fc.Arbitrary<TableCommand>[] = [
  fc.tuple(fc.string({ maxLength: 5 }), fc.integer({ min: 1, max: 400 })).map(
    ([name, count]): TableCommand => ({
      check: () => true,
      run: (model, table) => {
        for (let i = 0; i < count; i += 1) {
          const row = { id: model.next, name };
          expect(() => tableInsertInPlace(table, { id: model.next + 1, name })).toThrow(InvariantError);
          tableInsertInPlace(table, row);
          model.rows.set(row.id, row);
          model.next += 1;
        }
        expectTableMatches(model, table);
      },
      toString: () => `insert ${count} × ${JSON.stringify(name)}`,
    }),
  ),
  fc.tuple(fc.nat(), fc.string({ maxLength: 5 })).map(
    ([pick, name]): TableCommand => ({
      check: (model) => model.rows.size > 0,
      run: (model, table) => {
        const id = [...model.rows.keys()][pick % model.rows.size] ?? 0;
        tableSetInPlace(table, { id, name });
        model.rows.set(id, { id, name });
        expectTableMatches(model, table);
      },
      toString: () => `set #${pick} ${JSON.stringify(name)}`,
    }),
  ),
  fc.nat().map(
    (pick): TableCommand => ({
      check: (model) => model.rows.size > 0,
      run: (model, table) => {
        const id = [...model.rows.keys()][pick % model.rows.size] ?? 0;
        tableDeleteInPlace(table, id);
        model.rows.delete(id);
        expect(() => tableDeleteInPlace(table, id)).toThrow(InvariantError);
        expect(() => tableSetInPlace(table, { id, name: 'ghost' })).toThrow(InvariantError);
        expectTableMatches(model, table);
      },
      toString: () => `delete #${pick}`,
    }),
  ),
  fc.oneof(fc.integer({ min: -2, max: 2500 }), fc.constantFrom(0.5, Number.NaN)).map(
    (id): TableCommand => ({
      check: () => true,
      run: (model, table) => {
        expect(tableGet(table, id)).toEqual(model.rows.get(id));
      },
      toString: () => `get ${id}`,
    }),
  ),
];

describe('Table against a Map model', () => {
  test.prop([fc.commands(tableCommands, { maxCommands: 40 })], { numRuns: 80 })(
    'law: insert/get/set/delete/rows agree with the Map model, ids never reused',
    (commands) => {
      const table = emptyTable<Row>() as MutableTable<Row>;
      fc.modelRun(() => ({ model: { rows: new Map(), next: 1 }, real: table }), commands);
    },
  );
});
