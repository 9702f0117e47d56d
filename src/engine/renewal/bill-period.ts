/** Billing a period's charges on a renewal invoice (a group member's on its group's consolidated one). */

import type { PaymentGateway } from '../../domain/payment/types.js';
import type { Subscription } from '../../domain/subscription/types.js';
import { isPositive } from '../../kernel/money.js';
import { renewalCouponSpecs } from '../coupon/renewal-coupons.js';
import { groupOf } from '../group/membership.js';
import { billGroupMembers } from '../group/renewal.js';
import { applyBalances, settleIfPaid } from '../invoice/balances.js';
import {
  type ChargeLine,
  type CollectionOutcome,
  collectInvoice,
  createInvoice,
} from '../invoice/collect.js';
import { recordInvoiceIssued } from '../invoice/issued-event.js';
import type { Transaction } from '../transaction.js';
import { recordRenewalOutcome } from './outcome.js';

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
