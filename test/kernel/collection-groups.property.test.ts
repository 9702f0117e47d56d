/**
 * Lists long enough that their later chunks sit in groups (`more`), and lists saved while every chunk was
 * in `chunks`: random writes agree with an array model, keep the shape, leave the version they came from
 * as it was and copy only short arrays, however long the list.
 */

import { fc, test } from '@fast-check/vitest';
import { describe, expect } from 'vitest';
import {
  CHUNK_SIZE,
  type ChunkedList,
  GROUP_SIZE,
  ListWriter,
  listAppend,
  listAppendAll,
  listChunks,
  listFromArray,
  listGet,
  listRange,
  listRangeReverse,
  listSet,
  listToArray,
} from '../../src/kernel/collection.js';

/** Elements in one full group of chunks. */
const GROUP_ITEMS = GROUP_SIZE * CHUNK_SIZE;

const range = (length: number): number[] => Array.from({ length }, (_, i) => i);

/** The same elements with every chunk in `chunks`, as a list was saved before the groups. */
function savedFlat<T>(list: ChunkedList<T>): ChunkedList<T> {
  return { length: list.length, chunks: [...listChunks(list)] };
}

/** Every chunk but the last full and none empty; with `canonical`, the first chunks then full groups. */
function expectWellFormed(list: ChunkedList<number>, items: readonly number[], canonical: boolean): void {
  expect(list.length).toBe(items.length);
  const chunks = [...listChunks(list)];
  expect(chunks.length).toBe(Math.ceil(items.length / CHUNK_SIZE));
  chunks.forEach((chunk, k) => {
    if (k < chunks.length - 1) expect(chunk.length).toBe(CHUNK_SIZE);
    else expect(chunk.length).toBeGreaterThan(0);
  });
  if (list.more !== undefined) {
    expect(list.more.length).toBeGreaterThan(0);
    expect(list.chunks.length).toBeGreaterThanOrEqual(GROUP_SIZE);
    list.more.forEach((group, g) => {
      if (g < (list.more?.length ?? 0) - 1) expect(group.length).toBe(GROUP_SIZE);
      else expect(group.length).toBeGreaterThan(0);
    });
  }
  if (canonical) {
    expect(list.chunks.length).toBe(Math.min(chunks.length, GROUP_SIZE));
    expect(list.more === undefined).toBe(chunks.length <= GROUP_SIZE);
  }
  expect(listToArray(list)).toEqual(items);
}

/** The arrays `after` holds that `before` did not: what a write allocated besides its elements. */
function newArrays<T>(before: ChunkedList<T>, after: ChunkedList<T>): (readonly unknown[])[] {
  const old = new Set<unknown>([before.chunks, before.more, ...(before.more ?? []), ...listChunks(before)]);
  const all: (readonly unknown[])[] = [after.chunks, ...(after.more ? [after.more, ...after.more] : [])];
  all.push(...listChunks(after));
  return all.filter((array) => !old.has(array));
}

type Op =
  | { readonly kind: 'append'; readonly count: number }
  | { readonly kind: 'set'; readonly at: number }
  | { readonly kind: 'truncate'; readonly by: number };

const op: fc.Arbitrary<Op> = fc.oneof(
  fc.record({ kind: fc.constant('append' as const), count: fc.integer({ min: 1, max: 2500 }) }),
  fc.record({ kind: fc.constant('set' as const), at: fc.nat() }),
  fc.record({ kind: fc.constant('truncate' as const), by: fc.integer({ min: 0, max: 4000 }) }),
);

/** Sizes around the first group's end and a few groups on. */
const size = fc.oneof(
  fc.integer({ min: GROUP_ITEMS - 2500, max: GROUP_ITEMS + 2500 }),
  fc.integer({ min: 2 * GROUP_ITEMS - 1500, max: 3 * GROUP_ITEMS + 1500 }),
);

