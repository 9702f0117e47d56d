import { fc, test } from '@fast-check/vitest';
import { describe, expect } from 'vitest';
import {
  CHUNK_SIZE,
  emptyIndex,
  emptyTable,
  IndexWriter,
  indexDelete,
  indexSet,
  ListWriter,
  listAppend,
  listFromArray,
  listSet,
  type ShardedIndex,
  type Table,
  TableWriter,
  tableInsert,
  tableReplace,
} from '../../src/kernel/collection.js';

type ListOp =
  | { readonly kind: 'set'; readonly at: number; readonly value: number }
  | { readonly kind: 'append'; readonly value: number };

const listOp = fc.oneof(
  fc.record({ kind: fc.constant('set' as const), at: fc.nat(), value: fc.integer() }),
  fc.record({ kind: fc.constant('append' as const), value: fc.integer() }),
);

describe('batch writers: the same result as one pure update after another, the original untouched', () => {
  test.prop([fc.nat({ max: 2 * CHUNK_SIZE + 10 }), fc.array(listOp, { maxLength: 300 })])(
    'ListWriter',
    (size, ops: ListOp[]) => {
      const start = listFromArray(Array.from({ length: size }, (_, i) => i));
      const before = JSON.stringify(start);
      let expected = start;
      const writer = new ListWriter(start);
      for (const op of ops) {
        if (op.kind === 'append') {
          expected = listAppend(expected, op.value);
          writer.append(op.value);
        } else if (expected.length > 0) {
          const at = op.at % expected.length;
          expected = listSet(expected, at, op.value);
          writer.set(at, op.value);
        }
      }
      const result = writer.result();
      expect(result).toEqual(expected);
      expect(JSON.stringify(start)).toBe(before);
      // A new batch over the result leaves it as it was.
      if (result.length > 0) {
        const snapshot = JSON.stringify(result);
        const next = new ListWriter(result);
        next.set(0, -1);
        next.append(-2);
        expect(JSON.stringify(result)).toBe(snapshot);
      }
    },
  );

  test.prop([fc.array(fc.array(listOp, { maxLength: 30 }), { maxLength: 20 })])(
    'one batch over several steps: each step as if alone, the first list untouched',
    (steps) => {
      const start = listFromArray(Array.from({ length: CHUNK_SIZE + 5 }, (_, i) => i));
      const before = JSON.stringify(start);
      const owned = new Set<object>();
      let batched = start;
      let alone = start;
      for (const ops of steps) {
        const writer = new ListWriter(batched, owned);
        for (const op of ops) {
          if (op.kind === 'append') {
            alone = listAppend(alone, op.value);
            writer.append(op.value);
          } else {
            const at = op.at % alone.length;
            alone = listSet(alone, at, op.value);
            writer.set(at, op.value);
          }
        }
        batched = writer.result();
        expect(batched).toEqual(alone);
      }
      expect(JSON.stringify(start)).toBe(before);
    },
  );

  test('1,000 writes to one chunk copy it once', () => {
    const start = listFromArray(Array.from({ length: CHUNK_SIZE * 3 }, (_, i) => i));
    const writer = new ListWriter(start);
    for (let i = 0; i < CHUNK_SIZE; i += 1) writer.set(CHUNK_SIZE + i, -i);
    const result = writer.result();
    expect(result.chunks[0]).toBe(start.chunks[0]);
    expect(result.chunks[2]).toBe(start.chunks[2]);
    expect(result.chunks[1]).not.toBe(start.chunks[1]);
    expect(start.chunks[1]?.[5]).toBe(CHUNK_SIZE + 5);
  });

  test.prop([fc.array(fc.oneof(fc.constant(null), fc.nat()), { maxLength: 400 })])('TableWriter', (ops) => {
    let expected: Table<{ id: number; v: number }> = emptyTable();
    for (let id = 1; id <= 50; id += 1) expected = tableInsert(expected, { id, v: 0 });
    const start = expected;
    const before = JSON.stringify(start);
    const writer = new TableWriter(start);
    for (const op of ops) {
      if (op === null) {
        const id = expected.rows.length + 1;
        expected = tableInsert(expected, { id, v: id });
        writer.insert({ id, v: id });
        continue;
      }
      const id = (op % expected.rows.length) + 1;
      if (writer.get(id) === undefined) continue;
      const row = op % 3 === 0 ? null : { id, v: op };
      expected = tableReplace(expected, id, row);
      writer.replace(id, row);
    }
    expect(writer.result()).toEqual(expected);
    expect(JSON.stringify(start)).toBe(before);
  });

  const indexOp = fc.record({
    key: fc.string({ maxLength: 4 }),
    value: fc.option(fc.integer(), { nil: undefined }),
  });

  test.prop([
    fc.array(fc.string({ maxLength: 4 }), { maxLength: 50 }),
    fc.array(indexOp, { maxLength: 300 }),
  ])('IndexWriter: the same shape as indexSet and indexDelete', (initial, ops) => {
    let expected: ShardedIndex<number> = emptyIndex();
    for (const [n, key] of initial.entries()) expected = indexSet(expected, key, n);
    const start = expected;
    const before = JSON.stringify(start);
    const writer = new IndexWriter(start);
    for (const op of ops) {
      if (op.value === undefined) {
        expected = indexDelete(expected, op.key);
        writer.delete(op.key);
      } else {
        expected = indexSet(expected, op.key, op.value);
        writer.set(op.key, op.value);
      }
      expect(writer.get(op.key)).toBe(op.value);
    }
    expect(JSON.stringify(writer.result())).toBe(JSON.stringify(expected));
    expect(JSON.stringify(start)).toBe(before);
  });
});
