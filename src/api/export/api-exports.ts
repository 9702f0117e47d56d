/**
 * API exports of proforma invoices, invoices and subscriptions, one set of three routes per kind built by
 * `exportRoutes`. Starting an export runs it to the end at once: the batch holds the ids of the rows the
 * kind takes as they were at that instant (engine/export/batch.ts), and its rows are read page by page.
 *
 * Rows paging: `per_page` defaults to 100 and is clamped to 10,000; `page` starts at 1. A page beyond
 * the last answers an empty array. Each row is presented as it is when read, by the same presenter as
 * the resource's own read; a row removed since (a purged subscription and its invoices) is left out of
 * its page, and the other rows keep their positions.
 */

import { batchIds, type ExportBatch } from '../../domain/export/batch.js';
import type { ProformaExport } from '../../domain/invoice/proforma.js';
import { type ExportTable, exportEvery, exportProformas } from '../../engine/export/batch.js';
import type { SiteState } from '../../engine/state.js';
import type { Transaction } from '../../engine/transaction.js';
import { parseId } from '../../kernel/ids.js';
import { err } from '../../kernel/result.js';
import { missing, paging, stamp } from '../common.js';
import { presentInvoice } from '../invoice/invoice-present.js';
import { presentProforma } from '../invoice/proforma-present.js';
import { type Route, reply } from '../route.js';
import { presentSubscription } from '../subscription/subscription-present.js';

/** Rows per page of an export when `per_page` is not given. */
export const EXPORT_ROWS_DEFAULT_PER_PAGE = 100;
/** The largest rows page; larger `per_page` values are clamped to it. */
export const EXPORT_ROWS_MAX_PER_PAGE = 10_000;

const findExport = (
  tx: Transaction,
  batches: ExportTable,
  ref: string,
): ExportBatch | ProformaExport | undefined => {
  const id = parseId(ref);
  return id === undefined ? undefined : tx.get(batches, id);
};

/** The official `BatchJob`; `completed` is a string there, and an engine batch is always complete. */
const presentBatch = (state: SiteState, batch: ExportBatch | ProformaExport) => ({
  batchjob: {
    id: batch.id,
    finished_at: stamp(state, batch.finishedAt),
    row_count: batch.rowCount,
    created_at: stamp(state, batch.createdAt),
    completed: 'true',
  },
});

/** What differs between kinds of export: where batches are kept, how one starts, how a row reads. */
interface ExportKind<Row, Wire> {
  readonly batches: ExportTable;
  readonly start: (tx: Transaction) => ExportBatch;
  /** The row with an id as it is now, or undefined once removed. */
  readonly row: (tx: Transaction, id: number) => Row | undefined;
  readonly present: (state: SiteState, row: Row) => Wire;
}

/** The three routes of a kind of export: start a batch, read it, read a page of its rows. */
function exportRoutes<const Name extends string, Row, Wire>(name: Name, kind: ExportKind<Row, Wire>) {
  const start: `/api_exports/${Name}.json` = `/api_exports/${name}.json`;
  const read: `/api_exports/${Name}/{batch_id}.json` = `/api_exports/${name}/{batch_id}.json`;
  const rows: `/api_exports/${Name}/{batch_id}/rows.json?` = `/api_exports/${name}/{batch_id}/rows.json?`;
  return [
    {
      method: 'POST',
      path: start,
      run: ({ tx }) => {
        const batch = kind.start(tx);
        return reply(201, (state) => presentBatch(state, batch));
      },
    },
    {
      method: 'GET',
      path: read,
      run: ({ tx, params }) => {
        const batch = findExport(tx, kind.batches, params['batch_id'] ?? '');
        return batch === undefined
          ? err(missing('Batch job'))
          : reply(200, (state) => presentBatch(state, batch));
      },
    },
    {
      method: 'GET',
      path: rows,
      query: ['page', 'per_page'],
      run: ({ tx, params, query }) => {
        const batch = findExport(tx, kind.batches, params['batch_id'] ?? '');
        if (batch === undefined) return err(missing('Batch job'));
        const page = paging(query, EXPORT_ROWS_DEFAULT_PER_PAGE);
        if (!page.ok) return page;
        // `paging` validated both values but clamps to the usual 200; export rows allow up to 10,000.
        const asked = query.get('per_page');
        const perPage =
          asked === undefined || asked === ''
            ? EXPORT_ROWS_DEFAULT_PER_PAGE
            : Math.min(Number(asked), EXPORT_ROWS_MAX_PER_PAGE);
        const first = Math.min((page.value.page - 1) * perPage, batch.rowCount);
        const found = batchIds(batch, first, perPage).flatMap((id) => {
          const row = kind.row(tx, id);
          return row === undefined ? [] : [row];
        });
        return reply(200, (state) => found.map((row) => kind.present(state, row)));
      },
    },
  ] as const satisfies readonly Route[];
}

export const apiExportRoutes = [
  ...exportRoutes('proforma_invoices', {
    batches: 'proformaExports',
    start: exportProformas,
    row: (tx, id) => tx.get('proformaInvoices', id),
    present: presentProforma,
  }),
  ...exportRoutes('invoices', {
    batches: 'invoiceExports',
    start: (tx) => exportEvery(tx, 'invoices', 'invoiceExports'),
    row: (tx, id) => tx.get('invoices', id),
    present: presentInvoice,
  }),
  ...exportRoutes('subscriptions', {
    batches: 'subscriptionExports',
    start: (tx) => exportEvery(tx, 'subscriptions', 'subscriptionExports'),
    row: (tx, id) => tx.get('subscriptions', id),
    present: presentSubscription,
  }),
] as const satisfies readonly Route[];
