/**
 * Refunding an invoice's payment. The money goes back to the customer, through the gateway to the card or
 * account that paid, or (`external`) recorded as returned outside it; the invoice owes it again unless
 * `apply_credit` settles it with the refund's credit note, and with `void_invoice` a wholly refunded
 * invoice is voided. Every refund issues a credit note.
 */
import type { DomainError } from '../../domain/errors.js';
import type { Invoice, InvoicePayment } from '../../domain/invoice/types.js';
import { attemptKeyedBy, refundAttemptKey } from '../../domain/payment/idempotency.js';
import type { PaymentGateway, PaymentProfile } from '../../domain/payment/types.js';
import { add, cmp, type Dec, isPositive, isZero, sub } from '../../kernel/money.js';
import { err, ok, type Result } from '../../kernel/result.js';
import { listed } from '../list-index.js';
import type { Transaction } from '../transaction.js';
import { creditOf, issueCreditNote } from './credit-notes.js';
import { refused } from './refusal.js';
import { voidInvoice } from './void.js';

/** What a refund asks for. */
export interface RefundInput {
  readonly paymentId: number;
  readonly amount: Dec;
  readonly memo: string;
  readonly external: boolean;
  readonly applyCredit: boolean;
  readonly voidInvoice: boolean;
}

/** What was already returned of one payment. */
export function refundedOf(invoice: Invoice, paymentId: number): Dec {
  let refunded: Dec = '0';
  for (const refund of invoice.refunds ?? [])
    if (refund.paymentId === paymentId) refunded = add(refunded, refund.amount);
  return refunded;
}

/** The money an invoice received and still holds: its payments (not prepayments) less its refunds. */
export function netReceived(invoice: Invoice): Dec {
  let held: Dec = '0';
  for (const payment of invoice.payments) if (!payment.prepayment) held = add(held, payment.appliedAmount);
  for (const refund of invoice.refunds ?? []) held = sub(held, refund.amount);
  return held;
}

/** Refunds part or all of one of an invoice's payments. */
export function refundInvoice(
  tx: Transaction,
  invoice: Invoice,
  input: RefundInput,
  gateway: PaymentGateway,
): Result<Invoice, DomainError> {
  const problem = refundProblem(invoice, input);
  if (problem !== null) return err(problem);
  const payment = invoice.payments.find((entry) => entry.transactionId === input.paymentId);
  if (payment === undefined) return err(refused('Payment: not found on this invoice.'));
  let gatewayTransactionId: string | null = null;
  if (!input.external) {
    const charged = gatewayRefund(tx, invoice, payment, input, gateway);
    if (!charged.ok) return charged;
    gatewayTransactionId = charged.value;
  }
  const transactionId = tx.next('transactions');
  const refund = {
    transactionId,
    paymentId: payment.transactionId,
    memo: input.memo,
    amount: input.amount,
    external: input.external,
    gatewayTransactionId,
  };
  const note = issueCreditNote(tx, {
    reason: 'refund',
    invoice,
    amount: input.amount,
    memo: input.memo,
    applied: input.applyCredit,
    // Applied, its value settles the invoice; otherwise its value is the money paid back.
    ...(input.applyCredit ? {} : { refund }),
  });
  const reopens = !input.applyCredit;
  const refunded = tx.put('invoices', {
    ...invoice,
    refunds: [...(invoice.refunds ?? []), { ...refund, transactionTime: tx.now, creditNoteId: note.id }],
    credits: input.applyCredit ? [...invoice.credits, creditOf(note, 'credit_note')] : invoice.credits,
    totals: {
      ...invoice.totals,
      refund: add(invoice.totals.refund, input.amount),
      credit: input.applyCredit ? add(invoice.totals.credit, input.amount) : invoice.totals.credit,
      due: reopens ? add(invoice.totals.due, input.amount) : invoice.totals.due,
    },
    ...(reopens && invoice.status === 'paid' ? { status: 'open' as const, paidDate: null } : {}),
    history: [...invoice.history, { at: tx.now, kind: 'refunded', detail: input.memo }],
    updatedAt: tx.now,
  });
  const subscription = tx.get('subscriptions', invoice.subscriptionId);
  if (subscription !== undefined) {
    tx.put('subscriptions', {
      ...subscription,
      totalRevenue: sub(subscription.totalRevenue, input.amount),
      updatedAt: tx.now,
    });
    tx.record({
      key: 'refund_success',
      message: `Refund of ${input.amount} for invoice ${invoice.number}`,
      subscriptionId: subscription.id,
      customerId: invoice.customerId,
      data: {
        refund_id: transactionId,
        gateway_transaction_id: transactionId,
        product_id: subscription.productId,
      },
    });
  }
  if (reopens && input.voidInvoice && isZero(netReceived(refunded)))
    return voidInvoice(tx, refunded, input.memo === '' ? 'Refunded' : input.memo);
  return ok(refunded);
}

