/** Invariants of API export batches: the runs of ids each keeps. */
import type { ExportBatch, ListedExportBatch } from '../domain/export/batch.js';
import type { SiteState, TableName } from '../engine/state.js';
import { tableRows } from '../kernel/collection.js';

const KINDS = [
  ['proformaExports', 'proformaInvoices'],
  ['invoiceExports', 'invoices'],
  ['subscriptionExports', 'subscriptions'],
] as const satisfies readonly (readonly [TableName, TableName])[];

/** What is wrong with one batch's ids, given the highest id its source table ever gave. */
function batchProblems(batch: ExportBatch | ListedExportBatch, highestId: number): string[] {
  if ('invoiceIds' in batch) {
    const ids = batch.invoiceIds;
    const ascending = ids.every((id, at) => at === 0 || id > (ids[at - 1] ?? 0));
    return ids.length === batch.rowCount && ascending ? [] : ['its listed ids are not its rows in id order'];
  }
  const { runs, rowCount } = batch;
  if (runs.length % 2 !== 0) return ['its runs are not pairs'];
  if (runs.length === 0) return rowCount === 0 ? [] : [`it holds ${rowCount} rows and no run`];
  const problems: string[] = [];
  if (runs[0] !== 0) problems.push('its first run does not start at position 0');
  let lastId = 0;
  for (let at = 0; at < runs.length; at += 2) {
    const position = runs[at] ?? 0;
    const firstId = runs[at + 1] ?? 0;
    const end = at + 2 < runs.length ? (runs[at + 2] ?? 0) : rowCount;
    if (end <= position) {
      problems.push(`its run at position ${position} is empty`);
      continue;
    }
    // Two runs are distinct runs only when a gap separates them, and ids only grow.
    if (firstId <= lastId + (at === 0 ? 0 : 1))
      problems.push(`its run at position ${position} does not follow a gap`);
    lastId = firstId + end - position - 1;
  }
  if (lastId > highestId) problems.push(`it holds id ${lastId}, which its table never gave`);
  return problems;
}

/**
 * Export batches hold together: each keeps its rows as runs of ascending ids separated by gaps, starting
 * at position 0 and ending at its `rowCount`, within the ids its source table has given (or, stored by an
 * earlier version, its proforma ids in order).
 * @example expect(checkExports(state)).toEqual([])
 */
export function checkExports(state: SiteState): string[] {
  const violations: string[] = [];
  for (const [batches, source] of KINDS) {
    const highestId = state.tables[source].rows.length;
    for (const batch of tableRows(state.tables[batches]))
      for (const problem of batchProblems(batch, highestId))
        violations.push(`${batches} ${batch.id}: ${problem}`);
  }
  return violations;
}
