/** The one invoice calculation that previews and commits share. */
import { createInvoiceCalculator } from './calculator.js';
import type { InvoiceCalculation, InvoiceCalculationInput } from './types.js';

/**
 * Calculates an invoice: line subtotals, coupons in request order, taxes, every
 * breakout and the totals. Pure: the same input gives the same output, whatever else is going on.
 *
 * Rules, in minor units of the currency (half up wherever a value is rounded):
 * - line subtotal = quantity × unit price (or the caller's `subtotal`), rounded;
 * - a percentage coupon takes its percentage of its eligible amount (compound: what its eligible lines
 *   have left after earlier coupons; full-price: their original subtotal), rounded once for the invoice;
 *   an amount coupon takes its amount, never more than its eligible lines' original subtotal; either is
 *   then capped at what those lines have left, so no line goes below zero;
 * - each tax takes its rate of the taxable lines' subtotal less discounts, rounded once;
 * - breakouts split each invoice-level amount over the lines by largest remainder, in proportion to what
 *   each line's amount was computed on, so they add up exactly. Discounts are split over line classes
 *   (lines with the same coupons and taxability) first, then within each class, which keeps each
 *   breakout within one minor unit of its exact share while letting totals follow from per-class sums;
 *   where a line would go below zero its class is split again with per-line caps.
 * - total = subtotal − discount + tax, which also equals the sum of the line totals.
 *
 * Integer fast path (kernel/scaled.ts), with the decimal reference as the fallback beyond its range.
 * Preconditions (the API layer validates; violations throw `InvariantError`): amounts, quantities and
 * percentages are non-negative decimal strings; a percentage coupon has `percentage`, an amount coupon
 * `amount`.
 * @example
 * calculateInvoice({
 *   currency: 'USD',
 *   lines: [
 *     { uid: 'a', quantity: '1', unitPrice: '99', taxable: true },
 *     { uid: 'b', quantity: '1', unitPrice: '15.5', taxable: true },
 *   ],
 *   coupons: [{ code: 'TEN', kind: 'percentage', percentage: '10', compoundingStrategy: 'compound' }],
 *   taxes: [{ name: 'NC Sales Tax', percentage: '6.75' }],
 * }).total // '110.01' (114.5 − 11.45 + 6.96)
 */
export function calculateInvoice(input: InvoiceCalculationInput): InvoiceCalculation {
  return createInvoiceCalculator(input).calculation();
}