describe('lists in groups of chunks', () => {
  test.prop([size, fc.boolean(), fc.array(op, { minLength: 1, maxLength: 12 })], { numRuns: 40 })(
    'law: pure writes and one batch agree with the array model and keep the shape; the start stays as it was',
    (start, flat, ops) => {
      const built = listFromArray(range(start));
      const list = flat ? savedFlat(built) : built;
      const before = JSON.stringify(list);
      const items = range(start);
      let pure = list;
      const batch = new ListWriter(list);
      let next = 1_000_000;
      for (const step of ops) {
        if (step.kind === 'append') {
          const added = range(step.count).map((i) => next + i);
          next += step.count;
          items.push(...added);
          pure = listAppendAll(pure, added);
          for (const item of added) batch.append(item);
        } else if (step.kind === 'set' && items.length > 0) {
          const at = step.at % items.length;
          items[at] = -at;
          pure = listSet(pure, at, -at);
          batch.set(at, -at);
        } else if (step.kind === 'truncate') {
          const length = Math.max(0, items.length - step.by);
          items.length = length;
          const cut = new ListWriter(pure);
          cut.truncate(length);
          pure = cut.result();
          batch.truncate(length);
        }
      }
      // A list saved flat keeps its first chunks where they were; only a new list has the canonical shape.
      expectWellFormed(pure, items, !flat);
      expect(batch.result()).toEqual(pure);
      expect(JSON.stringify(list)).toBe(before);
    },
  );

  test.prop([fc.integer({ min: 3 * GROUP_ITEMS, max: 4 * GROUP_ITEMS }), fc.nat(), fc.boolean()], {
    numRuns: 20,
  })(
    'a write copies one chunk and at most two short arrays, and shares every other chunk',
    (start, at, flat) => {
      const built = listFromArray(range(start));
      const list = flat ? savedFlat(built) : built;
      const index = at % start;
      const set = listSet(list, index, -1);
      const appended = listAppend(list, -2);
      for (const [after, touched] of [
        [set, Math.floor(index / CHUNK_SIZE)],
        [appended, Math.floor(start / CHUNK_SIZE)],
      ] as const) {
        const made = newArrays(list, after);
        // The chunk written, its group and the array of groups, or the first chunks.
        expect(made.length).toBeLessThanOrEqual(3);
        const chunks = [...listChunks(after)];
        [...listChunks(list)].forEach((chunk, k) => {
          if (k !== touched) expect(chunks[k]).toBe(chunk);
        });
        if (!flat) for (const array of made) expect(array.length).toBeLessThanOrEqual(CHUNK_SIZE);
        if (!flat && touched >= GROUP_SIZE) {
          expect(after.chunks).toBe(list.chunks);
          for (const array of made)
            if (array !== chunks[touched]) expect(array.length).toBeLessThanOrEqual(GROUP_SIZE);
        }
      }
      expect(listGet(set, index)).toBe(-1);
      expect(listGet(appended, start)).toBe(-2);
      expect(listGet(list, index)).toBe(index);
      expect(list.length).toBe(start);
    },
  );

  test('reads: get, ranges and a JSON copy see the same elements across the groups', () => {
    const start = 2 * GROUP_ITEMS + 1234;
    const list = listFromArray(range(start));
    expect(list.chunks.length).toBe(GROUP_SIZE);
    expect(list.more?.length).toBe(2);
    const copy = JSON.parse(JSON.stringify(list)) as ChunkedList<number>;
    for (const read of [list, copy, savedFlat(list)]) {
      expect(listGet(read, GROUP_ITEMS)).toBe(GROUP_ITEMS);
      expect(listGet(read, start - 1)).toBe(start - 1);
      expect(listGet(read, start)).toBeUndefined();
      expect([...listRange(read, GROUP_ITEMS - 2, GROUP_ITEMS + 2)]).toEqual(
        range(4).map((i) => GROUP_ITEMS - 2 + i),
      );
      expect([...listRangeReverse(read, start - 1, start - 4)]).toEqual([start - 1, start - 2, start - 3]);
      expect(listToArray(read)).toEqual(range(start));
    }
  });

  test('a list grown one element at a time has the shape of one built at once', () => {
    let grown: ChunkedList<number> = listFromArray([]);
    const writer = new ListWriter(grown);
    for (let i = 0; i < GROUP_ITEMS + CHUNK_SIZE + 1; i += 1) writer.append(i);
    grown = writer.result();
    expect(grown).toEqual(listFromArray(range(GROUP_ITEMS + CHUNK_SIZE + 1)));
    // Cut back inside the first chunks, the groups go: the shape is the length's, whatever came before.
    const cut = new ListWriter(grown);
    cut.truncate(GROUP_ITEMS - 1);
    expect(cut.result()).toEqual(listFromArray(range(GROUP_ITEMS - 1)));
    expect(Object.hasOwn(cut.result(), 'more')).toBe(false);
  });

  test('a batch that writes nothing answers the very list it started from', () => {
    const list = listFromArray(range(GROUP_ITEMS + 10));
    const writer = new ListWriter(list);
    expect(writer.get(GROUP_ITEMS + 5)).toBe(GROUP_ITEMS + 5);
    expect(writer.result()).toBe(list);
  });
});
