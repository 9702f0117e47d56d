/**
 * Model-based tests of kernel/collection.ts: random command sequences run the pure updates against a
 * plain array (or Map) model, crossing chunk boundaries (CHUNK_SIZE is 1000). Every update is also
 * checked to leave the version it came from exactly as it was and to share every chunk it did not touch.
 */

import { fc, test } from '@fast-check/vitest';
import { describe, expect } from 'vitest';
import {
  CHUNK_SIZE,
  type ChunkedList,
  emptyTable,
  listAppend,
  listFromArray,
  listGet,
  listRange,
  listRangeReverse,
  listSet,
  listToArray,
  nextId,
  type Table,
  tableGet,
  tableInsert,
  tableReplace,
  tableRows,
  tableRowsReverse,
} from '../../src/kernel/collection.js';
import { InvariantError } from '../../src/kernel/invariant.js';

/** The new list has its own array of chunks, a new copy of chunk `touched` and every other chunk shared. */
function expectSharesUntouched<T>(before: ChunkedList<T>, after: ChunkedList<T>, touched: number): void {
  expect(after.chunks).not.toBe(before.chunks);
  before.chunks.forEach((chunk, k) => {
    if (k === touched) expect(after.chunks[k]).not.toBe(chunk);
    else expect(after.chunks[k]).toBe(chunk);
  });
}

/**
 * Runs a pure update of a list, checking that the list it came from still equals a deep snapshot taken
 * before (its JSON: collections are plain JSON by contract) and that only chunk `touched` was copied.
 */
function persistently<T>(
  before: ChunkedList<T>,
  update: () => ChunkedList<T>,
  touched: number,
): ChunkedList<T> {
  const snapshot = JSON.stringify(before);
  const after = update();
  expect(JSON.stringify(before)).toBe(snapshot);
  expectSharesUntouched(before, after, touched);
  return after;
}

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

