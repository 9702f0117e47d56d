/**
 * The `subscriptionComponents` rows: finding a subscription's row of a component, creating one, walking
 * a subscription's rows, and what a row's quantity costs under its price.
 */

import type { ProrationLine } from '../../domain/allocation/proration-line.js';
import type { CustomPrice, SubscriptionComponent } from '../../domain/allocation/types.js';
import type { Component } from '../../domain/catalog/component.js';
import { priceQuantity } from '../../domain/pricing/price-quantity.js';
import type { PriceBracket, PricingScheme, QuantityCost } from '../../domain/pricing/types.js';
import type { Subscription } from '../../domain/subscription/types.js';
import { indexGet } from '../../kernel/collection.js';
import type { Dec } from '../../kernel/money.js';
import type { Instant } from '../../kernel/time.js';
import type { ChargeLine } from '../invoice/drafts.js';
import type { Transaction } from '../transaction.js';

/**
 * Rows a transaction inserted, by key and by subscription head: the state's indexes only show rows as
 * they were before the transaction, and a transaction may insert several rows of one subscription.
 */
const insertedKeys = new WeakMap<Transaction, Map<string, number>>();

const rowKey = (subscriptionId: number, componentId: number) => `${subscriptionId}/${componentId}`;
const headKey = (subscriptionId: number) => `head:${subscriptionId}`;

function lookup(tx: Transaction, key: string, fallback: () => number | undefined): number | undefined {
  return insertedKeys.get(tx)?.get(key) ?? fallback();
}

/**
 * A subscription's row of a component, as the transaction has left it.
 * @example findRow(tx, subscription.id, component.id)?.quantity // '8'
 */
export function findRow(
  tx: Transaction,
  subscriptionId: number,
  componentId: number,
): SubscriptionComponent | undefined {
  const key = rowKey(subscriptionId, componentId);
  const id = lookup(tx, key, () => indexGet(tx.state.indexes.subscriptionComponentKeys, key));
  return id === undefined ? undefined : tx.get('subscriptionComponents', id);
}

/**
 * A subscription's rows, newest first: an array rather than a generator, which made a result object per
 * row (a thousand per renewal of a thousand components).
 * @example rowsOf(tx, subscription.id).length
 */
export function rowsOf(tx: Transaction, subscriptionId: number): SubscriptionComponent[] {
  const rows: SubscriptionComponent[] = [];
  let id = lookup(tx, headKey(subscriptionId), () =>
    indexGet(tx.state.indexes.subscriptionComponentHeads, String(subscriptionId)),
  );
  while (id !== undefined) {
    const row = tx.get('subscriptionComponents', id);
    if (row === undefined) break;
    rows.push(row);
    id = row.previousRowId ?? undefined;
  }
  return rows;
}

/**
 * The row a subscription would have for a component it never used: nothing allocated, the default price.
 * @example findRow(tx, s.id, c.id) ?? emptyRow(tx, s, c)
 */
export function emptyRow(
  tx: Transaction,
  subscription: Subscription,
  component: Component,
): SubscriptionComponent {
  return {
    id: 0,
    subscriptionId: subscription.id,
    componentId: component.id,
    previousRowId: null,
    quantity: '0',
    pricePointId: component.defaultPricePointId,
    customPrice: null,
    unitBalance: '0',
    accruedCharges: [],
    periodStartedAt: subscription.currentPeriodStartedAt,
    periodCharged: '0',
    periodCredited: '0',
    latestAllocationId: null,
    latestUsageId: null,
    createdAt: tx.now,
    updatedAt: tx.now,
  };
}

/**
 * Writes a row; an unsaved one (`id` 0) is inserted as the subscription's newest row.
 * @example saveRow(tx, { ...emptyRow(tx, subscription, component), quantity: '3' });
 */
