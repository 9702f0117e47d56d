/**
 * How an invoice line shows a prorated charge (as the official API documents it: "Quantity = Delta
 * Quantity × % of Period; Unit Price = Price"; worked example: 5 more units at $20 with 49.9% of the period
 * give quantity 2.495, unit price 20, total 49.90), so that quantity × unit price rounds to the line's
 * subtotal while the subtotal stays the prorated amount, rounded once, half up.
 */
import {
  abs,
  cmp,
  type Dec,
  div,
  isPositive,
  isZero,
  mul,
  roundAwayTo,
  roundMoney,
  roundTo,
} from '../../kernel/money.js';

/** What a line shows: its quantity and unit price; `blended` when the unit price is an average. */
export interface ProrationLine {
  readonly quantity: Dec;
  readonly unitPrice: Dec;
  readonly blended: boolean;
}

/** The share of the period charged: remaining / length seconds, or the whole of it. */
export type ChargedShare = { readonly remaining: number; readonly length: number } | 'whole';

/** Decimal places a unit price or a prorated quantity is written with first, as the official API. */
const PLACES = 8;
/** Beyond this many places decimal.js's 40 significant digits no longer tell the candidates apart. */
const MOST_PLACES = 30;

/**
 * The line of a charge of `amount` (already rounded) for `units` more units whose cost rose by `cost`,
 * over `share` of the period. The unit price is the price per changed unit (`cost / units`: the price
 * itself under per_unit, a blend to 8 places when brackets differ); the quantity is `units × share`.
 * A change whose cost rose without more units (a dearer price point) shows the share of the period as
 * its quantity and the cost difference as its unit price.
 * @example prorationLine('5', '100', '49.90', { remaining: 499, length: 1000 }, 'USD')
 * // { quantity: '2.495', unitPrice: '20', blended: false }
 */
export function prorationLine(
  units: Dec,
  cost: Dec,
  amount: Dec,
  share: ChargedShare,
  currency: string,
): ProrationLine {
  const scale = (value: Dec): Dec =>
    share === 'whole' || share.length === 0
      ? value
      : div(mul(value, String(share.remaining)), String(share.length));
  const difference = abs(cost);
  const perUnit = isPositive(units);
  const exactUnitPrice = perUnit ? div(difference, units) : difference;
  const unitPrice = roundTo(exactUnitPrice, PLACES);
  const blended = cmp(unitPrice, exactUnitPrice) !== 0;
  const exactQuantity = scale(perUnit ? units : '1');
  return { quantity: lineQuantity(exactQuantity, unitPrice, abs(amount), currency), unitPrice, blended };
}

/**
 * The exact quantity written with the fewest places, from 8, whose product with the unit price rounds to
 * the amount. Rounding the quantity half-up, or else away from zero, converges on the amount as the
 * places grow, because the amount is the rounded exact product. A unit price blended to 8 places can move
 * a very large quantity's product off the amount; the quantity is then the amount over the unit price.
 */
function lineQuantity(exact: Dec, unitPrice: Dec, amount: Dec, currency: string): Dec {
  if (isZero(unitPrice)) return roundTo(exact, PLACES);
  // Each candidate is computed only when the one before it missed: the first one almost always fits.
  return (
    quantityNear(exact, unitPrice, amount, currency) ??
    quantityNear(div(amount, unitPrice), unitPrice, amount, currency) ??
    exact
  );
}

/** `target` rounded half-up, or else away from zero, to the fewest places from 8 whose product rounds to `amount`. */
function quantityNear(target: Dec, unitPrice: Dec, amount: Dec, currency: string): Dec | undefined {
  const fits = (candidate: Dec): boolean =>
    cmp(roundMoney(mul(candidate, unitPrice), currency), amount) === 0;
  for (let places = PLACES; places <= MOST_PLACES; places += 1) {
    const halfUp = roundTo(target, places);
    if (fits(halfUp)) return halfUp;
    const away = roundAwayTo(target, places);
    if (fits(away)) return away;
  }
  return undefined;
}
