/**
 * What happens to a subscription as time passes: renewals, trial ends, dunning retries, delayed
 * cancellations and expiry. Each runs at the instant it falls due (`tx.now`).
 */

import type { Product, ProductPricePoint } from '../../domain/catalog/types.js';
import type { PaymentGateway } from '../../domain/payment/types.js';
import { dueAt, periodOf, stepOf } from '../../domain/subscription/schedule.js';
import type { Subscription, SubscriptionState } from '../../domain/subscription/types.js';
import { isPositive } from '../../kernel/money.js';
import { addSeconds, calendarDateOf } from '../../kernel/time.js';
import { componentRenewalCharges } from '../allocation/component-renewal.js';
import type { MemberCharges } from '../group/billing.js';
import { groupOf } from '../group/membership.js';
import { billGroupMembers, renewWithGroup } from '../group/renewal.js';
import { pendingAdvanceInvoice, renewCoveredPeriod } from '../invoice/advance.js';
import {
  type ChargeLine,
  type CollectionOutcome,
  collectInvoice,
  createInvoice,
} from '../invoice/collect.js';
import { applyBalances, settleIfPaid } from '../invoice/issue.js';
import { recordInvoiceIssued } from '../invoice/issued-event.js';
import { renewalCouponSpecs } from '../invoice/proforma.js';
import { cancelNow, resume } from '../subscription/status.js';
import type { Transaction } from '../transaction.js';

/** Moves a subscription to another state, recording `subscription_state_change`. */
export function changeState(
  tx: Transaction,
  subscription: Subscription,
  next: SubscriptionState,
  patch: Partial<Subscription> = {},
): Subscription {
  const updated = tx.put('subscriptions', {
    ...subscription,
    ...patch,
    state: next,
    previousState: subscription.state,
    updatedAt: tx.now,
  });
  if (next !== subscription.state) {
    tx.record({
      key: 'subscription_state_change',
      message: `State changed on subscription ${subscription.id} from ${subscription.state} to ${next}`,
      subscriptionId: subscription.id,
      customerId: subscription.customerId,
      data: { previous_subscription_state: subscription.state, new_subscription_state: next },
    });
  }
  return updated;
}

type DueAction = 'resume' | 'expire' | 'retry' | 'cancel' | 'end-trial' | 'renew';

/** What falls due for a subscription at `now` (its `dueAt`), or null when nothing is scheduled. */
export function dueAction(subscription: Subscription, now: string): DueAction | null {
  const at = dueAt(subscription);
  if (at === null) return null;
  if (subscription.state === 'on_hold') return 'resume';
  if (subscription.expiresAt !== null && subscription.expiresAt <= now) return 'expire';
  // A retry due at the same instant as the renewal runs first; the renewal is then the next step.
  if (subscription.nextDunningAt !== null && subscription.nextDunningAt === at) return 'retry';
  if (subscription.cancelAtEndOfPeriod) return 'cancel';
  if (subscription.state === 'trialing') return 'end-trial';
  return 'renew';
}

/** Runs whatever is due now for a subscription. */
export function runDue(tx: Transaction, subscription: Subscription, gateway: PaymentGateway): void {
  switch (dueAction(subscription, tx.now)) {
    case null:
      return;
    case 'resume':
      resume(tx, subscription, gateway);
      return;
    case 'expire':
      changeState(tx, subscription, 'expired', { nextDunningAt: null });
      return;
    case 'retry':
      retryDunning(tx, subscription, gateway);
      return;
    case 'cancel':
      cancelNow(tx, subscription, 'merchant_api', subscription.cancellationMessage);
      return;
    case 'end-trial':
      endTrial(tx, subscription, gateway);
      return;
    case 'renew':
      renew(tx, subscription, gateway);
  }
}

/** The product charge of a subscription for a period. */
export function productCharge(
  tx: Transaction,
  subscription: Subscription,
  start: string,
  end: string,
): ChargeLine | undefined {
  const product = tx.get('products', subscription.productId);
  const pricePoint = tx.get('productPricePoints', subscription.productPricePointId);
  if (product === undefined || pricePoint === undefined) return undefined;
  const zone = tx.settings.timeZone;
  return {
    title: product.name,
    description: `${calendarDateOf(start, zone)} - ${calendarDateOf(addSeconds(end, -1), zone)}`,
    quantity: '1',
    unitPrice: pricePoint.price,
    taxable: product.taxable,
    kind: 'baseline',
    productId: product.id,
    productVersion: product.versionNumber,
    productPricePointId: pricePoint.id,
    periodRangeStart: calendarDateOf(start, zone),
    periodRangeEnd: calendarDateOf(addSeconds(end, -1), zone),
  };
}

/** The one-time initial charge of a product's price point, when it has a positive one. */
export function initialChargeLine(product: Product, pricePoint: ProductPricePoint): ChargeLine | undefined {
  if (pricePoint.initialCharge === null || !isPositive(pricePoint.initialCharge)) return undefined;
  return {
    title: `${product.name} initial charge`,
    quantity: '1',
    unitPrice: pricePoint.initialCharge,
    taxable: product.taxable,
    kind: 'initial',
    productId: product.id,
    productPricePointId: pricePoint.id,
  };
}

