/**
 * Starting API exports. A batch runs to the end in the request that starts it and keeps the ids of the
 * rows it holds as runs (domain/export/batch.ts), never the rows: a page of it presents the rows as they
 * are when it is read. The tables are read as stored when the request began (starting an export is the
 * only thing its request writes).
 */

import { type ExportBatch, runsOf } from '../../domain/export/batch.js';
import { listChunks, type Table } from '../../kernel/collection.js';
import type { TableName } from '../tables.js';
import type { Transaction } from '../transaction.js';

/** The tables that hold export batches, one per kind of export. */
export type ExportTable = 'proformaExports' | 'invoiceExports' | 'subscriptionExports';

function recordBatch(tx: Transaction, batches: ExportTable, held: { runs: number[]; count: number }) {
  const batch: ExportBatch = {
    id: tx.nextId(batches),
    createdAt: tx.now,
    finishedAt: tx.now,
    rowCount: held.count,
    runs: held.runs,
  };
  tx.put(batches, batch);
  return batch;
}

/**
 * The ids of a table's live rows that `keep` takes, as runs, in one pass over its chunks (the row with
 * id n is at index n - 1): a loop over arrays, since generators per row cost ten times more on a million.
 */
function runsWhere<T>(table: Table<T>, keep: (row: T) => boolean): { runs: number[]; count: number } {
  const builder = runsOf();
  let id = 0;
  for (const chunk of listChunks(table.rows))
    for (const row of chunk) {
      id += 1;
      if (row !== null && keep(row)) builder.add(id);
    }
  return builder.done();
}

const always = (): boolean => true;

/**
 * Exports every invoice or every subscription the site holds, whatever its status or state: a batch that
 * completes at once. A table no row was ever removed from is one run, found without reading a row; one
 * with removed rows (purged subscriptions and their invoices) is scanned once.
 * @example exportEvery(tx, 'invoices', 'invoiceExports').rowCount // 3
 */
export function exportEvery(
  tx: Transaction,
  source: Extract<TableName, 'invoices' | 'subscriptions'>,
  batches: ExportTable,
): ExportBatch {
  const table: Table<unknown> = tx.state.tables[source];
  const held =
    table.count === table.rows.length
      ? { runs: table.count === 0 ? [] : [0, 1], count: table.count }
      : runsWhere(table, always);
  return recordBatch(tx, batches, held);
}

/**
 * Exports the site's proforma invoices that are not voided: a batch that completes at once.
 * @example exportProformas(tx).rowCount // 3
 */
export function exportProformas(tx: Transaction): ExportBatch {
  const held = runsWhere(tx.state.tables.proformaInvoices, (proforma) => proforma.status !== 'voided');
  return recordBatch(tx, 'proformaExports', held);
}
