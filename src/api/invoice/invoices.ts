/** Reading and listing invoices. */

import type { Invoice } from '../../domain/invoice/types.js';
import { childInvoices } from '../../engine/group/invoices.js';
import { listedRows } from '../../engine/list-index.js';
import { pageOfSet, setRows } from '../../engine/set-index.js';
import type { Transaction } from '../../engine/transaction.js';
import { tableRows, tableRowsReverse } from '../../kernel/collection.js';
import { idOfUid } from '../../kernel/ids.js';
import { err } from '../../kernel/result.js';
import { missing, pageOf, paging } from '../common.js';
import { type Route, reply } from '../route.js';
import { presentInvoice } from './invoice-present.js';

/** An invoice by uid (the uid encodes the row id, so no index is needed). */
export function findInvoice(tx: Transaction, uid: string): Invoice | undefined {
  const id = idOfUid('inv', uid);
  const invoice = id === undefined ? undefined : tx.get('invoices', id);
  return invoice?.uid === uid ? invoice : undefined;
}

function ownInvoices(tx: Transaction, subscriptionId: string, descending: boolean): Invoice[] {
  const rows = listedRows(tx.state, 'subscriptionInvoices', subscriptionId, 'invoices');
  return descending ? rows.reverse() : rows;
}

/**
 * The invoices a listing filters: a subscription's from its list, a group's from its set, otherwise the
 * table (unfiltered, a page costs what it skips).
 */
function candidates(
  tx: Transaction,
  subscriptionId: string | undefined,
  groupId: number | undefined,
  descending: boolean,
): Iterable<Invoice> {
  if (subscriptionId !== undefined) return ownInvoices(tx, subscriptionId, descending);
  if (groupId !== undefined)
    return setRows(tx.state, 'groupInvoices', [String(groupId)], 'invoices', 0, descending);
  return descending ? tableRowsReverse(tx.state.tables.invoices) : tableRows(tx.state.tables.invoices);
}

function* filtered(
  invoices: Iterable<Invoice>,
  statuses: readonly string[],
  groupId: number | undefined,
): Generator<Invoice> {
  for (const invoice of invoices) {
    if (statuses.length > 0 && !statuses.includes(invoice.status)) continue;
    if (groupId !== undefined && invoice.subscriptionGroupId !== groupId) continue;
    yield invoice;
  }
}

export const invoiceRoutes = [
  {
    // listConsolidatedInvoiceSegments: the child invoices of a consolidated (parent) invoice.
    method: 'GET',
    path: '/invoices/{uid}/segments.json',
    query: ['page', 'per_page', 'direction'],
    run: ({ tx, params, query }) => {
      const invoice = findInvoice(tx, params['uid'] ?? '');
      if (invoice === undefined) return err(missing('Invoice'));
      const page = paging(query);
      if (!page.ok) return page;
      const children = childInvoices(tx, invoice);
      if (query.get('direction') === 'desc') children.reverse();
      const segments = pageOf(children, page.value.page, page.value.perPage);
      return reply(200, (state) => ({ invoices: segments.map((child) => presentInvoice(state, child)) }));
    },
  },
  {
    method: 'GET',
    path: '/invoices/{uid}.json',
    run: ({ tx, params }) => {
      const invoice = findInvoice(tx, params['uid'] ?? '');
      if (invoice === undefined) return err(missing('Invoice'));
      return reply(200, (state) => presentInvoice(state, invoice));
    },
  },
  {
    method: 'GET',
    path: '/invoices.json',
    query: ['page', 'per_page', 'direction', 'status', 'subscription_id', 'subscription_group_uid'],
    run: ({ tx, query }) => {
      const page = paging(query);
      if (!page.ok) return page;
      const subscriptionId = query.get('subscription_id');
      const groupUid = query.get('subscription_group_uid');
      // An unknown group uid matches no invoice (id 0 is never a row id).
      const groupId = groupUid === undefined ? undefined : (idOfUid('grp', groupUid) ?? 0);
      const statuses = query.list('status');
      const descending = query.get('direction') === 'desc';
      const invoices =
        subscriptionId === undefined && groupId === undefined && statuses.length > 0
          ? // Statuses alone: a page of the ids of the invoices in those statuses, not a scan.
            pageOfSet(tx.state, 'invoiceStatuses', statuses, 'invoices', page.value, descending)
          : pageOf(
              filtered(candidates(tx, subscriptionId, groupId, descending), statuses, groupId),
              page.value.page,
              page.value.perPage,
            );
      return reply(200, (state) => ({ invoices: invoices.map((invoice) => presentInvoice(state, invoice)) }));
    },
  },
] as const satisfies readonly Route[];