function refundProblem(invoice: Invoice, input: RefundInput): DomainError | null {
  if (invoice.consolidationLevel !== 'none')
    return refused('Refunds of consolidated invoices and their segments are not supported.');
  if (invoice.status !== 'paid' && invoice.status !== 'open')
    return refused(`Only paid or open invoices can be refunded; this one is ${invoice.status}.`);
  const payment = invoice.payments.find((entry) => entry.transactionId === input.paymentId);
  if (payment === undefined) return refused('Payment: not found on this invoice.');
  if (payment.prepayment)
    return refused(
      'Payment: a payment from prepayments is not refunded to the customer; void the invoice to return it.',
    );
  if (!isPositive(input.amount)) return refused('Amount: must be greater than 0.');
  const refundable = sub(payment.appliedAmount, refundedOf(invoice, payment.transactionId));
  if (cmp(input.amount, refundable) > 0)
    return refused(
      `Amount: must not exceed the remaining refundable balance of the payment (${refundable}).`,
    );
  if (!input.external && payment.lastFour === null)
    return refused('Payment: it was not taken through the gateway; refund it with external set to true.');
  return null;
}

/** Sends the refund to the gateway, answering the processor's transaction id. */
function gatewayRefund(
  tx: Transaction,
  invoice: Invoice,
  payment: InvoicePayment,
  input: RefundInput,
  gateway: PaymentGateway,
): Result<string | null, DomainError> {
  const profile = profileOf(tx, invoice, payment);
  if (profile === undefined)
    return err(
      refused('Payment: the card or account it was taken from is gone; refund it with external set to true.'),
    );
  const outcome = gateway(
    attemptKeyedBy(
      {
        kind: 'refund',
        amount: input.amount,
        currency: invoice.currency,
        paymentProfile: profile,
        customerId: invoice.customerId,
        subscriptionId: invoice.subscriptionId,
        memo: input.memo === '' ? `Refund for invoice ${invoice.number}` : input.memo,
        at: tx.now,
      },
      () => refundAttemptKey(tx.settings.subdomain, invoice, payment.transactionId, profile, input.amount),
    ),
  );
  if (!outcome.success) return err(refused(`Refund failed: ${outcome.message}`));
  return ok(outcome.gatewayTransactionId ?? null);
}

/** The profile a payment was taken with: the subscription's own if it matches, else the customer's that does. */
function profileOf(tx: Transaction, invoice: Invoice, payment: InvoicePayment): PaymentProfile | undefined {
  const matches = (profile: PaymentProfile | undefined): profile is PaymentProfile =>
    profile !== undefined && profile.lastFour === payment.lastFour;
  const subscription = tx.get('subscriptions', invoice.subscriptionId);
  const own =
    subscription?.paymentProfileId === null || subscription === undefined
      ? undefined
      : tx.get('paymentProfiles', subscription.paymentProfileId);
  if (matches(own)) return own;
  for (const id of listed(tx.state.listIndexes, 'customerPaymentProfiles', invoice.customerId)) {
    const profile = tx.get('paymentProfiles', id);
    if (matches(profile)) return profile;
  }
  return undefined;
}
