/** Reading and listing invoices. */

import type { Invoice } from '../../domain/invoice/types.js';
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

export const invoiceRoutes: readonly Route[] = [
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
    run: ({ tx, query }) => {
      const page = paging(query);
      if (!page.ok) return page;
      const subscriptionId = query.get('subscription_id');
      const statuses = query.list('status');
      const rows =
        query.get('direction') === 'desc'
          ? tableRowsReverse(tx.state.tables.invoices)
          : tableRows(tx.state.tables.invoices);
      const matching = function* () {
        for (const invoice of rows) {
          if (subscriptionId !== undefined && String(invoice.subscriptionId) !== subscriptionId) continue;
          if (statuses.length > 0 && !statuses.includes(invoice.status)) continue;
          yield invoice;
        }
      };
      const invoices = pageOf(matching(), page.value.page, page.value.perPage);
      return reply(200, (state) => ({ invoices: invoices.map((invoice) => presentInvoice(state, invoice)) }));
    },
  },
];