/**
 * Starts the next period, bills it and collects. A group member renews together with every other
 * member of its group renewing at this very instant, on one consolidated invoice (group-billing.ts).
 */
function renew(tx: Transaction, subscription: Subscription, gateway: PaymentGateway): void {
  const opened = openNextPeriod(tx, subscription, gateway);
  if (opened === undefined) return;
  const group = groupOf(tx, subscription.id);
  if (group === undefined) {
    billPeriod(tx, opened.subscription, opened.charges, 'renewal', gateway);
    return;
  }
  renewWithGroup(tx, group, opened, gateway);
}

/**
 * Moves a subscription into its next period and returns the period's charges; a period already
 * invoiced in advance is renewed by `renewCoveredPeriod` (only its arrears charges, if any, come back
 * for a group member). Periods count from the anchor; when the
 * price point's interval has changed since, the next period starts at the current period's end under
 * a new anchor.
 */
export function openNextPeriod(
  tx: Transaction,
  subscription: Subscription,
  gateway: PaymentGateway,
): MemberCharges | undefined {
  const pricePoint = tx.get('productPricePoints', subscription.productPricePointId);
  if (pricePoint === undefined) return undefined;
  const sameStep =
    pricePoint.interval === subscription.interval && pricePoint.intervalUnit === subscription.intervalUnit;
  const anchor = sameStep ? subscription.billingAnchor : subscription.currentPeriodEndsAt;
  const periodNumber = sameStep ? subscription.periodNumber + 1 : 0;
  const period = periodOf(
    anchor,
    tx.settings.timeZone,
    stepOf(pricePoint.interval, pricePoint.intervalUnit),
    periodNumber,
  );
  const moved = tx.put('subscriptions', {
    ...subscription,
    billingAnchor: anchor,
    periodNumber,
    interval: pricePoint.interval,
    intervalUnit: pricePoint.intervalUnit,
    currentPeriodStartedAt: period.start,
    currentPeriodEndsAt: period.end,
    nextAssessmentAt: period.end,
    updatedAt: tx.now,
  });
  tx.record({
    key: 'statement_closed',
    message: `Statement closed for subscription ${subscription.id}`,
    subscriptionId: subscription.id,
    customerId: subscription.customerId,
  });
  const advance = pendingAdvanceInvoice(tx, moved, period.start);
  if (advance !== undefined) return renewCoveredPeriod(tx, moved, advance, period, gateway);
  const charge = productCharge(tx, moved, period.start, period.end);
  const components = componentRenewalCharges(tx, moved, period);
  return {
    subscription: tx.get('subscriptions', moved.id) ?? moved,
    charges: [...(charge === undefined ? [] : [charge]), ...components],
  };
}

/** Bills a period's charges on a renewal invoice and moves the state on the outcome. */
export function billPeriod(
  tx: Transaction,
  subscription: Subscription,
  charges: readonly ChargeLine[],
  role: 'renewal',
  gateway: PaymentGateway,
): void {
  const group = groupOf(tx, subscription.id);
  if (group !== undefined) {
    billGroupMembers(tx, group, [{ subscription, charges }], gateway);
    return;
  }
  const invoice = createInvoice(tx, {
    subscription,
    role,
    status: 'open',
    lines: charges,
    coupons: renewalCouponSpecs(tx, subscription, charges),
    periodStartedAt: subscription.currentPeriodStartedAt,
    periodEndsAt: subscription.currentPeriodEndsAt,
  });
  const applied = settleIfPaid(tx, applyBalances(tx, invoice));
  recordInvoiceIssued(tx, applied);
  // The `unpaid` final action: "Charges accrue, but collections pause" until the subscription is
  // reactivated or what it owes is paid. Its balances still apply; the gateway is not asked.
  const paused = subscription.state === 'unpaid' && isPositive(applied.totals.due);
  const outcome: CollectionOutcome = paused
    ? { kind: 'not-collected', reason: 'collections-paused' }
    : collectInvoice(tx, applied.id, gateway);
  const current = tx.get('subscriptions', subscription.id) ?? subscription;
  recordRenewalOutcome(tx, current, invoice.id, outcome);
}

export const renewalFailed = (outcome: CollectionOutcome): boolean =>
  outcome.kind === 'failed' || (outcome.kind === 'not-collected' && outcome.reason !== 'remittance');

/** Records `renewal_success` or `renewal_failure` for a renewal invoice; a failure starts or joins dunning. */
export function recordRenewalOutcome(
  tx: Transaction,
  subscription: Subscription,
  invoiceId: number,
  outcome: CollectionOutcome,
  dunning = true,
): void {
  const failed = renewalFailed(outcome);
  tx.record({
    key: failed ? 'renewal_failure' : 'renewal_success',
    message: `Renewal ${failed ? 'failed' : 'succeeded'} for subscription ${subscription.id}`,
    subscriptionId: subscription.id,
    customerId: subscription.customerId,
    data: { product_id: subscription.productId, account_transaction_id: invoiceId },
  });
  if (!failed || !dunning) return;
  // An unpaid subscription's renewal joins what it owes; no retry is scheduled while collections pause.
  if (outcome.kind === 'not-collected' && outcome.reason === 'collections-paused') {
    tx.put('subscriptions', {
      ...subscription,
      dunningInvoiceIds: [...subscription.dunningInvoiceIds, invoiceId],
      updatedAt: tx.now,
    });
    return;
  }
  startDunning(tx, subscription, invoiceId);
}

