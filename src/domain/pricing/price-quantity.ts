/**
 * Pricing schemes: what a quantity costs under a price point.
 *
 * README, "Billing rules", pricing schemes. A price point prices a quantity q (0 or more, whole or
 * fractional) with its scheme and its brackets `start–end @ price` (whole, inclusive quantity ranges such
 * as `1–100`, `101–∞`). Amounts are exact; rounding happens on the invoice line.
 * - per_unit: q × unit price (the price point's unit price, or its single bracket's price).
 * - tiered: each bracket prices the units of q that fall in it: Σ min(q, end) − (start − 1), when positive,
 *   × price. 194 units under `1–100 @ 0, 101–∞ @ 0.50` cost 100 × 0 + 94 × 0.50 = 47. The line shows the
 *   blended unit price amount ÷ q to 8 decimal places (47 / 194 = "0.24226804") and `tiered_unit_price:
 *   true`; its subtotal is the exact amount, not q × the rounded blend.
 * - volume: every unit at the price of the bracket that contains q: 7 units under `1–5 @ 100, 6–10 @ 90`
 *   cost 7 × 90 = 630.
 * - stairstep: the price of the bracket that contains q, once, as a flat amount: 30 customers under
 *   `1–50 @ 0, 51–500 @ 49` cost 0; 60 cost 49. Zero units cost 0.
 * - Fractional quantities: bracket `start–end` covers the quantities above start − 1 up to end, so 100.5
 *   units are 100 in `1–100` and 0.5 in `101–∞`; for volume and stairstep 100.5 falls in `101–∞`.
 * - Beyond the last bracket: a quantity above the last bracket's ending quantity is priced as if that
 *   bracket had no end (tiered: the extra units at its price; volume and stairstep: its price).
 * - Zero units cost 0 under every scheme. The unit price then shown is the first bracket's for tiered
 *   (the limit of the blend) and volume, the unit price for per_unit, and 0 for stairstep.
 * - Brackets are checked before use: at least one, whole bounds, the first starting at 0 or 1, each
 *   starting right after the previous one ends, only the last open-ended, no negative price. A broken
 *   list, a negative quantity or a negative unit price is a 422 error value.
 * - Prepaid overage (`priceOverage`): units used beyond the included (prepaid) quantity are priced with
 *   the overage scheme and brackets, counting the first unit beyond the included quantity as overage
 *   unit 1.
 */

import { assertNever } from '../../kernel/invariant.js';
import { cmp, type Dec, div, isNegative, isZero, min, mul, roundTo, sub, sum } from '../../kernel/money.js';
import { err, ok, type Result } from '../../kernel/result.js';
import { bracketFloor, containingBracket, validateBrackets } from './brackets.js';
import {
  type BracketCharge,
  type PriceBracket,
  type PricingError,
  type PricingScheme,
  pricingError,
  type QuantityCost,
} from './types.js';

/**
 * The exact cost of `quantity` under a price point's scheme and brackets. `unitPrice` is the price point's
 * own unit price, used by `per_unit` (where it wins over any bracket) and ignored by the other schemes.
 * Errors are values: a negative quantity or price, or brackets that are not a valid price list.
 * @example
 * const prices = [
 *   { startingQuantity: '1', endingQuantity: '100', unitPrice: '0' },
 *   { startingQuantity: '101', endingQuantity: null, unitPrice: '0.5' },
 * ];
 * priceQuantity('tiered', '194', prices)
 * // ok({ amount: '47', unitPrice: '0.24226804', tiered: true, breakdown: [...] })
 * priceQuantity('volume', '194', prices) // ok({ amount: '97', unitPrice: '0.5', tiered: false, ... })
 * priceQuantity('per_unit', '3', [], '9.99') // ok({ amount: '29.97', unitPrice: '9.99', ... })
 */
export function priceQuantity(
  scheme: PricingScheme,
  quantity: Dec,
  prices: readonly PriceBracket[],
  unitPrice?: Dec,
): Result<QuantityCost, PricingError> {
  if (isNegative(quantity)) {
    return err(pricingError('quantity_negative', 'quantity', `quantity ${quantity} cannot be negative`));
  }
  if (scheme === 'per_unit') return pricePerUnit(quantity, prices, unitPrice);
  const valid = validateBrackets(prices);
  if (!valid.ok) return valid;
  switch (scheme) {
    case 'tiered':
      return ok(priceTiered(quantity, valid.value));
    case 'volume':
      return ok(priceVolume(quantity, valid.value));
    case 'stairstep':
      return ok(priceStairstep(quantity, valid.value));
    default:
      return assertNever(scheme);
  }
}

