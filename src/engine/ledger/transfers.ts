/**
 * The transfers an operation posts itself: money that enters the site without an invoice (a prepayment)
 * and service credit the site grants. Movements on invoices post themselves from the rows
 * (domain/ledger/invoice-postings.ts, when the transaction ends).
 */
import type { ServiceCreditSource } from '../../domain/ledger/types.js';
import { type Dec, isPositive } from '../../kernel/money.js';
import type { Transaction } from '../transaction.js';

/** Money received for a subscription's prepayment balance: cash ← prepayments. */
export function postPrepaymentReceived(tx: Transaction, subscriptionId: number, amount: Dec): void {
  if (!isPositive(amount)) return;
  tx.transfer({
    kind: 'prepayment_received',
    debit: { name: 'cash', of: subscriptionId },
    credit: { name: 'prepayments', of: subscriptionId },
    amount,
    subscriptionId,
    invoiceId: null,
    source: null,
  });
}

/** A service credit granted to a subscription, and where it comes from: credits_granted ← service_credits. */
export function postServiceCreditGranted(
  tx: Transaction,
  subscriptionId: number,
  amount: Dec,
  source: ServiceCreditSource,
  invoiceId: number | null = null,
): void {
  if (!isPositive(amount)) return;
  tx.transfer({
    kind: 'service_credit_granted',
    debit: { name: 'credits_granted', of: null },
    credit: { name: 'service_credits', of: subscriptionId },
    amount,
    subscriptionId,
    invoiceId,
    source,
  });
}
