import { fc, test as propertyTest } from '@fast-check/vitest';
import { describe, expect, test } from 'vitest';
import {
  countIds,
  type IdPageRequest,
  type IdSource,
  idList,
  pageIds,
  wholeLog,
} from '../../../src/domain/event-log/seek.js';
import { CHUNK_SIZE, listFromArray } from '../../../src/kernel/collection.js';

const list = (...ids: number[]) => idList(listFromArray(ids));

const page = (
  sources: readonly IdSource[],
  from: number,
  to: number,
  direction: 'asc' | 'desc',
  skip: number,
  limit: number,
) => pageIds(sources, { from, to, direction, skip, limit });

describe('wholeLog', () => {
  test('reads ids as positions plus one', () => {
    const log = wholeLog(10);
    expect(log.length).toBe(10);
    expect([log.at(0), log.at(4), log.at(9)]).toEqual([1, 5, 10]);
  });
  test('ranks ids clamped to the log', () => {
    const log = wholeLog(10);
    expect([log.below(-3), log.below(0), log.below(1), log.below(2)]).toEqual([0, 0, 0, 1]);
    expect([log.below(10), log.below(11), log.below(12), log.below(1000)]).toEqual([9, 10, 10, 10]);
  });
  test('an empty log ranks every id at 0', () => {
    expect([wholeLog(0).below(1), wholeLog(0).below(50)]).toEqual([0, 0]);
  });
});

describe('idList', () => {
  test('reads by position and ranks with a binary search, across the chunk boundary', () => {
    const evens = Array.from({ length: CHUNK_SIZE + 500 }, (_, i) => 2 * (i + 1));
    const source = idList(listFromArray(evens));
    expect(source.length).toBe(CHUNK_SIZE + 500);
    expect(source.at(0)).toBe(2);
    expect(source.at(CHUNK_SIZE - 1)).toBe(2 * CHUNK_SIZE);
    expect(source.at(CHUNK_SIZE)).toBe(2 * CHUNK_SIZE + 2);
    expect(source.below(2)).toBe(0);
    expect(source.below(3)).toBe(1);
    expect(source.below(2 * CHUNK_SIZE)).toBe(CHUNK_SIZE - 1);
    expect(source.below(2 * CHUNK_SIZE + 1)).toBe(CHUNK_SIZE);
    expect(source.below(2 * CHUNK_SIZE + 2)).toBe(CHUNK_SIZE);
    expect(source.below(2 * CHUNK_SIZE + 3)).toBe(CHUNK_SIZE + 1);
    expect(source.below(10 ** 9)).toBe(CHUNK_SIZE + 500);
  });
  test('a position outside the list is a broken invariant', () => {
    const source = list(4, 8);
    expect(() => source.at(2)).toThrow('position 2 is in the list');
    expect(() => source.at(-1)).toThrow('position -1 is in the list');
  });
  test('an empty list ranks every id at 0', () => {
    expect(list().below(7)).toBe(0);
  });
});

describe('countIds', () => {
  test('counts the ids in [from, to)', () => {
    expect(countIds([wholeLog(10)], 3, 6)).toBe(3);
    expect(countIds([wholeLog(10)], 1, 11)).toBe(10);
    expect(countIds([wholeLog(10)], 0, 100)).toBe(10);
    expect(countIds([list(2, 5, 9), list(3, 4)], 3, 9)).toBe(3);
  });
  test('an empty or inverted range counts nothing', () => {
    expect(countIds([wholeLog(10)], 5, 5)).toBe(0);
    expect(countIds([wholeLog(10)], 8, 2)).toBe(0);
    expect(countIds([], 1, 10)).toBe(0);
  });
});

describe('pageIds with one source', () => {
  test('ascending pages skip and limit from the lower bound', () => {
    expect(page([wholeLog(10)], 1, 11, 'asc', 0, 3)).toEqual([1, 2, 3]);
    expect(page([wholeLog(10)], 1, 11, 'asc', 8, 5)).toEqual([9, 10]);
    expect(page([wholeLog(10)], 4, 8, 'asc', 1, 10)).toEqual([5, 6, 7]);
  });
  test('descending pages skip and limit from the upper bound', () => {
    expect(page([wholeLog(10)], 1, 11, 'desc', 2, 3)).toEqual([8, 7, 6]);
    expect(page([wholeLog(10)], 1, 11, 'desc', 8, 5)).toEqual([2, 1]);
    expect(page([wholeLog(10)], 4, 8, 'desc', 0, 10)).toEqual([7, 6, 5, 4]);
  });
  test('reads an index list by position', () => {
    const source = list(3, 7, 9, 12, 20);
    expect(page([source], 5, 13, 'asc', 0, 10)).toEqual([7, 9, 12]);
    expect(page([source], 5, 13, 'desc', 1, 1)).toEqual([9]);
    expect(page([source], 1, 100, 'desc', 0, 2)).toEqual([20, 12]);
  });
  test('pages across the chunk boundary of a long log', () => {
    const log = wholeLog(2 * CHUNK_SIZE + 5);
    expect(page([log], 1, 2 * CHUNK_SIZE + 6, 'asc', CHUNK_SIZE - 2, 4)).toEqual([999, 1000, 1001, 1002]);
    expect(page([log], 1, 2 * CHUNK_SIZE + 6, 'desc', 0, 2)).toEqual([2005, 2004]);
    const ids = Array.from({ length: 2 * CHUNK_SIZE }, (_, i) => 3 * i + 1);
    expect(page([list(...ids)], 2998, 3010, 'asc', 0, 3)).toEqual([2998, 3001, 3004]);
  });
  test('nothing past the end, for an empty range, or for a non-positive limit', () => {
    expect(page([wholeLog(10)], 1, 11, 'asc', 10, 5)).toEqual([]);
    expect(page([wholeLog(10)], 1, 11, 'desc', 10, 5)).toEqual([]);
    expect(page([wholeLog(10)], 6, 6, 'asc', 0, 5)).toEqual([]);
    expect(page([wholeLog(10)], 7, 3, 'desc', 0, 5)).toEqual([]);
    expect(page([wholeLog(10)], 1, 11, 'asc', 0, 0)).toEqual([]);
    expect(page([wholeLog(10)], 1, 11, 'desc', 0, -1)).toEqual([]);
    expect(page([wholeLog(0)], 1, 11, 'asc', 0, 5)).toEqual([]);
    expect(page([list()], 1, 11, 'desc', 0, 5)).toEqual([]);
  });
});