function listCommands(): fc.Arbitrary<ListCommand>[] {
  const value = fc.integer({ min: -1e6, max: 1e6 });
  const position = fc.integer({ min: -5, max: 2100 });
  return [
    fc.tuple(value, fc.integer({ min: 1, max: 1100 })).map(
      ([first, count]): ListCommand => ({
        check: () => true,
        run: (model, real) => {
          for (let i = 0; i < count; i += 1) {
            const before = real.list;
            const append = () => listAppend(before, first + i);
            model.items.push(first + i);
            // A deep snapshot per append would make a long run quadratic: the first and last are checked.
            const checked = i === 0 || i === count - 1;
            real.list = checked
              ? persistently(before, append, Math.floor(before.length / CHUNK_SIZE))
              : append();
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
          const before = real.list;
          real.list = persistently(
            before,
            () => listSet(before, index, item),
            Math.floor(index / CHUNK_SIZE),
          );
          expectWellFormed(real.list, model);
        },
        toString: () => `set ${at} ${item}`,
      }),
    ),
    fc.oneof(fc.integer({ min: -3, max: 2100 }), fc.constantFrom(0.5, Number.NaN)).map(
      (index): ListCommand => ({
        check: (model) => !(Number.isInteger(index) && index >= 0 && index < model.items.length),
        run: (model, real) => {
          const snapshot = JSON.stringify(real.list);
          expect(() => listSet(real.list, index, 0)).toThrow(InvariantError);
          expect(JSON.stringify(real.list)).toBe(snapshot);
          expectWellFormed(real.list, model);
        },
        toString: () => `set out of range ${index}`,
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

describe('ChunkedList against an array model', () => {
  test.prop([initialLength, fc.commands(listCommands(), { maxCommands: 30 })], { numRuns: 80 })(
    'law: every command sequence agrees with the array model, and each update leaves the old list intact',
    (length, commands) => {
      const items = Array.from({ length }, (_, i) => i * 3);
      const list = listFromArray(items);
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
interface RealTable {
  table: Table<Row>;
}
type TableCommand = fc.Command<TableModel, RealTable>;

function expectTableMatches(model: TableModel, table: Table<Row>): void {
  const live = [...model.rows.values()].sort((a, b) => a.id - b.id);
  expect(table.count).toBe(model.rows.size);
  expect(nextId(table)).toBe(model.next);
  expect([...tableRows(table)]).toEqual(live);
  expect([...tableRowsReverse(table)]).toEqual(live.reverse());
}

/** A pure table update, checked like a list one: the old table intact, only the row's chunk copied. */
function persistentTable(before: Table<Row>, update: () => Table<Row>, id: number): Table<Row> {
  const snapshot = JSON.stringify(before);
  const after = update();
  expect(JSON.stringify(before)).toBe(snapshot);
  expectSharesUntouched(before.rows, after.rows, Math.floor((id - 1) / CHUNK_SIZE));
  return after;
}

const livePick = (model: TableModel, pick: number): number =>
  [...model.rows.keys()][pick % model.rows.size] ?? 0;

const tableCommands: fc.Arbitrary<TableCommand>[] = [
  fc.tuple(fc.string({ maxLength: 5 }), fc.integer({ min: 1, max: 400 })).map(
    ([name, count]): TableCommand => ({
      check: () => true,
      run: (model, real) => {
        for (let i = 0; i < count; i += 1) {
          const row = { id: model.next, name };
          const before = real.table;
          expect(() => tableInsert(before, { id: model.next + 1, name })).toThrow(InvariantError);
          expect(() => tableInsert(before, { id: model.next - 1, name })).toThrow(InvariantError);
          const insert = () => tableInsert(before, row);
          // Checked on the first and last insert of the batch (a snapshot per insert would be quadratic).
          real.table = i === 0 || i === count - 1 ? persistentTable(before, insert, row.id) : insert();
          model.rows.set(row.id, row);
          model.next += 1;
        }
        expectTableMatches(model, real.table);
      },
      toString: () => `insert ${count} × ${JSON.stringify(name)}`,
    }),
  ),
  fc.tuple(fc.nat(), fc.string({ maxLength: 5 })).map(
    ([pick, name]): TableCommand => ({
      check: (model) => model.rows.size > 0,
      run: (model, real) => {
        const id = livePick(model, pick);
        const previous = model.rows.get(id);
        const before = real.table;
        real.table = persistentTable(before, () => tableReplace(before, id, { id, name }), id);
        expect(tableGet(before, id)).toEqual(previous);
        model.rows.set(id, { id, name });
        expect(() => tableReplace(real.table, model.next, { id: model.next, name })).toThrow(InvariantError);
        expectTableMatches(model, real.table);
      },
      toString: () => `replace #${pick} ${JSON.stringify(name)}`,
    }),
  ),
  fc.nat().map(
    (pick): TableCommand => ({
      check: (model) => model.rows.size > 0,
      run: (model, real) => {
        const id = livePick(model, pick);
        const before = real.table;
        real.table = persistentTable(before, () => tableReplace(before, id, null), id);
        expect(tableGet(before, id)).toEqual(model.rows.get(id));
        model.rows.delete(id);
        expect(() => tableReplace(real.table, id, null)).toThrow(InvariantError);
        expect(() => tableReplace(real.table, id, { id, name: 'ghost' })).toThrow(InvariantError);
        expectTableMatches(model, real.table);
      },
      toString: () => `delete #${pick}`,
    }),
  ),
  fc.oneof(fc.integer({ min: -2, max: 2500 }), fc.constantFrom(0.5, Number.NaN)).map(
    (id): TableCommand => ({
      check: () => true,
      run: (model, real) => {
        expect(tableGet(real.table, id)).toEqual(model.rows.get(id));
      },
      toString: () => `get ${id}`,
    }),
  ),
];

describe('Table against a Map model', () => {
  test.prop([initialLength, fc.commands(tableCommands, { maxCommands: 40 })], { numRuns: 50 })(
    'law: insert/get/replace/delete/rows agree with the Map model, ids never reused, old versions intact',
    (length, commands) => {
      const rows = Array.from({ length }, (_, i): Row => ({ id: i + 1, name: `row ${i + 1}` }));
      const table = rows.reduce((built, row) => tableInsert(built, row), emptyTable<Row>());
      expectTableMatches({ rows: new Map(rows.map((row) => [row.id, row])), next: length + 1 }, table);
      fc.modelRun(
        () => ({
          model: { rows: new Map(rows.map((row) => [row.id, row])), next: length + 1 },
          real: { table },
        }),
        commands,
      );
    },
  );
});
