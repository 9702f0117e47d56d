/**
 * `GET /invoices/events.json`: what happened to invoices, as the official invoice events. They are read
 * from the invoices themselves (their history, payments, credits and refunds), not kept apart: an event's
 * `invoice` is the invoice as it is now. Events are numbered in the order they happened (by instant,
 * then invoice, then the invoice's own order), so `since_id` pages forward through them.
 */

import type { Invoice, InvoiceStatus } from '../../domain/invoice/types.js';
import type { SiteState } from '../../engine/state.js';
import { tableRows } from '../../kernel/collection.js';
import { moneyFormatter } from '../../kernel/money.js';
import { err } from '../../kernel/result.js';
import { isCalendarDate, startOfDay } from '../../kernel/time.js';
import { stamp } from '../common.js';
import { type Route, reply } from '../route.js';
import { paymentMethodOf, presentInvoice } from './invoice-present.js';
import { findInvoice } from './invoices.js';

/** `issue_invoice` data. */
export interface IssueData {
  readonly from_status: 'draft' | 'pending';
  readonly to_status: 'open';
  readonly due_amount: string;
  readonly total_amount: string;
}

/** `void_invoice` data. */
export interface VoidData {
  readonly memo: string;
  readonly applied_amount: null;
  readonly transaction_time: null;
  readonly is_advance_invoice: boolean;
  readonly reason: string;
}

/** `change_invoice_status` data. */
export interface StatusData {
  readonly from_status: InvoiceStatus;
  readonly to_status: InvoiceStatus;
}

/** `apply_payment` data. */
export interface PaymentData {
  readonly memo: string;
  readonly original_amount: string;
  readonly applied_amount: string;
  readonly transaction_time: string | null;
  readonly payment_method: ReturnType<typeof paymentMethodOf>;
  readonly transaction_id: number;
  readonly prepayment: boolean;
  readonly external: boolean;
}

/** `apply_credit_note` data. */
export interface CreditData {
  readonly uid: string;
  readonly credit_note_number: string;
  readonly credit_note_uid: string;
  readonly original_amount: string;
  readonly applied_amount: string;
  readonly transaction_time: string | null;
  readonly memo: string;
  readonly consolidated_invoice: boolean;
}

/** `refund_invoice` data. */
export interface RefundData {
  readonly apply_credit: boolean;
  readonly memo: string;
  readonly original_amount: string;
  readonly payment_id: number;
  readonly refund_amount: string;
  readonly refund_id: number;
  readonly transaction_time: string | null;
}

/** One invoice event before it is numbered: when, on which invoice, its type and its data. */
interface Happening {
  readonly at: string;
  readonly invoice: Invoice;
  readonly ordinal: number;
  readonly type: string;
  readonly data: (
    state: SiteState,
  ) => IssueData | VoidData | StatusData | PaymentData | CreditData | RefundData;
}

/** The events an invoice's row tells of, in its own order. */
function happeningsOf(invoice: Invoice): Happening[] {
  const money = moneyFormatter(invoice.currency);
  const found: Omit<Happening, 'ordinal' | 'invoice'>[] = [];
  const issued = (at: string, from: string): void => {
    found.push({
      at,
      type: 'issue_invoice',
      data: () => ({
        from_status: from === 'pending' ? 'pending' : 'draft',
        to_status: 'open',
        due_amount: money(invoice.totals.due),
        total_amount: money(invoice.totals.total),
      }),
    });
  };
  // An invoice made open (a renewal, an ad hoc invoice) was issued when it was made.
  if (
    invoice.status !== 'draft' &&
    invoice.status !== 'pending' &&
    !invoice.history.some((entry) => entry.kind === 'issued')
  )
    issued(invoice.createdAt, 'draft');
  for (const entry of invoice.history) {
    if (entry.kind === 'issued') issued(entry.at, entry.detail.replace(/^from /, ''));
    if (entry.kind === 'voided')
      found.push({
        at: entry.at,
        type: 'void_invoice',
        data: () => ({
          memo: entry.detail,
          applied_amount: null,
          transaction_time: null,
          is_advance_invoice: invoice.advance,
          reason: entry.detail,
        }),
      });
    if (entry.kind === 'reopened' || entry.detail === 'reopened on reactivation')
      found.push({
        at: entry.at,
        type: 'change_invoice_status',
        data: () => ({ from_status: 'canceled', to_status: 'open' }),
      });
    if (entry.detail === 'canceled with the subscription')
      found.push({
        at: entry.at,
        type: 'change_invoice_status',
        data: () => ({ from_status: 'open', to_status: 'canceled' }),
      });
  }
  for (const payment of invoice.payments)
    found.push({
      at: payment.transactionTime,
      type: 'apply_payment',
      data: (state) => ({
        memo: payment.memo,
        original_amount: money(payment.originalAmount),
        applied_amount: money(payment.appliedAmount),
        transaction_time: stamp(state, payment.transactionTime),
        payment_method: paymentMethodOf(payment),
        transaction_id: payment.transactionId,
        prepayment: payment.prepayment,
        external: payment.lastFour === null,
      }),
    });
  for (const credit of invoice.credits)
    found.push({
      at: credit.transactionTime,
      type: 'apply_credit_note',
      data: (state) => ({
        uid: credit.uid,
        credit_note_number: credit.creditNoteNumber,
        credit_note_uid: credit.uid,
        original_amount: money(credit.originalAmount),
        applied_amount: money(credit.appliedAmount),
        transaction_time: stamp(state, credit.transactionTime),
        memo: credit.memo,
        consolidated_invoice: invoice.consolidationLevel === 'parent',
      }),
    });
  for (const refund of invoice.refunds ?? [])
    found.push({
      at: refund.transactionTime,
      type: 'refund_invoice',
      data: (state) => ({
        apply_credit: invoice.credits.some(
          (credit) => credit.creditNoteNumber === String(refund.creditNoteId),
        ),
        memo: refund.memo,
        original_amount: money(refund.amount),
        payment_id: refund.paymentId,
        refund_amount: money(refund.amount),
        refund_id: refund.transactionId,
        transaction_time: stamp(state, refund.transactionTime),
      }),
    });
  // A stable sort: the row's own order stands for events of one instant.
  return found
    .map((happening, index) => ({ ...happening, invoice, ordinal: index }))
    .sort((a, b) => (a.at < b.at ? -1 : a.at > b.at ? 1 : a.ordinal - b.ordinal));
}

/** The official `InvoiceEventType`s; the engine records the first six, the others never occur. */
const INVOICE_EVENT_TYPES: ReadonlySet<string> = new Set([
  'issue_invoice',
  'apply_credit_note',
  'apply_payment',
  'refund_invoice',
  'void_invoice',
  'change_invoice_status',
  'create_credit_note',
  'apply_debit_note',
  'create_debit_note',
  'void_remainder',
  'backport_invoice',
  'change_invoice_collection_method',
  'remove_payment',
  'failed_payment',
  'change_chargeback_status',
]);

/** Every invoice event of the site, numbered from 1 in the order they happened. */
function allEvents(state: SiteState): (Happening & { id: number })[] {
  const all: Happening[] = [];
  for (const invoice of tableRows(state.tables.invoices)) all.push(...happeningsOf(invoice));
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