/** Every unit at one price: the explicit unit price, else the only bracket's. */
function pricePerUnit(
  quantity: Dec,
  prices: readonly PriceBracket[],
  unitPrice: Dec | undefined,
): Result<QuantityCost, PricingError> {
  let bracket: PriceBracket;
  if (unitPrice !== undefined) {
    // A per_unit price point carries its price in `unit_price`; the API leaves `prices` empty for it.
    bracket = { startingQuantity: '1', endingQuantity: null, unitPrice };
  } else {
    const [only, ...others] = prices;
    if (only === undefined) {
      return err(pricingError('prices_missing', 'unit_price', 'a per_unit price point needs a unit price'));
    }
    if (others.length > 0) {
      return err(
        pricingError(
          'per_unit_price_ambiguous',
          'prices',
          'a per_unit price point takes one price, not brackets',
        ),
      );
    }
    bracket = only;
  }
  if (isNegative(bracket.unitPrice)) {
    return err(pricingError('price_negative', 'unit_price', 'a unit price cannot be negative'));
  }
  const amount = mul(quantity, bracket.unitPrice);
  const breakdown = isZero(quantity) ? [] : [charge(bracket, quantity, amount)];
  return ok({ amount, unitPrice: bracket.unitPrice, tiered: false, breakdown });
}

/** Decimal places of a blended unit price, as the official API writes a tiered line's. */
const BLENDED_PLACES = 8;

/** Each bracket prices the units of the quantity that fall inside it. */
function priceTiered(quantity: Dec, brackets: readonly PriceBracket[]): QuantityCost {
  const breakdown: BracketCharge[] = [];
  for (const [index, bracket] of brackets.entries()) {
    const isLast = index === brackets.length - 1;
    // The last bracket takes every unit above its floor, even past a stated ending quantity.
    const ceiling =
      isLast || bracket.endingQuantity === null ? quantity : min(quantity, bracket.endingQuantity);
    const units = sub(ceiling, bracketFloor(bracket));
    // An empty bracket (`0–0`) or one above the quantity prices nothing.
    if (cmp(units, '0') <= 0) continue;
    breakdown.push(charge(bracket, units, mul(units, bracket.unitPrice)));
  }
  const amount = sum(breakdown.map((part) => part.amount));
  // With no units there is nothing to average; the blend tends to the first bracket's price as q → 0.
  const firstPrice = brackets[0]?.unitPrice ?? '0';
  // Written as the official API writes it: to 8 decimal places (47 / 194 is "0.24226804").
  const unitPrice = isZero(quantity) ? firstPrice : roundTo(div(amount, quantity), BLENDED_PLACES);
  return { amount, unitPrice, tiered: true, breakdown };
}

/** Every unit at the price of the bracket that contains the whole quantity. */
function priceVolume(quantity: Dec, brackets: readonly PriceBracket[]): QuantityCost {
  const bracket = containingBracket(brackets, quantity);
  const amount = mul(quantity, bracket.unitPrice);
  const breakdown = isZero(quantity) ? [] : [charge(bracket, quantity, amount)];
  return { amount, unitPrice: bracket.unitPrice, tiered: false, breakdown };
}

/** The containing bracket's price, once, whatever the quantity inside it. */
function priceStairstep(quantity: Dec, brackets: readonly PriceBracket[]): QuantityCost {
  if (isZero(quantity)) return { amount: '0', unitPrice: '0', tiered: false, breakdown: [] };
  const bracket = containingBracket(brackets, quantity);
  const breakdown = [charge(bracket, quantity, bracket.unitPrice)];
  return { amount: bracket.unitPrice, unitPrice: bracket.unitPrice, tiered: false, breakdown };
}

const charge = (bracket: PriceBracket, quantity: Dec, amount: Dec): BracketCharge => ({
  startingQuantity: bracket.startingQuantity,
  endingQuantity: bracket.endingQuantity,
  quantity,
  unitPrice: bracket.unitPrice,
  amount,
});
