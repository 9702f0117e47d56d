/** The charge lines of a subscription's product: its price for a period, and its one-time initial charge. */

import type { Product, ProductPricePoint } from '../../domain/catalog/types.js';
import type { Subscription } from '../../domain/subscription/types.js';
import { isPositive } from '../../kernel/money.js';
import { periodDescription } from '../../kernel/time.js';
import type { ChargeLine } from '../invoice/collect.js';
import type { Transaction } from '../transaction.js';

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
  const first = tx.calendarDate(start);
  const last = tx.lastCalendarDate(end);
  return {
    title: product.name,
    description: periodDescription(first, last),
    quantity: '1',
    unitPrice: pricePoint.price,
    taxable: product.taxable,
    kind: 'baseline',
    productId: product.id,
    productVersion: product.versionNumber,
    productPricePointId: pricePoint.id,
    periodRangeStart: first,
    periodRangeEnd: last,
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
