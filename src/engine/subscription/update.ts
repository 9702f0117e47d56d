/**
 * Changes to a live subscription that move no money now: its next billing date, its product (at once
 * or at the next renewal, charged from the next period on), its collection method. What falls due moves
 * with the row: the schedule follows every write of a subscription.
 */

import type { Product, ProductPricePoint } from '../../domain/catalog/types.js';
import { type DomainError, invalid } from '../../domain/errors.js';
import { type SnapDay, type SnappedPeriods, snappedPeriods } from '../../domain/subscription/snap-day.js';
import type { CollectionMethod, Subscription } from '../../domain/subscription/types.js';
import { err, ok, type Result } from '../../kernel/result.js';
import type { Instant } from '../../kernel/time.js';
import type { Transaction } from '../transaction.js';
import { recordBillingDateChange } from './billing-date.js';

/** States whose next billing date can move: those that still renew. */
const RENEWING = new Set(['active', 'trialing', 'past_due', 'unpaid', 'soft_failure']);

const refused = (message: string, field: string): DomainError =>
  invalid('invalid_subscription', message, field);

/**
 * Moves the next billing date to `at`: the current period (or trial) now ends there, and the periods
 * after it are counted from it. A pending delayed cancellation moves with it.
 */
export function moveNextBillingDate(
  tx: Transaction,
  subscription: Subscription,
  at: Instant,
): Result<Subscription, DomainError> {
  // Period -1 counted from an anchor at the new date is exactly "the current period, ending there".
  return placeNextBillingDate(tx, subscription, { at, anchor: at, periodNumber: -1 }, 'next_billing_at');
}

/**
 * Snaps the next billing date to a day of the month: the first such day after now, the periods after it
 * on that day every interval (calendar billing). Only a subscription billed in months can be snapped.
 */
export function snapNextBillingDate(
  tx: Transaction,
  subscription: Subscription,
  day: SnapDay,
): Result<Subscription, DomainError> {
  if (subscription.intervalUnit !== 'month')
    return err(refused('Snap day: calendar billing needs a product billed in months.', 'snap_day'));
  const periods = snappedPeriods(
    tx.now,
    subscription.nextAssessmentAt,
    tx.settings.timeZone,
    day,
    subscription.interval,
  );
  const placed = placeNextBillingDate(tx, subscription, periods, 'snap_day');
  if (!placed.ok) return placed;
  return ok(tx.put('subscriptions', { ...placed.value, snap: { day, anchor: periods.anchor } }));
}

function placeNextBillingDate(
  tx: Transaction,
  subscription: Subscription,
  periods: SnappedPeriods,
  field: 'next_billing_at' | 'snap_day',
): Result<Subscription, DomainError> {
  const name = field === 'snap_day' ? 'Snap day' : 'Next billing at';
  if (!RENEWING.has(subscription.state))
    return err(refused(`${name}: a ${subscription.state} subscription does not renew.`, field));
  const at = periods.at;
  if (at <= tx.now) return err(refused(`${name}: must be in the future.`, field));
  if (subscription.advanceInvoiceId !== null)
    return err(
      refused(`${name}: the next period is invoiced in advance; void the advance invoice first.`, field),
    );
  const { snap: _previousSnap, ...unsnapped } = subscription;
  const sameDate = at === subscription.nextAssessmentAt;
  if (sameDate && (field === 'next_billing_at' || periods.anchor === subscription.billingAnchor))
    return ok(subscription);
  const moved = tx.put('subscriptions', {
    ...unsnapped,
    billingAnchor: periods.anchor,
    periodNumber: periods.periodNumber,
    currentPeriodEndsAt: at,
    nextAssessmentAt: at,
    trialEndedAt: subscription.state === 'trialing' ? at : subscription.trialEndedAt,
    delayedCancelAt: subscription.cancelAtEndOfPeriod ? at : subscription.delayedCancelAt,
    updatedAt: tx.now,
  });
  recordBillingDateChange(tx, subscription, moved);
  return ok(moved);
}

