/**
 * Advance invoices: the next period billed before it begins, at most one per subscription
 * per period. It bills what the renewal would bill in advance — the product and the component quantities
 * held now (quantity-based, on/off, renewing prepaid), with the recurring coupons and taxes — priced by
 * the renewal's own charge builders. `force` voids the existing one and issues a new one; voiding returns
 * the prepayments and credits applied to it, and the period may then be invoiced in advance again.
 *
 * The renewal that starts the period collects the advance invoice if it is still open and bills only
 * what is billed in arrears (metered and event-based usage of the period that ends, accrued allocation
 * charges) plus the difference between the quantities held then and those billed in advance: more is
 * charged, less becomes service credit.
 */

import type { BillingPeriod } from '../../domain/allocation/proration.js';
import type { DomainError } from '../../domain/errors.js';
import type { Invoice } from '../../domain/invoice/types.js';
import type { PaymentGateway } from '../../domain/payment/types.js';
import type { Subscription } from '../../domain/subscription/types.js';
import { add, type Dec, isPositive, min, sub, toMinor } from '../../kernel/money.js';
import { err, ok, type Result } from '../../kernel/result.js';
import { formatTimestamp } from '../../kernel/time.js';
import {
  billedInAdvance,
  componentAdvanceCharges,
  componentArrearsCharges,
} from '../allocation/component-renewal.js';
import { renewalCouponSpecs } from '../coupon/renewal-coupons.js';
import type { MemberCharges } from '../group/billing.js';
import { groupOf } from '../group/membership.js';
import { postServiceCreditGranted } from '../ledger/transfers.js';
import { startDunning } from '../renewal/dunning.js';
import { recordRenewalOutcome, renewalFailed } from '../renewal/outcome.js';
import { nextPeriodOf } from '../subscription/periods.js';
import { productCharge } from '../subscription/product-charge.js';
import type { Transaction } from '../transaction.js';
import { applyBalances, settleIfPaid } from './balances.js';
import { createInvoice } from './build.js';
import { type CollectionOutcome, collectInvoice } from './collect.js';
import type { ChargeLine, InvoiceCouponSpec } from './drafts.js';
import { recordInvoiceIssued } from './issued-event.js';
import { voidInvoice } from './void.js';

const refused = (message: string): DomainError => ({ code: 'advance_invoice', status: 422, message });

/** The subscription's advance invoice for its next period, unless voided. */
export function pendingAdvanceInvoice(
  tx: Transaction,
  subscription: Subscription,
  periodStart: string,
): Invoice | undefined {
  const invoice =
    subscription.advanceInvoiceId === null ? undefined : tx.get('invoices', subscription.advanceInvoiceId);
  return invoice !== undefined && invoice.status !== 'voided' && invoice.periodStartedAt === periodStart
    ? invoice
    : undefined;
}

/** Issues the advance invoice of the next period. */
export function issueAdvanceInvoice(
  tx: Transaction,
  subscription: Subscription,
  force: boolean,
  gateway: PaymentGateway,
): Result<Invoice, DomainError> {
  if (subscription.state !== 'active')
    return err(
      refused(`An advance invoice needs an active subscription; this one is ${subscription.state}.`),
    );
  const period = nextPeriodOf(tx, subscription);
  if (period === undefined) return err(refused('The subscription has no price point.'));
  const existing = pendingAdvanceInvoice(tx, subscription, period.start);
  if (existing !== undefined) {
    if (!force)
      return err(
        refused(
          'An advance invoice already exists for the next billing period. Use force to void it and issue a new one.',
        ),
      );
    const voided = voidInvoice(tx, existing, 'Replaced by a new advance invoice');
    if (!voided.ok) return voided;
  }
  const current = tx.get('subscriptions', subscription.id) ?? subscription;
  const charge = productCharge(tx, current, period.start, period.end);
  const lines = [...(charge === undefined ? [] : [charge]), ...componentAdvanceCharges(tx, current, period)];
  const invoice = createInvoice(tx, {
    subscription: current,
    role: 'renewal',
    status: 'open',
    lines,
    coupons: renewalCouponSpecs(tx, current, lines, true, period.start),
    periodStartedAt: period.start,
    periodEndsAt: period.end,
    advance: true,
  });
  const applied = settleIfPaid(tx, applyBalances(tx, invoice));
  recordInvoiceIssued(tx, applied);
  if (applied.status !== 'paid') collectInvoice(tx, applied.id, gateway);
  const latest = tx.get('subscriptions', subscription.id) ?? current;
  tx.put('subscriptions', { ...latest, advanceInvoiceId: invoice.id, updatedAt: tx.now });
  return ok(tx.get('invoices', invoice.id) ?? applied);
}

/** Voids the advance invoice (a reason is required; it must be open). */
export function voidAdvanceInvoice(
  tx: Transaction,
  subscription: Subscription,
  reason: string,
): Result<Invoice, DomainError> {
  const invoice =
    subscription.advanceInvoiceId === null ? undefined : tx.get('invoices', subscription.advanceInvoiceId);
  if (invoice === undefined || invoice.status === 'voided')
    return err({ code: 'not_found', status: 404, message: 'Advance invoice not found.' });
  if (invoice.status !== 'open')
    return err(refused(`Only an open advance invoice can be voided; this one is ${invoice.status}.`));
  return voidInvoice(tx, invoice, reason);
}

