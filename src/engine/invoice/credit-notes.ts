/**
 * Issuing credit notes. Every refund issues one (its value went back to the customer, and with
 * `apply_credit` it also settles what the refund reopened), and so does every service credit an invoice
 * takes, so that each credit a customer received can be read as the official API shows it.
 */
import type { CreditNote, CreditNoteReason, CreditNoteRefund } from '../../domain/invoice/credit-note.js';
import type { Invoice, InvoiceCredit } from '../../domain/invoice/types.js';
import { idOfUid, uidOf } from '../../kernel/ids.js';
import type { Dec } from '../../kernel/money.js';
import { calendarDateOf } from '../../kernel/time.js';
import type { Transaction } from '../transaction.js';

/** What a new credit note says: why, from which invoice, its value, and what it was used for. */
export interface CreditNoteInput {
  readonly reason: CreditNoteReason;
  readonly invoice: Invoice;
  readonly amount: Dec;
  readonly memo: string;
  /** Whether the invoice takes its value as a credit (service credit, a refund with `apply_credit`). */
  readonly applied: boolean;
  readonly refund?: CreditNoteRefund;
}

/** Issues a credit note and answers it; the caller adds the invoice credit it names (see `creditOf`). */
export function issueCreditNote(tx: Transaction, input: CreditNoteInput): CreditNote {
  const id = tx.nextId('creditNotes');
  const uid = uidOf('cn', id);
  return tx.put('creditNotes', {
    id,
    uid,
    reason: input.reason,
    customerId: input.invoice.customerId,
    subscriptionId: input.invoice.subscriptionId,
    originInvoiceId: input.invoice.id,
    currency: input.invoice.currency,
    memo: input.memo,
    total: input.amount,
    issueDate: calendarDateOf(tx.now, tx.settings.timeZone),
    applications: input.applied
      ? [
          {
            uid: uidOf('cnapp', id),
            invoiceId: input.invoice.id,
            amount: input.amount,
            memo: input.memo,
            at: tx.now,
          },
        ]
      : [],
    refunds: input.refund === undefined ? [] : [input.refund],
    reversed: false,
    createdAt: tx.now,
    updatedAt: tx.now,
  });
}

/** The invoice credit of a credit note applied to an invoice. */
export function creditOf(note: CreditNote, kind: InvoiceCredit['kind']): InvoiceCredit {
  return {
    uid: note.uid,
    creditNoteNumber: String(note.id),
    transactionTime: note.createdAt,
    memo: note.memo,
    originalAmount: note.total,
    appliedAmount: note.total,
    kind,
  };
}

/**
 * Marks the credit notes of credits an invoice gave back (a void, a rollback to pending) as reversed: the
 * service credit they stood for is the subscription's again. Credits older than credit notes name none.
 */
export function reverseCreditNotes(
  tx: Transaction,
  invoice: Invoice,
  credits: readonly InvoiceCredit[],
): void {
  for (const credit of credits) {
    const id = idOfUid('cn', credit.uid);
    const note = id === undefined ? undefined : tx.get('creditNotes', id);
    if (note === undefined || note.uid !== credit.uid || note.originInvoiceId !== invoice.id) continue;
    if (note.reason !== 'service_credit' || note.reversed) continue;
    tx.put('creditNotes', { ...note, reversed: true, updatedAt: tx.now });
  }
}
