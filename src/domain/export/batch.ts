/**
 * API export batches: the rows a site held when an export started, kept as runs of consecutive ids
 * rather than one id per row, so that exporting a table of a million rows none of which was removed
 * keeps two numbers, and a page of the batch is found by binary search over its runs.
 */

import type { Instant } from '../../kernel/time.js';

/**
 * An export batch (`proformaExports`, `invoiceExports` and `subscriptionExports` tables): the ids of the
 * rows it holds, in id order, as they were when it ran. The engine completes a batch when it starts it.
 */
export interface ExportBatch {
  /** The batch's id (each kind of export numbers its batches from 1). */
  readonly id: number;
  /** When it started. */
  readonly createdAt: Instant;
  /** When it finished (the same instant: it completes when it starts). */
  readonly finishedAt: Instant;
  /** How many rows it holds. */
  readonly rowCount: number;
  /**
   * Its ids as runs of consecutive ids, flattened in pairs `position, firstId`: a run starts at that
   * position of the batch (0 for the first) with that id, and lasts until the next run's position (the
   * last run until `rowCount`).
   */
  readonly runs: readonly number[];
}

/** A proforma batch as an earlier version stored it: its ids one by one. */
export interface ListedExportBatch {
  /** The batch's id. */
  readonly id: number;
  /** When it started. */
  readonly createdAt: Instant;
  /** When it finished. */
  readonly finishedAt: Instant;
  /** How many rows it holds. */
  readonly rowCount: number;
  /** The proforma invoices it holds, by id, in id order. */
  readonly invoiceIds: readonly number[];
}

/** Runs of ids built one id at a time (see `runsOf`). */
export interface RunsBuilder {
  /** Adds the next id; ids come in ascending order. */
  add(id: number): void;
  /** The runs so far and how many ids they hold. */
  done(): { runs: number[]; count: number };
}

/**
 * A builder of runs of ascending ids: a new run begins wherever an id does not follow the one before it.
 * @example const b = runsOf(); b.add(1); b.add(2); b.add(7); b.done() // { runs: [0, 1, 2, 7], count: 3 }
 */
export function runsOf(): RunsBuilder {
  const runs: number[] = [];
  let count = 0;
  let next = Number.NaN;
  return {
    add(id) {
      if (id !== next) runs.push(count, id);
      count += 1;
      next = id + 1;
    },
    done: () => ({ runs, count }),
  };
}

/**
 * The ids at positions `start` to `start + count - 1` of a batch (fewer past its end): a binary search
 * for the run holding `start`, then one step per id.
 * @example batchIds({ ...batch, rowCount: 5, runs: [0, 1, 3, 7] }, 2, 2) // [3, 7]
 */
export function batchIds(batch: ExportBatch | ListedExportBatch, start: number, count: number): number[] {
  if ('invoiceIds' in batch) return batch.invoiceIds.slice(start, start + count);
  const { runs } = batch;
  const end = Math.min(start + count, batch.rowCount);
  const ids: number[] = [];
  const last = runs.length / 2 - 1;
  if (start >= end || last < 0) return ids;
  let low = 0;
  let high = last;
  while (low < high) {
    const middle = (low + high + 1) >> 1;
    if ((runs[2 * middle] ?? 0) <= start) low = middle;
    else high = middle - 1;
  }
  let run = low;
  for (let position = start; position < end; position += 1) {
    while (run < last && (runs[2 * run + 2] ?? 0) <= position) run += 1;
    ids.push((runs[2 * run + 1] ?? 0) + position - (runs[2 * run] ?? 0));
  }
  return ids;
}
