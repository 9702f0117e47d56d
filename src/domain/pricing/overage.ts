/**
 * Prepaid usage with overage: a prepaid component includes a quantity paid in advance, and units used
 * beyond it are charged with the price point's overage scheme and overage brackets.
 */
import { cmp, type Dec, isNegative, min, sub } from '../../kernel/money.js';
import { err, ok, type Result } from '../../kernel/result.js';
import { priceQuantity } from './price-quantity.js';
import {
  type PriceBracket,
  type PricingError,
  type PricingScheme,
  pricingError,
  type QuantityCost,
} from './types.js';

/** The overage side of a prepaid price point (`overage_pricing_scheme`, `overage_prices`). */
export interface OveragePricing {
  readonly scheme: PricingScheme;
  readonly prices: readonly PriceBracket[];
  /** For a per_unit overage scheme given as a single price. */
  readonly unitPrice?: Dec;
}

/** How usage splits between the prepaid quantity and the overage, and what the overage costs. */
export interface OverageCost {
  /** The units of usage the prepaid quantity covers. */
  readonly coveredQuantity: Dec;
  /** The units used beyond the prepaid quantity. */
  readonly overageQuantity: Dec;
  /** The exact cost of the overage units; zero when usage stays within the prepaid quantity. */
  readonly cost: QuantityCost;
}

/**
 * Prices the usage beyond a prepaid (included) quantity. The overage brackets count overage units, not
 * total usage: with 100 included, usage 130 is 30 overage units, priced as `priceQuantity` prices 30.
 * The prepaid quantity itself was charged when it was allocated and costs nothing here.
 * @example
 * priceOverage('130', '100', {
 *   scheme: 'tiered',
 *   prices: [
 *     { startingQuantity: '1', endingQuantity: '20', unitPrice: '1' },
 *     { startingQuantity: '21', endingQuantity: null, unitPrice: '0.5' },
 *   ],
 * })
 * // ok({ coveredQuantity: '100', overageQuantity: '30', cost: { amount: '25', ... } })
 */
export function priceOverage(
  usage: Dec,
  includedQuantity: Dec,
  overage: OveragePricing,
): Result<OverageCost, PricingError> {
  if (isNegative(usage))
    return err(pricingError('quantity_negative', 'quantity', `usage ${usage} cannot be negative`));
  if (isNegative(includedQuantity)) {
    return err(
      pricingError(
        'quantity_negative',
        'quantity',
        `included quantity ${includedQuantity} cannot be negative`,
      ),
    );
  }
  const overageQuantity = cmp(usage, includedQuantity) > 0 ? sub(usage, includedQuantity) : '0';
  const cost = priceQuantity(overage.scheme, overageQuantity, overage.prices, overage.unitPrice);
  if (!cost.ok) return cost;
  return ok({ coveredQuantity: min(usage, includedQuantity), overageQuantity, cost: cost.value });
}
