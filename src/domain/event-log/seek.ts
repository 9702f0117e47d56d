/**
 * Pages of event ids found by seeking, not scanning. The ids that match a listing are the union of a few
 * disjoint ascending sources (the whole log, one subscription's ids, or one list per filtered key); ranks
 * in that union come from binary searches, so a page costs O(sources × log n) to find plus its own
 * length to read, however long the log is.
 */
import { type ChunkedList, listGet, listLowerBound } from '../../kernel/collection.js';
import { invariant } from '../../kernel/invariant.js';

/** Ascending, distinct event ids that can be read by position and ranked. */
export interface IdSource {
  readonly length: number;
  /** The id at a 0-based position (`0 <= position < length`). */
  at(position: number): number;
  /** How many of the ids are below `id`. */
  below(id: number): number;
}

/** Every id of a log of `length` records: ids are positions plus one. */
export const wholeLog = (length: number): IdSource => ({
  length,
  at: (position) => position + 1,
  below: (id) => Math.min(length, Math.max(0, id - 1)),
});

/** The ids of a chunked list (an index of the log). */
export const idList = (list: ChunkedList<number>): IdSource => ({
  length: list.length,
  at: (position) => {
    const id = listGet(list, position);
    invariant(id !== undefined, `position ${position} is in the list`);
    return id;
  },
  below: (id) => listLowerBound(list, id, (item) => item),
});

/** One page of a listing in id space: ids in `[from, to)`, after skipping `skip` in `direction`. */
export interface IdPageRequest {
  readonly from: number;
  readonly to: number;
  readonly direction: 'asc' | 'desc';
  readonly skip: number;
  readonly limit: number;
}

const rankBelow = (sources: readonly IdSource[], id: number): number =>
  sources.reduce((total, source) => total + source.below(id), 0);

/**
 * How many ids of the sources lie in `[from, to)`.
 * @example countIds([wholeLog(10)], 3, 6) // 3
 */
export const countIds = (sources: readonly IdSource[], from: number, to: number): number =>
  to <= from ? 0 : rankBelow(sources, to) - rankBelow(sources, from);

/** The smallest id in `[from, to)` with exactly `rank` ids of the union below it (the id at that rank). */
function idAtRank(sources: readonly IdSource[], rank: number, from: number, to: number): number {
  let low = from;
  let high = to - 1;
  while (low < high) {
    const mid = Math.floor((low + high) / 2);
    if (rankBelow(sources, mid + 1) > rank) high = mid;
    else low = mid + 1;
  }
  return low;
}

/**
 * The ids of one page, in the requested order.
 * @example pageIds([wholeLog(10)], { from: 1, to: 11, direction: 'desc', skip: 2, limit: 3 }) // [8, 7, 6]
 */
export function pageIds(sources: readonly IdSource[], request: IdPageRequest): number[] {
  const { from, to, direction, skip, limit } = request;
  const base = rankBelow(sources, from);
  const end = to <= from ? base : rankBelow(sources, to);
  if (skip >= end - base || limit <= 0) return [];
  const [only] = sources;
  if (sources.length === 1 && only !== undefined) {
    const positions: number[] = [];
    if (direction === 'asc')
      for (let p = base + skip; p < Math.min(end, base + skip + limit); p += 1) positions.push(p);
    else for (let p = end - 1 - skip; p >= Math.max(base, end - skip - limit); p -= 1) positions.push(p);
    return positions.map((position) => only.at(position));
  }
  // Several sources: find the id at the page's first rank, then read up to `limit` ids of each source
  // from there and merge them.
  const pivot = idAtRank(sources, direction === 'asc' ? base + skip : end - 1 - skip, from, to);
  const gathered: number[] = [];
  for (const source of sources) {
    if (direction === 'asc') {
      for (let p = source.below(pivot), taken = 0; p < source.length && taken < limit; p += 1, taken += 1) {
        const id = source.at(p);
        if (id >= to) break;
        gathered.push(id);
      }
    } else {
      for (let p = source.below(pivot + 1) - 1, taken = 0; p >= 0 && taken < limit; p -= 1, taken += 1) {
        const id = source.at(p);
        if (id < from) break;
        gathered.push(id);
      }
    }
  }
  gathered.sort((a, b) => (direction === 'asc' ? a - b : b - a));
  return gathered.slice(0, limit);
}