/** Whether a product and price point can be changed to. */
export function productChangeProblem(
  subscription: Subscription,
  product: Product,
  pricePoint: ProductPricePoint,
): DomainError | undefined {
  if (!RENEWING.has(subscription.state) && subscription.state !== 'on_hold')
    return refused(`Product: a ${subscription.state} subscription cannot change product.`, 'product_id');
  if (product.archivedAt !== null) return refused('Product: is archived.', 'product_id');
  if (pricePoint.archivedAt !== null)
    return refused('Product price point: is archived.', 'product_price_point_id');
  return undefined;
}

function recordProductChange(tx: Transaction, subscription: Subscription, product: Product): void {
  const previous = tx.get('products', subscription.productId)?.name ?? String(subscription.productId);
  tx.record({
    key: 'subscription_product_change',
    message: tx.settings.newCatalogExperience
      ? `Plan changed on subscription ${subscription.id} from ${previous} to ${product.name}`
      : `Product changed on subscription ${subscription.id} from ${previous} to ${product.name}`,
    subscriptionId: subscription.id,
    customerId: subscription.customerId,
    data: { new_product_id: product.id, previous_product_id: subscription.productId },
  });
}

/**
 * Changes the product now, without proration: the current period stays paid as it was, and the next
 * renewal bills the new price point (a new interval re-anchors the periods at the current period's end).
 */
export function changeProductNow(
  tx: Transaction,
  subscription: Subscription,
  product: Product,
  pricePoint: ProductPricePoint,
): Subscription {
  if (subscription.productPricePointId === pricePoint.id && subscription.productId === product.id)
    return subscription;
  const changed = tx.put('subscriptions', {
    ...subscription,
    productId: product.id,
    productPricePointId: pricePoint.id,
    productVersionNumber: product.versionNumber,
    nextProductId: null,
    nextProductPricePointId: null,
    updatedAt: tx.now,
  });
  recordProductChange(tx, subscription, product);
  return changed;
}

/** Schedules a product change for the next renewal (a delayed product change); null clears it. */
export function scheduleProductChange(
  tx: Transaction,
  subscription: Subscription,
  next: ProductSelectionIds | null,
): Subscription {
  return tx.put('subscriptions', {
    ...subscription,
    nextProductId: next?.productId ?? null,
    nextProductPricePointId: next?.pricePointId ?? null,
    updatedAt: tx.now,
  });
}

/** A product and one of its price points, by id. */
export interface ProductSelectionIds {
  readonly productId: number;
  readonly pricePointId: number;
}

/**
 * The subscription with its scheduled product change made, as a renewal makes it before it opens the
 * next period; the subscription itself when none is scheduled or the product has gone.
 */
export function applyScheduledProductChange(tx: Transaction, subscription: Subscription): Subscription {
  const productId = subscription.nextProductId ?? null;
  if (productId === null) return subscription;
  const product = tx.get('products', productId);
  const pricePoint =
    product === undefined
      ? undefined
      : tx.get('productPricePoints', subscription.nextProductPricePointId ?? product.defaultPricePointId);
  if (product === undefined || pricePoint === undefined || pricePoint.productId !== product.id)
    return scheduleProductChange(tx, subscription, null);
  return changeProductNow(tx, subscription, product, pricePoint);
}

/** Changes how the subscription's invoices are collected, recording `payment_collection_method_changed`. */
export function changeCollectionMethod(
  tx: Transaction,
  subscription: Subscription,
  method: CollectionMethod,
): Subscription {
  if (method === subscription.paymentCollectionMethod) return subscription;
  const changed = tx.put('subscriptions', {
    ...subscription,
    paymentCollectionMethod: method,
    updatedAt: tx.now,
  });
  tx.record({
    key: 'payment_collection_method_changed',
    message: `Payment collection method of subscription ${subscription.id} changed from ${subscription.paymentCollectionMethod} to ${method}`,
    subscriptionId: subscription.id,
    customerId: subscription.customerId,
    data: { previous_value: subscription.paymentCollectionMethod, current_value: method },
  });
  return changed;
}
