/**
 * API exports of proforma invoices. Starting an export runs it to the end at once: the batch holds the
 * site's proforma invoices that were not voided at that instant, and its rows are read page by page.
 *
 * Rows paging: `per_page` defaults to 100 and is clamped to 10,000; `page` starts at 1. A page beyond
 * the last answers an empty array. Each row is the proforma invoice as it is when read.
 */

import type { ProformaExport } from '../../domain/invoice/proforma.js';
import { exportProformas } from '../../engine/invoice/proforma.js';
import type { SiteState } from '../../engine/state.js';
import type { Transaction } from '../../engine/transaction.js';
import { parseId } from '../../kernel/ids.js';
import { err } from '../../kernel/result.js';
import { missing, paging, stamp } from '../common.js';
import { presentProforma } from '../invoice/proforma-present.js';
import { type Route, reply } from '../route.js';

/** Rows per page of an export when `per_page` is not given. */
export const EXPORT_ROWS_DEFAULT_PER_PAGE = 100;
/** The largest rows page; larger `per_page` values are clamped to it. */
export const EXPORT_ROWS_MAX_PER_PAGE = 10_000;

const findExport = (tx: Transaction, ref: string): ProformaExport | undefined => {
  const id = parseId(ref);
  return id === undefined ? undefined : tx.get('proformaExports', id);
};

/** The official `BatchJob`; `completed` is a string there, and an engine batch is always complete. */
const presentBatch = (state: SiteState, batch: ProformaExport) => ({
  batchjob: {
    id: batch.id,
    finished_at: stamp(state, batch.finishedAt),
    row_count: batch.rowCount,
    created_at: stamp(state, batch.createdAt),
    completed: 'true',
  },
});

export const apiExportRoutes = [
  {
    method: 'POST',
    path: '/api_exports/proforma_invoices.json',
    run: ({ tx }) => {
      const batch = exportProformas(tx);
      return reply(201, (state) => presentBatch(state, batch));
    },
  },
  {
    method: 'GET',
    path: '/api_exports/proforma_invoices/{batch_id}.json',
    run: ({ tx, params }) => {
      const batch = findExport(tx, params['batch_id'] ?? '');
      return batch === undefined
        ? err(missing('Batch job'))
        : reply(200, (state) => presentBatch(state, batch));
    },
  },
  {
    method: 'GET',
    path: '/api_exports/proforma_invoices/{batch_id}/rows.json?',
    query: ['page', 'per_page'],
    run: ({ tx, params, query }) => {
      const batch = findExport(tx, params['batch_id'] ?? '');
      if (batch === undefined) return err(missing('Batch job'));
      const page = paging(query, EXPORT_ROWS_DEFAULT_PER_PAGE);
      if (!page.ok) return page;
      // `paging` validated both values but clamps to the usual 200; export rows allow up to 10,000.
      const asked = query.get('per_page');
      const perPage =
        asked === undefined || asked === ''
          ? EXPORT_ROWS_DEFAULT_PER_PAGE
          : Math.min(Number(asked), EXPORT_ROWS_MAX_PER_PAGE);
      const start = Math.min((page.value.page - 1) * perPage, batch.invoiceIds.length);
      const ids = batch.invoiceIds.slice(start, start + perPage);
      const rows = ids.flatMap((id) => {
        const proforma = tx.get('proformaInvoices', id);
        return proforma === undefined ? [] : [proforma];
      });
      return reply(200, (state) => rows.map((proforma) => presentProforma(state, proforma)));
    },
  },
] as const satisfies readonly Route[];
