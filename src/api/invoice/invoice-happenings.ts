/**
 * What happened to invoices, as the official invoice events tell it, read from the invoices themselves
 * (their history, payments, credits and refunds) and from the credit notes issued for them. Payments and
 * credits a void took off an invoice are kept in its history, so their application is still told.
 */

import type { CreditNote } from '../../domain/invoice/credit-note.js';
import type {
  Invoice,
  InvoiceCredit,
  InvoiceHistoryEntry,
  InvoicePayment,
  InvoiceStatus,
} from '../../domain/invoice/types.js';
import type { SiteState } from '../../engine/state.js';
import { tableGet, tableRows } from '../../kernel/collection.js';
import { moneyFormatter, toMinor } from '../../kernel/money.js';
import { stamp } from '../common.js';
import { type Include, presentCreditNote } from './credit-notes.js';
import { paymentMethodOf } from './invoice-present.js';

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

/** `failed_payment` data: what the gateway was asked for and declined (nothing of it applied). */
export interface FailedPaymentData {
  readonly amount_in_cents: number;
  readonly applied_amount: number;
  readonly memo: string;
  readonly payment_method: 'credit_card' | 'ach';
  readonly transaction_id: number;
}

/** `remove_payment` data: a payment taken off the invoice, at the time it was taken off. */
export interface RemovedPaymentData {
  readonly transaction_id: number;
  readonly memo: string;
  readonly original_amount: string;
  readonly applied_amount: string;
  readonly transaction_time: string;
  readonly payment_method: ReturnType<typeof paymentMethodOf>;
  readonly prepayment: boolean;
}

/** `create_credit_note` data: the credit note as `GET /credit_notes/{uid}.json` shows it, with every part. */
export type CreatedCreditNoteData = ReturnType<typeof presentCreditNote>;

/** The data of any invoice event. */
export type InvoiceEventData =
  | IssueData
  | VoidData
  | StatusData
  | PaymentData
  | CreditData
  | RefundData
  | FailedPaymentData
  | RemovedPaymentData
  | CreatedCreditNoteData;

/** One invoice event before it is numbered: when, on which invoice, its type and its data. */
export interface Happening {
  readonly at: string;
  readonly invoice: Invoice;
  readonly ordinal: number;
  readonly type: string;
  readonly data: (state: SiteState) => InvoiceEventData;
}

type Found = Omit<Happening, 'ordinal' | 'invoice'>;

function paymentApplied(invoice: Invoice, payment: InvoicePayment): Found {
  const money = moneyFormatter(invoice.currency);
  return {
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
  };
}

function creditApplied(invoice: Invoice, credit: InvoiceCredit): Found {
  const money = moneyFormatter(invoice.currency);
  return {
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
  };
}

function issued(invoice: Invoice, at: string, from: string): Found {
  const money = moneyFormatter(invoice.currency);
  return {
    at,
    type: 'issue_invoice',
    data: () => ({
      from_status: from === 'pending' ? 'pending' : 'draft',
      to_status: 'open',
      due_amount: money(invoice.totals.due),
      total_amount: money(invoice.totals.total),
    }),
  };
}

/** The events one history entry tells of by itself (status changes, voids, removed payments). */
function historyEvents(invoice: Invoice, entry: InvoiceHistoryEntry): Found[] {
  const money = moneyFormatter(invoice.currency);
  const { payment } = entry;
  if (entry.kind === 'issued') return [issued(invoice, entry.at, entry.detail.replace(/^from /, ''))];
  if (entry.kind === 'voided')
    return [
      {
        at: entry.at,
        type: 'void_invoice',
        data: () => ({
          memo: entry.detail,
          applied_amount: null,
          transaction_time: null,
          is_advance_invoice: invoice.advance,
          reason: entry.detail,
        }),
      },
    ];
  if (entry.kind === 'payment_removed' && payment !== undefined)
    return [
      {
        at: entry.at,
        type: 'remove_payment',
        data: (state) => ({
          transaction_id: payment.transactionId,
          memo: payment.memo,
          original_amount: money(payment.originalAmount),
          applied_amount: money(payment.appliedAmount),
          transaction_time: stamp(state, entry.at) ?? entry.at,
          payment_method: paymentMethodOf(payment),
          prepayment: payment.prepayment,
        }),
      },
    ];
  if (entry.kind === 'reopened' || entry.detail === 'reopened on reactivation')
    return [
      {
        at: entry.at,
        type: 'change_invoice_status',
        data: () => ({ from_status: 'canceled', to_status: 'open' }),
      },
    ];
  if (entry.detail === 'canceled with the subscription')
    return [
      {
        at: entry.at,
        type: 'change_invoice_status',
        data: () => ({ from_status: 'open', to_status: 'canceled' }),
      },
    ];
  return [];
}

