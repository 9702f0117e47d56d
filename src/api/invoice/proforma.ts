/**
 * Proforma invoices of a subscription: create, preview, list, read and void. Every answer but the list
 * is the bare `ProformaInvoice`; the list is `{proforma_invoices, meta}`.
 */

import type { ProformaInvoice } from '../../domain/invoice/proforma.js';
import { createProforma, previewProforma, voidProforma } from '../../engine/invoice/proforma.js';
import type { Transaction } from '../../engine/transaction.js';
import { tableRows, tableRowsReverse } from '../../kernel/collection.js';
import { idOfUid } from '../../kernel/ids.js';
import { err } from '../../kernel/result.js';
import { decodeBody, missing, pageOf, paging } from '../common.js';
import { z, zText } from '../decode.js';
import { type Route, reply } from '../route.js';
import { findSubscription } from '../subscription/subscriptions.js';
import { presentProforma } from './proforma-present.js';

const voidBody = z.object({ void: z.object({ reason: zText(2000).min(1, "can't be blank") }) });

/**
 * A proforma invoice by uid (the uid encodes the row id, so no index is needed).
 * @example findProforma(tx, 'pro_0000000000001')?.status // 'draft'
 */
export function findProforma(tx: Transaction, uid: string): ProformaInvoice | undefined {
  const id = idOfUid('pro', uid);
  const proforma = id === undefined ? undefined : tx.get('proformaInvoices', id);
  return proforma?.uid === uid ? proforma : undefined;
}

const bare = (status: number, proforma: ProformaInvoice) =>
  reply(status, (state) => presentProforma(state, proforma));

export const proformaRoutes = [
  {
    method: 'POST',
    path: '/subscriptions/{subscription_id}/proforma_invoices.json',
    run: ({ tx, params }) => {
      const subscription = findSubscription(tx, params['subscription_id'] ?? '');
      if (subscription === undefined) return err(missing('Subscription'));
      const created = createProforma(tx, subscription);
      return created.ok ? bare(201, created.value) : created;
    },
  },
  {
    method: 'POST',
    path: '/subscriptions/{subscription_id}/proforma_invoices/preview.json',
    run: ({ tx, params }) => {
      const subscription = findSubscription(tx, params['subscription_id'] ?? '');
      if (subscription === undefined) return err(missing('Subscription'));
      const preview = previewProforma(tx, subscription);
      return preview.ok ? bare(200, preview.value) : preview;
    },
  },
  {
    method: 'GET',
    path: '/subscriptions/{subscription_id}/proforma_invoices.json',
    query: ['page', 'per_page', 'direction', 'status'],
    run: ({ tx, params, query }) => {
      const subscription = findSubscription(tx, params['subscription_id'] ?? '');
      if (subscription === undefined) return err(missing('Subscription'));
      const page = paging(query);
      if (!page.ok) return page;
      const statuses = query.list('status');
      const table = tx.state.tables.proformaInvoices;
      const rows = query.get('direction') === 'desc' ? tableRowsReverse(table) : tableRows(table);
      const matching: ProformaInvoice[] = [];
      for (const proforma of rows) {
        if (proforma.subscriptionId !== subscription.id) continue;
        if (statuses.length > 0 && !statuses.includes(proforma.status)) continue;
        matching.push(proforma);
      }
      const { page: current, perPage } = page.value;
      const shown = pageOf(matching, current, perPage);
      return reply(200, (state) => ({
        proforma_invoices: shown.map((proforma) => presentProforma(state, proforma)),
        meta: {
          total_count: matching.length,
          current_page: current,
          total_pages: Math.ceil(matching.length / perPage),
          status_code: 200,
        },
      }));
    },
  },
  {
    method: 'GET',
    path: '/proforma_invoices/{uid}.json',
    run: ({ tx, params }) => {
      const proforma = findProforma(tx, params['uid'] ?? '');
      return proforma === undefined ? err(missing('Proforma invoice')) : bare(200, proforma);
    },
  },
  {
    method: 'POST',
    path: '/proforma_invoices/{uid}/void.json',
    body: voidBody,
    run: ({ tx, params, body }) => {
      const proforma = findProforma(tx, params['uid'] ?? '');
      if (proforma === undefined) return err(missing('Proforma invoice'));
      const input = decodeBody(voidBody, body);
      if (!input.ok) return input;
      const voided = voidProforma(tx, proforma, input.value.void.reason);
      return voided.ok ? bare(200, voided.value) : voided;
    },
  },
] as const satisfies readonly Route[];
