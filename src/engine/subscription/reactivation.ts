/**
 * Reactivation. A canceled subscription reactivated before
 * the billing date that would have followed its cancellation is resumable: with `resume` it keeps its
 * period (and its trial, when canceled mid-trial with trial time left). Otherwise it starts a new period
 * now (a new trial with `include_trial` when the product has one). Invoices canceled with it are reopened
 * and collected, so a retained balance is charged and zeroed. A refused payment refuses the whole
 * reactivation; nothing changes.
 */

import type { DomainError } from '../../domain/errors.js';
import type { PaymentGateway } from '../../domain/payment/types.js';
import { periodOf, stepOf } from '../../domain/subscription/schedule.js';
import { can } from '../../domain/subscription/transitions.js';
import type { Subscription } from '../../domain/subscription/types.js';
import { isPositive } from '../../kernel/money.js';
import { err, ok, type Result } from '../../kernel/result.js';
import { invalidCouponCode } from '../coupon/coupon-use.js';
import { renewalCouponSpecs } from '../coupon/renewal-coupons.js';
import { type CollectionOutcome, collectInvoice, createInvoice } from '../invoice/collect.js';
import { recordInvoiceIssued } from '../invoice/issued-event.js';
import { listedRows } from '../list-index.js';
import type { Transaction } from '../transaction.js';
import { recordBillingDateChange } from './billing-date.js';
import { productCharge } from './product-charge.js';
import { changeState } from './state-change.js';
import { refusedTransition } from './status.js';

export interface ReactivationOptions {
  readonly includeTrial: boolean;
  readonly resume: boolean;
  readonly requireResume: boolean;
  readonly couponCode: string | null;
}

export const NOT_RESUMABLE = "Request was 'resume only', but this subscription cannot be resumed.";

const paymentRefused = (outcome: CollectionOutcome): DomainError | undefined => {
  if (outcome.kind !== 'failed') return undefined;
  return outcome.requiresAction
    ? {
        code: 'requires_action',
        status: 422,
        message: 'Your card was declined. This transaction requires 3D secure authentication.',
        extra: { action_link: '' },
      }
    : { code: 'payment_failed', status: 422, message: `Payment failed: ${outcome.message}` };
};

/** Whether a canceled (or trial-ended) subscription is still within the period it was canceled in. */
export const isResumable = (tx: Transaction, subscription: Subscription): boolean =>
  (subscription.state === 'canceled' || subscription.state === 'trial_ended') &&
  tx.now < subscription.currentPeriodEndsAt;

/** Reopens the invoices canceled with the subscription and tries to collect each. */
function reopenAndCollect(
  tx: Transaction,
  subscription: Subscription,
  gateway: PaymentGateway,
): DomainError | undefined {
  for (const stored of listedRows(tx.state, 'subscriptionInvoices', subscription.id, 'invoices')) {
    const invoice = tx.get('invoices', stored.id) ?? stored;
    // Invoices canceled with the subscription are reopened; an unpaid subscription's are still open.
    if (invoice.status !== 'canceled' && !(subscription.state === 'unpaid' && invoice.status === 'open'))
      continue;
    tx.put('invoices', {
      ...invoice,
      status: 'open',
      history: [
        ...invoice.history,
        { at: tx.now, kind: 'status_changed', detail: 'reopened on reactivation' },
      ],
      updatedAt: tx.now,
    });
    const refusal = paymentRefused(collectInvoice(tx, invoice.id, gateway));
    if (refusal) return refusal;
  }
  return undefined;
}