/** A declined payment of a history entry, when the gateway was asked. */
function failedPayment(invoice: Invoice, entry: InvoiceHistoryEntry): Found[] {
  const { attempt } = entry;
  if (entry.kind !== 'payment_failed' || attempt === undefined) return [];
  return [
    {
      at: entry.at,
      type: 'failed_payment',
      data: () => ({
        amount_in_cents: toMinor(attempt.amount, invoice.currency),
        applied_amount: 0,
        memo: entry.detail,
        payment_method: attempt.method,
        transaction_id: attempt.transactionId,
      }),
    },
  ];
}

/**
 * The order of an invoice's events of one instant (a single request does several): issued and status
 * changes, credits then payments applied, declined payments, refunds, credit notes created, then what a
 * void takes off and the void itself. Within a phase, the row's own order.
 */
const PHASE = { opened: 0, credits: 1, payments: 2, failures: 3, refunds: 4, creditNotes: 5, voided: 6 };
const PHASE_SIZE = 1_000_000;

const TAKEN_OFF: ReadonlySet<string> = new Set(['void_invoice', 'remove_payment']);

/** The events an invoice's row tells of, ordered by instant, then phase, then the row's order. */
export function happeningsOf(invoice: Invoice): Happening[] {
  const money = moneyFormatter(invoice.currency);
  const found: { happening: Found; phase: number }[] = [];
  const add = (phase: number, happenings: readonly Found[]) => {
    for (const happening of happenings) found.push({ happening, phase });
  };
  // An invoice made open (a renewal, an ad hoc invoice) was issued when it was made.
  if (
    invoice.status !== 'draft' &&
    invoice.status !== 'pending' &&
    !invoice.history.some((entry) => entry.kind === 'issued')
  )
    add(PHASE.opened, [issued(invoice, invoice.createdAt, 'draft')]);
  for (const entry of invoice.history)
    for (const happening of historyEvents(invoice, entry))
      add(TAKEN_OFF.has(happening.type) ? PHASE.voided : PHASE.opened, [happening]);
  const credits = [...invoice.credits];
  const payments = [...invoice.payments];
  for (const entry of invoice.history) {
    if (entry.credit !== undefined) credits.push(entry.credit);
    if (entry.payment !== undefined) payments.push(entry.payment);
  }
  add(
    PHASE.credits,
    credits.map((credit) => creditApplied(invoice, credit)),
  );
  add(
    PHASE.payments,
    payments.map((payment) => paymentApplied(invoice, payment)),
  );
  for (const entry of invoice.history) add(PHASE.failures, failedPayment(invoice, entry));
  add(
    PHASE.refunds,
    (invoice.refunds ?? []).map((refund) => ({
      at: refund.transactionTime,
      type: 'refund_invoice',
      data: (state: SiteState) => ({
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
    })),
  );
  return found
    .map(({ happening, phase }, index) => ({ ...happening, invoice, ordinal: phase * PHASE_SIZE + index }))
    .sort((a, b) => (a.at < b.at ? -1 : a.at > b.at ? 1 : a.ordinal - b.ordinal));
}

const ALL_CREDIT_NOTE_PARTS: ReadonlySet<Include> = new Set([
  'line_items',
  'discounts',
  'taxes',
  'refunds',
  'applications',
]);

/** `create_credit_note` of every credit note, on the invoice it was issued for. */
export function creditNoteHappenings(state: SiteState): Happening[] {
  const found: Happening[] = [];
  for (const note of tableRows(state.tables.creditNotes)) {
    const invoice = tableGet(state.tables.invoices, note.originInvoiceId);
    if (invoice !== undefined) found.push(creditNoteCreated(note, invoice));
  }
  return found;
}

function creditNoteCreated(note: CreditNote, invoice: Invoice): Happening {
  return {
    at: note.createdAt,
    invoice,
    ordinal: PHASE.creditNotes * PHASE_SIZE + note.id,
    type: 'create_credit_note',
    data: (state) => presentCreditNote(state, note, ALL_CREDIT_NOTE_PARTS),
  };
}