export function saveRow(tx: Transaction, row: SubscriptionComponent): SubscriptionComponent {
  if (row.id !== 0) return tx.put('subscriptionComponents', { ...row, updatedAt: tx.now });
  const previousRowId =
    lookup(tx, headKey(row.subscriptionId), () =>
      indexGet(tx.state.indexes.subscriptionComponentHeads, String(row.subscriptionId)),
    ) ?? null;
  const saved = tx.put('subscriptionComponents', {
    ...row,
    id: tx.nextId('subscriptionComponents'),
    previousRowId,
    updatedAt: tx.now,
  });
  const keys = insertedKeys.get(tx) ?? new Map<string, number>();
  keys.set(rowKey(saved.subscriptionId, saved.componentId), saved.id);
  keys.set(headKey(saved.subscriptionId), saved.id);
  insertedKeys.set(tx, keys);
  return saved;
}

/** How a row's quantity is priced: its custom price, else its price point. */
export interface RowPricing {
  readonly scheme: PricingScheme;
  readonly prices: readonly PriceBracket[];
}

/**
 * The pricing of a price point or a custom price; undefined when the price point is gone.
 * @example pricingOf(tx, row)?.scheme // 'tiered'
 */
export function pricingOf(
  tx: Transaction,
  price: { readonly pricePointId: number; readonly customPrice: CustomPrice | null },
): RowPricing | undefined {
  if (price.customPrice !== null)
    return { scheme: price.customPrice.pricingScheme, prices: price.customPrice.prices };
  const point = tx.get('componentPricePoints', price.pricePointId);
  return point === undefined ? undefined : { scheme: point.pricingScheme, prices: point.prices };
}

/**
 * What a quantity costs under a pricing, exact. Price lists are validated when they are stored, so a
 * failure (or a missing price) costs nothing rather than stopping a renewal.
 * @example costOf(pricingOf(tx, row), '194').amount // '47'
 */
export function costOf(pricing: RowPricing | undefined, quantity: Dec): QuantityCost {
  const free: QuantityCost = { amount: '0', unitPrice: '0', tiered: false, breakdown: [] };
  if (pricing === undefined) return free;
  const cost = priceQuantity(pricing.scheme, quantity, pricing.prices);
  return cost.ok ? cost.value : free;
}

/**
 * The price of every unit when a quantity's cost is that price times the quantity, with nothing to check
 * (a per-unit price of one bracket, neither it nor the quantity negative): `costOf` then costs one product
 * and no bracket list, result or breakdown needs to be made. Undefined otherwise: ask `costOf`.
 * @example perUnitPrice('per_unit', [{ startingQuantity: '1', endingQuantity: null, unitPrice: '2' }], '3') // '2'
 */
export function perUnitPrice(
  scheme: PricingScheme,
  prices: readonly PriceBracket[],
  quantity: Dec,
): Dec | undefined {
  if (scheme !== 'per_unit' || prices.length !== 1) return undefined;
  const unitPrice = (prices[0] as PriceBracket).unitPrice;
  // A decimal that does not start with a minus is not negative; one that does goes to `costOf`, which
  // decides (a canonical decimal is never "-0").
  return quantity.charCodeAt(0) === MINUS || unitPrice.charCodeAt(0) === MINUS ? undefined : unitPrice;
}

const MINUS = 45;

/** A quantity as the API shows it: a number when whole, else a decimal string. @example wireQuantity('2.5') // '2.5' */
export const wireQuantity = (quantity: Dec): number | string =>
  /^-?\d+$/.test(quantity) ? Number(quantity) : quantity;

/**
 * The charge for a change of a component's quantity within a period, as its proration line shows it, for
 * the days `[start, end)`.
 * @example changeCharge(tx, component, pricePointId, shown, '4.50', 'Allocation change from 1 to 2 seats', start, end)
 */
export function changeCharge(
  tx: Transaction,
  component: Component,
  pricePointId: number,
  shown: ProrationLine,
  amount: Dec,
  description: string,
  start: Instant,
  end: Instant,
): ChargeLine {
  return {
    title: component.name,
    description,
    quantity: shown.quantity,
    unitPrice: shown.unitPrice,
    tieredUnitPrice: shown.blended,
    amount,
    taxable: component.taxable,
    taxCode: component.taxCode,
    kind: component.kind,
    componentId: component.id,
    pricePointId,
    periodRangeStart: tx.calendarDate(start),
    periodRangeEnd: tx.lastCalendarDate(end),
  };
}
