/**
 * The posting rules of an invoice: what the books hold for it is a function of the invoice row alone, so
 * a change of the row posts the difference. Whatever path issued, paid, credited or voided it, the
 * transfers follow from what the row now says, and a row that says something the subscription's balances
 * do not (a prepayment applied but never taken off the balance) shows up in `checkLedger`.
 */
import { abs, add, type Dec, isNegative, isZero, sub } from '../../kernel/money.js';
import type { Invoice } from '../invoice/types.js';
import type { LedgerAccount, LedgerAccountName, TransferDraft, TransferKind } from './types.js';

/** What the books hold for one invoice, by kind of movement. */
export interface InvoicePosition {
  /** Billed: subtotal, discounts, tax (a consolidated parent bills nothing itself: its children do). */
  readonly sales: Dec;
  readonly discount: Dec;
  readonly tax: Dec;
  /** Written off by voiding: what it billed less what its parent paid of it. */
  readonly voided: Dec;
  /** Money received on it (a child's come from its parent: `settled`). */
  readonly cash: Dec;
  readonly prepaid: Dec;
  readonly credited: Dec;
  /** A child's payments by its consolidated parent. */
  readonly settled: Dec;
  /** Money received on an invoice that was voided and not refunded, moved to the subscription's prepayments. */
  readonly moved: Dec;
  /** Money returned on its payments. */
  readonly refunded: Dec;
  /** What credit notes applied to it forgave. */
  readonly creditNoted: Dec;
}

const ZERO: InvoicePosition = {
  sales: '0',
  discount: '0',
  tax: '0',
  voided: '0',
  cash: '0',
  prepaid: '0',
  credited: '0',
  settled: '0',
  moved: '0',
  refunded: '0',
  creditNoted: '0',
};

/**
 * What the books hold for an invoice row: nothing for a draft (it is not yet owed), else what it billed
 * and what settled it.
 * @example invoicePosition(draftInvoice).sales // '0'
 */
export function invoicePosition(invoice: Invoice | undefined): InvoicePosition {
  if (invoice === undefined || invoice.status === 'draft') return ZERO;
  const parent = invoice.consolidationLevel === 'parent';
  const child = invoice.consolidationLevel === 'child';
  let received: Dec = '0';
  let prepaid: Dec = '0';
  for (const payment of invoice.payments) {
    if (payment.prepayment) prepaid = add(prepaid, payment.appliedAmount);
    else received = add(received, payment.appliedAmount);
  }
  let credited: Dec = '0';
  let creditNoted: Dec = '0';
  for (const credit of invoice.credits)
    if (credit.kind === 'credit_note') creditNoted = add(creditNoted, credit.appliedAmount);
    else credited = add(credited, credit.appliedAmount);
  let refunded: Dec = '0';
  for (const refund of invoice.refunds ?? []) refunded = add(refunded, refund.amount);
  const totals = invoice.totals;
  const voided = invoice.status === 'voided';
  const settled = child ? received : '0';
  const cash = child ? '0' : received;
  return {
    sales: parent ? '0' : totals.subtotal,
    discount: parent ? '0' : totals.discount,
    tax: parent ? '0' : totals.tax,
    // A voided invoice keeps the credit notes applied to it: what they forgave is not written off again.
    voided: voided && !parent ? sub(sub(totals.total, settled), creditNoted) : '0',
    cash,
    prepaid,
    credited,
    settled,
    moved: voided ? sub(cash, refunded) : '0',
    refunded,
    creditNoted,
  };
}

/** The site's own accounts (sales, tax, …), one frozen object each rather than one per transfer. */
const siteAccounts = new Map<LedgerAccountName, LedgerAccount>();

/** The site's own account of that name (sales, tax, …): one frozen object every transfer shares. */
export function siteAccount(name: LedgerAccountName): LedgerAccount {
  let shared = siteAccounts.get(name);
  if (shared === undefined) {
    shared = Object.freeze({ name, of: null });
    siteAccounts.set(name, shared);
  }
  return shared;
}

function account(name: LedgerAccountName, of: number | null = null): LedgerAccount {
  return of === null ? siteAccount(name) : { name, of };
}

/**
 * The transfers that take the books from what they held for `before` to what they hold for `after` (the
 * same invoice; either may be undefined: not yet created, or deleted).
 * @example invoicePostings(undefined, issuedInvoice) // invoice_sales, invoice_discount, invoice_tax...
 */
export function invoicePostings(before: Invoice | undefined, after: Invoice | undefined): TransferDraft[] {
  const invoice = after ?? before;
  if (invoice === undefined) return [];
  const from = invoicePosition(before);
  const to = invoicePosition(after);
  if (from === to) return [];
  const receivable = account('receivable', invoice.id);
  const subscription = invoice.subscriptionId;
  const parentReceivable = account('receivable', invoice.parentInvoiceId);
  const transfers: TransferDraft[] = [];
  const post = (kind: TransferKind, change: Dec, debit: LedgerAccount, credit: LedgerAccount): void => {
    if (isZero(change)) return;
    const reversed = isNegative(change);
    transfers.push({
      kind,
      debit: reversed ? credit : debit,
      credit: reversed ? debit : credit,
      amount: reversed ? abs(change) : change,
      subscriptionId: subscription,
      invoiceId: invoice.id,
      source: null,
    });
  };
  // Most movements of a row change by nothing: the same text on both sides is a difference of 0.
  const delta = (field: keyof InvoicePosition): Dec =>
    to[field] === from[field] ? '0' : sub(to[field], from[field]);
  post('invoice_sales', delta('sales'), receivable, account('sales'));
  post('invoice_discount', delta('discount'), account('discounts'), receivable);
  post('invoice_tax', delta('tax'), receivable, account('tax'));
  const cashKind = invoice.consolidationLevel === 'parent' ? 'group_payment' : 'payment';
  post(cashKind, delta('cash'), account('cash', subscription), receivable);
  post('prepayment_applied', delta('prepaid'), account('prepayments', subscription), receivable);
  post('service_credit_applied', delta('credited'), account('service_credits', subscription), receivable);
  post('group_settlement', delta('settled'), parentReceivable, receivable);
  post('refund', delta('refunded'), receivable, account('cash', subscription));
  post('credit_note_applied', delta('creditNoted'), account('credit_notes'), receivable);
  post('void_payment_moved', delta('moved'), receivable, account('prepayments', subscription));
  post('invoice_void', delta('voided'), account('voids'), receivable);
  return transfers;
}