describe('pageIds with several sources', () => {
  const odds = list(1, 3, 5, 7, 9);
  const evens = list(2, 4, 6, 8, 10);
  test('merges the sources in ascending order', () => {
    expect(page([odds, evens], 1, 11, 'asc', 0, 4)).toEqual([1, 2, 3, 4]);
    expect(page([odds, evens], 1, 11, 'asc', 3, 4)).toEqual([4, 5, 6, 7]);
    expect(page([odds, evens], 1, 11, 'asc', 8, 4)).toEqual([9, 10]);
  });
  test('merges the sources in descending order', () => {
    expect(page([odds, evens], 1, 11, 'desc', 0, 3)).toEqual([10, 9, 8]);
    expect(page([odds, evens], 1, 11, 'desc', 7, 5)).toEqual([3, 2, 1]);
  });
  test('stays within [from, to)', () => {
    expect(page([odds, evens], 4, 8, 'asc', 0, 10)).toEqual([4, 5, 6, 7]);
    expect(page([odds, evens], 4, 8, 'desc', 0, 10)).toEqual([7, 6, 5, 4]);
    expect(page([odds, evens], 4, 8, 'desc', 3, 10)).toEqual([4]);
    expect(page([odds, evens], 4, 8, 'asc', 4, 10)).toEqual([]);
  });
  test('a source far ahead of the others is read from the pivot, not from its start', () => {
    const early = list(1, 2, 3, 4, 5, 6);
    const late = list(50, 60);
    expect(page([early, late], 1, 100, 'asc', 5, 2)).toEqual([6, 50]);
    expect(page([early, late], 1, 100, 'desc', 1, 2)).toEqual([50, 6]);
    expect(page([early, late], 1, 55, 'desc', 0, 3)).toEqual([50, 6, 5]);
  });
  test('an empty source among others changes nothing', () => {
    expect(page([list(), list(2, 4), list(3)], 1, 11, 'asc', 1, 5)).toEqual([3, 4]);
  });
});

/** Disjoint sources drawn by assigning each id 1..n to one source (or none), and a page request over them. */
const scenario = fc
  .record({
    owners: fc.array(fc.integer({ min: 0, max: 3 }), { maxLength: 40 }),
    sourceCount: fc.integer({ min: 1, max: 3 }),
    from: fc.integer({ min: -2, max: 45 }),
    to: fc.integer({ min: -2, max: 45 }),
    direction: fc.constantFrom<'asc' | 'desc'>('asc', 'desc'),
    skip: fc.integer({ min: 0, max: 12 }),
    limit: fc.integer({ min: -1, max: 12 }),
  })
  .map(({ owners, sourceCount, ...request }) => {
    const ids: number[][] = Array.from({ length: sourceCount }, () => []);
    owners.forEach((owner, position) => {
      if (owner > 0) ids[(owner - 1) % sourceCount]?.push(position + 1);
    });
    return { ids, request: request satisfies IdPageRequest };
  });

const expectedPage = (
  ids: readonly number[][],
  { from, to, direction, skip, limit }: IdPageRequest,
): number[] => {
  const inRange = ids
    .flat()
    .filter((id) => id >= from && id < to)
    .sort((a, b) => a - b);
  const ordered = direction === 'asc' ? inRange : inRange.reverse();
  return ordered.slice(skip, skip + Math.max(0, limit));
};

describe('pageIds laws', () => {
  propertyTest.prop([scenario], { numRuns: 300 })(
    'law: a page of the union equals sorting, filtering, skipping and limiting the ids',
    ({ ids, request }) => {
      const sources = ids.map((source) => idList(listFromArray(source)));
      expect(pageIds(sources, request)).toEqual(expectedPage(ids, request));
      expect(countIds(sources, request.from, request.to)).toBe(
        expectedPage(ids, { ...request, skip: 0, limit: 99 }).length,
      );
    },
  );

  propertyTest.prop(
    [
      fc.integer({ min: 0, max: 30 }),
      fc.integer({ min: -2, max: 35 }),
      fc.integer({ min: -2, max: 35 }),
      fc.constantFrom<'asc' | 'desc'>('asc', 'desc'),
      fc.integer({ min: 0, max: 12 }),
      fc.integer({ min: -1, max: 12 }),
    ],
    { numRuns: 200 },
  )('law: the whole log pages as the list of ids 1..length', (length, from, to, direction, skip, limit) => {
    const all = Array.from({ length }, (_, i) => i + 1);
    const request = { from, to, direction, skip, limit };
    expect(pageIds([wholeLog(length)], request)).toEqual(expectedPage([all], request));
    expect(pageIds([idList(listFromArray(all))], request)).toEqual(expectedPage([all], request));
  });
});
