import { test } from '@fast-check/vitest';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { batchIds, type ExportBatch, runsOf } from '../../../src/domain/export/batch.js';

function idRuns(ids: readonly number[]): { runs: number[]; count: number } {
  const builder = runsOf();
  for (const id of ids) builder.add(id);
  return builder.done();
}

const batchOf = (ids: readonly number[]): ExportBatch => {
  const { runs, count } = idRuns(ids);
  return {
    id: 1,
    createdAt: '2026-01-15T12:00:00Z',
    finishedAt: '2026-01-15T12:00:00Z',
    rowCount: count,
    runs,
  };
};

/** Ascending distinct ids from 1 up, some left out. */
const ascendingIds = fc
  .array(fc.boolean(), { maxLength: 60 })
  .map((kept) => kept.flatMap((keep, at) => (keep ? [at + 1] : [])));

describe('export batch runs', () => {
  it('keep one pair per run of consecutive ids', () => {
    expect(idRuns([])).toEqual({ runs: [], count: 0 });
    expect(idRuns([1, 2, 3, 4])).toEqual({ runs: [0, 1], count: 4 });
    expect(idRuns([2, 3, 7, 9, 10])).toEqual({ runs: [0, 2, 2, 7, 3, 9], count: 5 });
  });

  it('read positions through the runs, and nothing past the end', () => {
    const batch = batchOf([2, 3, 7, 9, 10]);
    expect(batchIds(batch, 0, 10)).toEqual([2, 3, 7, 9, 10]);
    expect(batchIds(batch, 1, 3)).toEqual([3, 7, 9]);
    expect(batchIds(batch, 4, 3)).toEqual([10]);
    expect(batchIds(batch, 5, 3)).toEqual([]);
    expect(batchIds(batch, 1_000_000_000, 10_000)).toEqual([]);
    expect(batchIds(batchOf([]), 0, 100)).toEqual([]);
  });

  it('read a batch an earlier version stored id by id', () => {
    const listed = { id: 1, createdAt: 'a', finishedAt: 'a', rowCount: 3, invoiceIds: [4, 1, 9] };
    expect(batchIds(listed, 1, 5)).toEqual([1, 9]);
  });

  test.prop([ascendingIds, fc.nat({ max: 70 }), fc.integer({ min: 1, max: 70 })])(
    'any window of the batch is the same window of its ids',
    (ids, start, count) => {
      const batch = batchOf(ids);
      expect(batch.rowCount).toBe(ids.length);
      expect(batch.runs.length).toBeLessThanOrEqual(2 * ids.length);
      expect(batchIds(batch, start, count)).toEqual(ids.slice(start, start + count));
    },
  );
});
