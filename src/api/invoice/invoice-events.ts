/**
 * `GET /invoices/events.json`: what happened to invoices, as the official invoice events. They are read
 * from the invoices themselves and their credit notes (invoice-happenings.ts), not kept apart: an event's
 * `invoice` is the invoice as it is now. Events are numbered in the order they happened (by instant,
 * then invoice, then the invoice's own order), so `since_id` pages forward through them.
 */

import type { SiteState } from '../../engine/state.js';
import { tableRows } from '../../kernel/collection.js';
import { err } from '../../kernel/result.js';
import { isCalendarDate, startOfDay } from '../../kernel/time.js';
import { stamp } from '../common.js';
import { type Route, reply } from '../route.js';
import { creditNoteHappenings, type Happening, happeningsOf } from './invoice-happenings.js';
import { presentInvoice } from './invoice-present.js';
import { findInvoice } from './invoices.js';

/**
 * The official `InvoiceEventType`s; the engine has the facts of the first nine (debit notes, chargebacks,
 * backports, remainders voided and collection method changes of an invoice never occur).
 */
const INVOICE_EVENT_TYPES: ReadonlySet<string> = new Set([
  'issue_invoice',
  'apply_credit_note',
  'apply_payment',
  'refund_invoice',
  'void_invoice',
  'change_invoice_status',
  'create_credit_note',
  'failed_payment',
  'remove_payment',
  'apply_debit_note',
  'create_debit_note',
  'void_remainder',
  'backport_invoice',
  'change_invoice_collection_method',
  'change_chargeback_status',
]);

/** Every invoice event of the site, numbered from 1 in the order they happened. */
function allEvents(state: SiteState): (Happening & { id: number })[] {
  const all: Happening[] = [];
  for (const invoice of tableRows(state.tables.invoices)) all.push(...happeningsOf(invoice));
  all.push(...creditNoteHappenings(state));
  all.sort((a, b) =>
    a.at < b.at ? -1 : a.at > b.at ? 1 : a.invoice.id - b.invoice.id || a.ordinal - b.ordinal,
  );
  return all.map((happening, index) => ({ ...happening, id: index + 1 }));
}

export const invoiceEventRoutes = [
  {
    method: 'GET',
    path: '/invoices/events.json',
    query: [
      'since_date',
      'since_id',
      'page',
      'per_page',
      'invoice_uid',
      'with_change_invoice_status',
      'event_types',
    ],
    run: ({ tx, query }) => {
      const page = Number(query.get('page') ?? '1');
      const perPage = Math.min(Number(query.get('per_page') ?? '100'), 200);
      if (!Number.isSafeInteger(page) || page < 1 || !Number.isSafeInteger(perPage) || perPage < 1)
        return err({ code: 'paging', status: 422, message: 'page and per_page: must be positive integers.' });
      const sinceDate = query.get('since_date');
      if (sinceDate !== undefined && !isCalendarDate(sinceDate))
        return err({ code: 'since_date', status: 422, message: 'since_date: must be YYYY-MM-DD.' });
      const sinceId = Number(query.get('since_id') ?? '0');
      if (!Number.isSafeInteger(sinceId) || sinceId < 0)
        return err({ code: 'since_id', status: 422, message: 'since_id: must be an event id.' });
      const invoiceUid = query.get('invoice_uid');
      const only = invoiceUid === undefined ? undefined : findInvoice(tx, invoiceUid);
      if (invoiceUid !== undefined && only === undefined)
        return err({ code: 'not_found', status: 404, message: 'Invoice not found.' });
      const types = query.list('event_types');
      const unknown = types.find((type) => !INVOICE_EVENT_TYPES.has(type));
      if (unknown !== undefined)
        return err({
          code: 'event_types',
          status: 422,
          message: `event_types: ${unknown} is not an invoice event type.`,
        });
      const withStatus = query.get('with_change_invoice_status') === 'true';
      const from = sinceDate === undefined ? undefined : startOfDay(sinceDate, tx.settings.timeZone);
      const matching = allEvents(tx.state).filter(
        (event) =>
          event.id > sinceId &&
          (only === undefined || event.invoice.id === only.id) &&
          (from === undefined || event.at >= from) &&
          (types.length === 0 || types.includes(event.type)) &&
          (withStatus || event.type !== 'change_invoice_status'),
      );
      const shown = matching.slice((page - 1) * perPage, page * perPage);
      return reply(200, (state) => ({
        events: shown.map((event) => ({
          id: event.id,
          timestamp: stamp(state, event.at),
          invoice: presentInvoice(state, event.invoice),
          event_type: event.type,
          event_data: event.data(state),
        })),
        page,
        per_page: perPage,
        total_pages: Math.ceil(matching.length / perPage),
      }));
    },
  },
] as const satisfies readonly Route[];
