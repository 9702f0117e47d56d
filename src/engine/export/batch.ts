/**
 * Starting API exports. A batch runs to the end in the request that starts it and keeps the ids of the
 * rows it holds as runs (domain/export/batch.ts), never the rows: a page of it presents the rows as they
 * are when it is read. The tables are read as stored when the request began (starting an export is the
 * only thing its request writes).
 */

import { type ExportBatch, idRuns } from '../../domain/export/batch.js';
import { type Table, tableRows } from '../../kernel/collection.js';
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
  return tx.put(batches, batch) as ExportBatch;
}

/** The ids of a table's live rows as runs: one run, found without a scan, when no row was ever removed. */
function everyRow(table: Table<{ readonly id: number } | null>): { runs: number[]; count: number } {
  if (table.count === table.rows.length) return { runs: table.count === 0 ? [] : [0, 1], count: table.count };
  return idRuns(idsOf(tableRows(table)));
}

function* idsOf(rows: Iterable<{ readonly id: number } | null>): Generator<number> {
  for (const row of rows) if (row !== null) yield row.id;
}

/**
 * Exports every invoice or every subscription the site holds, whatever its status or state: a batch that
 * completes at once. It scans the table only when rows were removed from it (purged subscriptions).
 * @example exportEvery(tx, 'invoices', 'invoiceExports').rowCount // 3
 */
export function exportEvery(
  tx: Transaction,
  source: Extract<TableName, 'invoices' | 'subscriptions'>,
  batches: ExportTable,
): ExportBatch {
  return recordBatch(tx, batches, everyRow(tx.state.tables[source]));
}

function* unvoidedProformas(tx: Transaction): Generator<number> {
  for (const proforma of tableRows(tx.state.tables.proformaInvoices))
    if (proforma.status !== 'voided') yield proforma.id;
}

/**
 * Exports the site's proforma invoices that are not voided: a batch that completes at once.
 * @example exportProformas(tx).rowCount // 3
 */
export function exportProformas(tx: Transaction): ExportBatch {
  return recordBatch(tx, 'proformaExports', idRuns(unvoidedProformas(tx)));
}
