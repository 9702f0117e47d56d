import { periodOf, stepOf } from '../../domain/subscription/schedule.js';
import type { Subscription } from '../../domain/subscription/types.js';
import type { Instant } from '../../kernel/time.js';
import type { Transaction } from '../transaction.js';

/**
 * The next billing period of a subscription, counted as a renewal counts it: the period after the
 * current one from the same anchor; when the price point's interval changed (or a trial ends), a new
 * period 0 anchored at the current period's end.
 */
export function nextPeriodOf(
  tx: Transaction,
  subscription: Subscription,
): { start: Instant; end: Instant } | undefined {
  const nextProduct =
    subscription.nextProductId == null ? undefined : tx.get('products', subscription.nextProductId);
  const pricePoint = tx.get(
    'productPricePoints',
    nextProduct === undefined
      ? subscription.productPricePointId
      : (subscription.nextProductPricePointId ?? nextProduct.defaultPricePointId),
  );
  if (pricePoint === undefined) return undefined;
  const sameStep =
    pricePoint.interval === subscription.interval && pricePoint.intervalUnit === subscription.intervalUnit;
  const continues = sameStep && subscription.state !== 'trialing';
  const anchor = continues ? subscription.billingAnchor : subscription.currentPeriodEndsAt;
  const n = continues ? subscription.periodNumber + 1 : 0;
  return periodOf(anchor, tx.settings.timeZone, stepOf(pricePoint.interval, pricePoint.intervalUnit), n);
}
