/**
 * Subscription status changes on request: cancel now, delayed cancellation, hold and
 * resume, reactivation. Time-driven changes are in lifecycle.ts.
 */

import type { DomainError } from '../../domain/errors.js';
import type { PaymentGateway } from '../../domain/payment/types.js';
import { periodOf, stepOf } from '../../domain/subscription/schedule.js';
import { can, type SubscriptionCommand } from '../../domain/subscription/transitions.js';
import {
  type CancellationReason,
  cancellationReasonOf,
  type Subscription,
} from '../../domain/subscription/types.js';
import { sum } from '../../kernel/money.js';
import { err, ok, type Result } from '../../kernel/result.js';
import { formatTimestamp, type Instant } from '../../kernel/time.js';
import { type ChargeLine, collectInvoice, createInvoice } from '../invoice/collect.js';
import { recordInvoiceIssued } from '../invoice/issued-event.js';
import { listedRows } from '../list-index.js';
import type { Transaction } from '../transaction.js';
import { recordBillingDateChange } from './billing-date.js';
import { productCharge } from './product-charge.js';
import { changeState } from './state-change.js';

/** The 422 of a command the transition table refuses. */
export const refusedTransition = (subscription: Subscription, command: SubscriptionCommand): DomainError => ({
  code: 'invalid_transition',
  status: 422,
  message:
    command === 'cancel' && (subscription.state === 'canceled' || subscription.state === 'expired')
      ? `The subscription is already ${subscription.state}.`
      : `A ${subscription.state.replace('_', ' ')} subscription cannot ${command.replaceAll('_', ' ')}.`,
});

/**
 * Cancels now. Invoices still open become `canceled` (a reactivation reopens them) and what they owe is
 * the subscription's balance.
 */
export function cancelNow(
  tx: Transaction,
  subscription: Subscription,
  method: string,
  reason: CancellationReason,
): Subscription {
  const owed: string[] = [];
  for (const invoice of listedRows(tx.state, 'subscriptionInvoices', subscription.id, 'invoices')) {
    const current = tx.get('invoices', invoice.id) ?? invoice;
    if (current.status !== 'open') continue;
    owed.push(current.totals.due);
    tx.put('invoices', {
      ...current,
      status: 'canceled',
      history: [
        ...current.history,
        { at: tx.now, kind: 'status_changed', detail: 'canceled with the subscription' },
      ],
      updatedAt: tx.now,
    });
  }
  return changeState(tx, tx.get('subscriptions', subscription.id) ?? subscription, 'canceled', {
    canceledAt: tx.now,
    cancellationMessage: reason.message,
    reasonCode: reason.reasonCode,
    cancellationMethod: method,
    cancelAtEndOfPeriod: false,
    delayedCancelAt: null,
    nextDunningAt: null,
    balance: sum(owed),
  });
}

/** Flags the subscription to cancel at the end of its period. */
export function initiateDelayedCancel(
  tx: Transaction,
  subscription: Subscription,
  reason: CancellationReason,
): Result<Subscription, DomainError> {
  if (!can(subscription.state, 'initiate_delayed_cancel'))
    return err(refusedTransition(subscription, 'initiate_delayed_cancel'));
  const updated = tx.put('subscriptions', {
    ...subscription,
    cancelAtEndOfPeriod: true,
    delayedCancelAt: subscription.currentPeriodEndsAt,
    cancellationMessage: reason.message ?? subscription.cancellationMessage,
    reasonCode: reason.reasonCode ?? subscription.reasonCode ?? null,
    updatedAt: tx.now,
  });
  tx.record({
    key: 'pending_cancellation_change',
    message: `Subscription ${subscription.id} will cancel at the end of its period`,
    subscriptionId: subscription.id,
    customerId: subscription.customerId,
    data: {
      cancellation_state: 'pending',
      cancels_at: formatTimestamp(updated.currentPeriodEndsAt, tx.settings.timeZone),
    },
  });
  return ok(updated);
}