/**
 * The renewal of a period an advance invoice billed (the subscription already moved into it). The advance
 * invoice is collected if still open; the charges billed in arrears go on a renewal invoice of their own.
 * The renewal records one `renewal_success` or `renewal_failure` (for the arrears invoice when there is
 * one, else for the advance invoice; a failure if either is not paid) and each unpaid invoice joins
 * dunning. A group member's arrears charges are returned instead, to be billed with its group.
 */
export function renewCoveredPeriod(
  tx: Transaction,
  subscription: Subscription,
  advance: Invoice,
  period: BillingPeriod,
  gateway: PaymentGateway,
): MemberCharges | undefined {
  const id = subscription.id;
  const current = () => tx.get('subscriptions', id) ?? subscription;
  tx.put('subscriptions', { ...subscription, advanceInvoiceId: null, updatedAt: tx.now });
  const arrears = componentArrearsCharges(tx, current(), period, billedInAdvance(advance));
  const advanceOutcome: CollectionOutcome =
    tx.get('invoices', advance.id)?.status === 'paid'
      ? { kind: 'nothing-due' }
      : collectInvoice(tx, advance.id, gateway);
  // Credit returns money the advance invoice took: none for what it is still owed (remittance, declined).
  const credit = min(arrears.credit, settledWith(tx.get('invoices', advance.id) ?? advance));
  if (isPositive(credit)) addAdjustmentCredit(tx, current(), credit);
  if (arrears.lines.length === 0) {
    recordRenewalOutcome(tx, current(), advance.id, advanceOutcome);
    return undefined;
  }
  if (groupOf(tx, id) !== undefined) {
    if (renewalFailed(advanceOutcome)) startDunning(tx, current(), advance.id);
    return { subscription: current(), charges: arrears.lines };
  }
  const invoice = createInvoice(tx, {
    subscription: current(),
    role: 'renewal',
    status: 'open',
    lines: arrears.lines,
    coupons: arrearsCouponSpecs(tx, current(), advance, arrears.lines),
    periodStartedAt: period.start,
    periodEndsAt: period.end,
  });
  const applied = settleIfPaid(tx, applyBalances(tx, invoice));
  recordInvoiceIssued(tx, applied);
  const outcome = collectInvoice(tx, applied.id, gateway);
  const failed = [
    { invoiceId: advance.id, outcome: advanceOutcome },
    { invoiceId: invoice.id, outcome },
  ].filter((each) => renewalFailed(each.outcome));
  recordRenewalOutcome(tx, current(), invoice.id, failed[0]?.outcome ?? outcome, false);
  for (const each of failed) startDunning(tx, current(), each.invoiceId);
  return undefined;
}

/**
 * The recurring coupons of the arrears invoice: percentages as on any renewal; an amount coupon only
 * with what the advance invoice left of its amount, so the period's discount is the coupon's once.
 */
export function arrearsCouponSpecs(
  tx: Transaction,
  subscription: Subscription,
  advance: Invoice,
  charges: readonly ChargeLine[],
): InvoiceCouponSpec[] {
  const periodStart = advance.periodStartedAt ?? subscription.currentPeriodStartedAt;
  return renewalCouponSpecs(tx, subscription, charges, true, periodStart).flatMap((spec) => {
    if (spec.kind !== 'amount' || spec.amount === null) return [spec];
    const used = advance.discounts
      .filter((discount) => discount.sourceId === spec.sourceId && discount.code === spec.code)
      .reduce((total: Dec, discount) => add(total, discount.discountAmount), '0');
    const left = sub(spec.amount, used);
    return isPositive(left) ? [{ ...spec, amount: left }] : [];
  });
}

/** What an invoice was settled with: payments and credits applied, less what was refunded. */
function settledWith(invoice: Invoice): Dec {
  const settled = sub(add(invoice.totals.paid, invoice.totals.credit), invoice.totals.refund);
  return isPositive(settled) ? settled : '0';
}

/** Service credit for quantities billed in advance that the subscription no longer held at the renewal. */
function addAdjustmentCredit(tx: Transaction, subscription: Subscription, amount: Dec): void {
  const balance = add(subscription.serviceCreditBalance, amount);
  tx.put('subscriptions', { ...subscription, serviceCreditBalance: balance, updatedAt: tx.now });
  postServiceCreditGranted(tx, subscription.id, amount, 'advance_adjustment');
  const currency = tx.settings.currency;
  tx.record({
    key: 'subscription_service_credit_account_balance_changed',
    message: `Service credit of ${amount} added for allocations lowered since the advance invoice`,
    subscriptionId: subscription.id,
    customerId: subscription.customerId,
    data: {
      reason: 'Allocation change since the advance invoice',
      service_credit_account_balance_in_cents: toMinor(balance, currency),
      service_credit_balance_change_in_cents: toMinor(amount, currency),
      currency_code: currency,
      at_time: formatTimestamp(tx.now, tx.settings.timeZone),
    },
  });
}