/**
 * A renewal invoice went unpaid. The first failure starts dunning (`past_due`, retries at the site's
 * retry days counted from that failure); later failures join the invoices already being chased without
 * restarting the schedule, so dunning always ends.
 */
export function startDunning(tx: Transaction, subscription: Subscription, invoiceId: number): void {
  if (subscription.nextDunningAt !== null) {
    tx.put('subscriptions', {
      ...subscription,
      dunningInvoiceIds: [...subscription.dunningInvoiceIds, invoiceId],
      updatedAt: tx.now,
    });
    return;
  }
  const firstRetry = tx.settings.dunning.retryDays[0];
  if (firstRetry === undefined) {
    finishDunning(tx, { ...subscription, dunningInvoiceIds: [...subscription.dunningInvoiceIds, invoiceId] });
    return;
  }
  changeState(tx, subscription, subscription.state === 'unpaid' ? 'unpaid' : 'past_due', {
    dunningAttempts: 0,
    nextDunningAt: addSeconds(tx.now, firstRetry * 86_400),
    dunningInvoiceIds: [...subscription.dunningInvoiceIds, invoiceId],
  });
}

/** Retries every invoice dunning chases; all paid ends dunning, otherwise the next retry or the final action. */
function retryDunning(tx: Transaction, subscription: Subscription, gateway: PaymentGateway): void {
  const unpaid: number[] = [];
  for (const invoiceId of subscription.dunningInvoiceIds) {
    const invoice = tx.get('invoices', invoiceId);
    if (invoice === undefined || invoice.status === 'paid' || invoice.status === 'voided') continue;
    const outcome = collectInvoice(tx, invoiceId, gateway);
    if (outcome.kind !== 'paid' && outcome.kind !== 'nothing-due') unpaid.push(invoiceId);
  }
  const current = tx.get('subscriptions', subscription.id) ?? subscription;
  if (unpaid.length === 0) {
    changeState(tx, current, 'active', { dunningAttempts: 0, nextDunningAt: null, dunningInvoiceIds: [] });
    return;
  }
  const attempts = current.dunningAttempts + 1;
  const retryDays = tx.settings.dunning.retryDays;
  const next = retryDays[attempts];
  const previous = retryDays[attempts - 1] ?? 0;
  if (next === undefined) {
    finishDunning(tx, { ...current, dunningAttempts: attempts, dunningInvoiceIds: unpaid });
    return;
  }
  tx.put('subscriptions', {
    ...current,
    dunningAttempts: attempts,
    dunningInvoiceIds: unpaid,
    nextDunningAt: addSeconds(tx.now, Math.max(1, next - previous) * 86_400),
    updatedAt: tx.now,
  });
}

function finishDunning(tx: Transaction, subscription: Subscription): void {
  if (tx.settings.dunning.finalAction === 'unpaid') {
    changeState(tx, subscription, 'unpaid', { nextDunningAt: null });
    return;
  }
  cancelNow(tx, tx.put('subscriptions', subscription), 'dunning', null);
}

/** A trial ends: with a way to pay, the first paid period starts; without one, `trial_ended`. */
function endTrial(tx: Transaction, subscription: Subscription, gateway: PaymentGateway): void {
  const pricePoint = tx.get('productPricePoints', subscription.productPricePointId);
  const product = tx.get('products', subscription.productId);
  if (pricePoint === undefined || product === undefined) return;
  const canPay =
    subscription.paymentProfileId !== null || subscription.paymentCollectionMethod === 'remittance';
  if (!canPay) {
    changeState(tx, subscription, 'trial_ended', { trialEndedAt: tx.now });
    return;
  }
  const period = periodOf(
    tx.now,
    tx.settings.timeZone,
    stepOf(pricePoint.interval, pricePoint.intervalUnit),
    0,
  );
  const active = changeState(tx, subscription, 'active', {
    trialEndedAt: tx.now,
    activatedAt: subscription.activatedAt ?? tx.now,
    billingAnchor: tx.now,
    periodNumber: 0,
    interval: pricePoint.interval,
    intervalUnit: pricePoint.intervalUnit,
    currentPeriodStartedAt: period.start,
    currentPeriodEndsAt: period.end,
    nextAssessmentAt: period.end,
  });
  const charges: ChargeLine[] = [];
  const charge = productCharge(tx, active, period.start, period.end);
  if (charge) charges.push(charge);
  const initialCharge = product.initialChargeAfterTrial ? initialChargeLine(product, pricePoint) : undefined;
  if (initialCharge) charges.push(initialCharge);
  charges.push(...componentRenewalCharges(tx, active, period));
  billPeriod(tx, active, charges, 'renewal', gateway);
}