/** Clears a pending cancellation; idempotent. */
export function cancelDelayedCancel(tx: Transaction, subscription: Subscription): Subscription {
  if (!subscription.cancelAtEndOfPeriod) return subscription;
  const updated = tx.put('subscriptions', {
    ...subscription,
    cancelAtEndOfPeriod: false,
    delayedCancelAt: null,
    updatedAt: tx.now,
  });
  tx.record({
    key: 'pending_cancellation_change',
    message: `Pending cancellation of subscription ${subscription.id} removed`,
    subscriptionId: subscription.id,
    customerId: subscription.customerId,
    // The official data requires `cancels_at`: it names the cancellation that is no longer pending.
    data: {
      cancellation_state: 'not_pending',
      cancels_at: formatTimestamp(
        subscription.delayedCancelAt ?? subscription.currentPeriodEndsAt,
        tx.settings.timeZone,
      ),
    },
  });
  return updated;
}

/** Puts a subscription on hold, optionally until an instant. */
export function hold(
  tx: Transaction,
  subscription: Subscription,
  resumeAt: Instant | null,
): Result<Subscription, DomainError> {
  if (!can(subscription.state, 'hold')) return err(refusedTransition(subscription, 'hold'));
  if (resumeAt !== null && resumeAt <= tx.now)
    return err({
      code: 'invalid_resume_at',
      status: 422,
      message: 'Automatically resume at: must be in the future.',
    });
  return ok(
    changeState(tx, subscription, 'on_hold', {
      onHoldAt: tx.now,
      automaticallyResumeAt: resumeAt,
      nextDunningAt: null,
    }),
  );
}

/** Starts a fresh period at now and bills it (resume after the period ended, or reactivation). */
export function startNewPeriod(
  tx: Transaction,
  subscription: Subscription,
  extra: readonly ChargeLine[],
  gateway: PaymentGateway,
) {
  const pricePoint = tx.get('productPricePoints', subscription.productPricePointId);
  if (pricePoint === undefined) return { subscription, outcome: undefined };
  const period = periodOf(
    tx.now,
    tx.settings.timeZone,
    stepOf(pricePoint.interval, pricePoint.intervalUnit),
    0,
  );
  const moved = tx.put('subscriptions', {
    ...subscription,
    billingAnchor: tx.now,
    periodNumber: 0,
    interval: pricePoint.interval,
    intervalUnit: pricePoint.intervalUnit,
    currentPeriodStartedAt: period.start,
    currentPeriodEndsAt: period.end,
    nextAssessmentAt: period.end,
    updatedAt: tx.now,
  });
  recordBillingDateChange(tx, subscription, moved);
  const charge = productCharge(tx, moved, period.start, period.end);
  const lines = [...(charge === undefined ? [] : [charge]), ...extra];
  const invoice = createInvoice(tx, {
    subscription: moved,
    role: 'reactivation',
    status: 'open',
    lines,
    periodStartedAt: period.start,
    periodEndsAt: period.end,
  });
  recordInvoiceIssued(tx, invoice);
  return { subscription: moved, outcome: collectInvoice(tx, invoice.id, gateway) };
}

/** Resumes a subscription on hold: the same period when it has not ended, a new one otherwise. */
export function resume(
  tx: Transaction,
  subscription: Subscription,
  gateway: PaymentGateway,
): Result<Subscription, DomainError> {
  if (!can(subscription.state, 'resume')) return err(refusedTransition(subscription, 'resume'));
  const resumed = changeState(tx, subscription, 'active', { onHoldAt: null, automaticallyResumeAt: null });
  if (tx.now < subscription.currentPeriodEndsAt) return ok(resumed);
  // A cancellation pending at the end of a period that ended during the hold takes effect now.
  if (subscription.cancelAtEndOfPeriod)
    return ok(cancelNow(tx, resumed, 'merchant_api', cancellationReasonOf(subscription)));
  const started = startNewPeriod(tx, resumed, [], gateway);
  return ok(tx.get('subscriptions', started.subscription.id) ?? started.subscription);
}