/** Reactivates a subscription. */
export function reactivate(
  tx: Transaction,
  subscription: Subscription,
  options: ReactivationOptions,
  gateway: PaymentGateway,
  actionLink: (subscription: Subscription) => string,
): Result<Subscription, DomainError> {
  if (!can(subscription.state, 'reactivate')) return err(refusedTransition(subscription, 'reactivate'));
  const resumable = isResumable(tx, subscription);
  if (options.requireResume && !resumable)
    return err({ code: 'not_resumable', status: 422, message: NOT_RESUMABLE });
  const familyId = tx.get('products', subscription.productId)?.productFamilyId ?? -1;
  const couponProblem =
    options.couponCode === null ? undefined : invalidCouponCode(tx, options.couponCode, familyId);
  if (couponProblem !== undefined) return err(couponProblem);
  const withCoupon =
    options.couponCode === null
      ? subscription
      : {
          ...subscription,
          couponCodes: [
            ...subscription.couponCodes.filter((code) => code !== options.couponCode),
            options.couponCode,
          ],
        };
  const reopened = reopenAndCollect(tx, withCoupon, gateway);
  if (reopened) return err(withLink(reopened, actionLink(subscription)));
  const common = {
    canceledAt: null,
    cancellationMessage: null,
    reasonCode: null,
    cancellationMethod: null,
    cancelAtEndOfPeriod: false,
    delayedCancelAt: null,
    balance: '0',
  };
  // An unpaid subscription's renewals kept invoicing its periods: the period it is in is billed already,
  // so it is collected (above) and goes on in that period, not charged again from today.
  if (subscription.state === 'unpaid' || ((options.resume || options.requireResume) && resumable)) {
    const inTrial =
      subscription.trialEndedAt !== null &&
      subscription.trialStartedAt !== null &&
      subscription.previousState === 'trialing';
    return ok(
      changeState(
        tx,
        {
          ...(tx.get('subscriptions', subscription.id) ?? subscription),
          couponCodes: withCoupon.couponCodes,
        },
        inTrial ? 'trialing' : 'active',
        common,
      ),
    );
  }
  const pricePoint = tx.get('productPricePoints', subscription.productPricePointId);
  const product = tx.get('products', subscription.productId);
  if (pricePoint === undefined || product === undefined)
    return err({
      code: 'no_product',
      status: 422,
      message: 'The subscription has no product to reactivate.',
    });
  const current = {
    ...(tx.get('subscriptions', subscription.id) ?? subscription),
    couponCodes: withCoupon.couponCodes,
  };
  const trial =
    options.includeTrial &&
    pricePoint.trialInterval !== null &&
    pricePoint.trialInterval > 0 &&
    pricePoint.trialIntervalUnit !== null;
  const step = trial
    ? stepOf(pricePoint.trialInterval ?? 0, pricePoint.trialIntervalUnit ?? 'day')
    : stepOf(pricePoint.interval, pricePoint.intervalUnit);
  const period = periodOf(tx.now, tx.settings.timeZone, step, 0);
  const restarted = changeState(tx, current, trial ? 'trialing' : 'active', {
    ...common,
    billingAnchor: tx.now,
    periodNumber: 0,
    interval: trial ? (pricePoint.trialInterval ?? 0) : pricePoint.interval,
    intervalUnit: trial ? (pricePoint.trialIntervalUnit ?? 'day') : pricePoint.intervalUnit,
    currentPeriodStartedAt: period.start,
    currentPeriodEndsAt: period.end,
    nextAssessmentAt: period.end,
    trialStartedAt: trial ? tx.now : current.trialStartedAt,
    trialEndedAt: trial ? period.end : current.trialEndedAt,
    activatedAt: current.activatedAt ?? tx.now,
    dunningAttempts: 0,
    nextDunningAt: null,
    dunningInvoiceIds: [],
  });
  recordBillingDateChange(tx, current, restarted);
  if (trial) return ok(restarted);
  const charge = productCharge(tx, restarted, period.start, period.end);
  const lines = charge === undefined ? [] : [charge];
  // Recurring coupons keep discounting; a code given now discounts this invoice whatever its recurrence.
  const recurring = renewalCouponSpecs(
    tx,
    { ...restarted, couponCodes: restarted.couponCodes.filter((code) => code !== options.couponCode) },
    lines,
  );
  const given =
    options.couponCode === null
      ? []
      : renewalCouponSpecs(tx, { ...restarted, couponCodes: [options.couponCode] }, lines, false);
  const coupons = [...recurring, ...given];
  const invoice = createInvoice(tx, {
    subscription: restarted,
    role: 'reactivation',
    status: 'open',
    lines,
    coupons,
    periodStartedAt: period.start,
    periodEndsAt: period.end,
  });
  recordInvoiceIssued(tx, invoice);
  if (isPositive(invoice.totals.due)) {
    const refusal = paymentRefused(collectInvoice(tx, invoice.id, gateway));
    if (refusal) return err(withLink(refusal, actionLink(subscription)));
  }
  return ok(tx.get('subscriptions', subscription.id) ?? restarted);
}

function withLink(error: DomainError, link: string): DomainError {
  return error.code === 'requires_action' ? { ...error, extra: { action_link: link } } : error;
}
