/** Opening a subscription's next billing period and gathering its charges. */

import type { PaymentGateway } from '../../domain/payment/types.js';
import { subscriptionCopy } from '../../domain/subscription/row-copy.js';
import { periodOf, stepOf } from '../../domain/subscription/schedule.js';
import type { Subscription } from '../../domain/subscription/types.js';
import { componentRenewalCharges } from '../allocation/component-renewal.js';
import type { MemberCharges } from '../group/billing.js';
import { pendingAdvanceInvoice, renewCoveredPeriod } from '../invoice/advance.js';
import { productCharge } from '../subscription/product-charge.js';
import { applyScheduledProductChange } from '../subscription/update.js';
import type { Transaction } from '../transaction.js';

/**
 * Moves a subscription into its next period (under the product a delayed product change names) and returns the period's charges; a period already
 * invoiced in advance is renewed by `renewCoveredPeriod` (only its arrears charges, if any, come back
 * for a group member). Periods count from the anchor; when the
 * price point's interval has changed since, the next period starts at the current period's end under
 * a new anchor.
 */
export function openNextPeriod(
  tx: Transaction,
  due: Subscription,
  gateway: PaymentGateway,
): MemberCharges | undefined {
  // A delayed product change takes effect as the period it was scheduled for begins.
  const subscription = applyScheduledProductChange(tx, due);
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
  const next = subscriptionCopy(subscription);
  next.billingAnchor = anchor;
  next.periodNumber = periodNumber;
  next.interval = pricePoint.interval;
  next.intervalUnit = pricePoint.intervalUnit;
  next.currentPeriodStartedAt = period.start;
  next.currentPeriodEndsAt = period.end;
  next.nextAssessmentAt = period.end;
  next.updatedAt = tx.now;
  const moved = tx.put('subscriptions', next);
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
    // concat rather than spreading both into a literal, which steps through a renewal's thousand
    // component lines one by one; a plain subscription's one charge needs neither (concat is generic).
    charges:
      charge === undefined ? components : components.length === 0 ? [charge] : [charge].concat(components),
  };
}
