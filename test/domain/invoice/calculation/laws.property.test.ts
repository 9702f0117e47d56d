/** Laws of the invoice calculation (CONTRACT section 7), each named in its title. */
import { fc, test } from '@fast-check/vitest';
import { describe, expect } from 'vitest';
import {
  type CalcCoupon,
  calculateInvoice,
  type InvoiceCalculation,
  type InvoiceCalculationInput,
} from '../../../../src/domain/invoice/calculation/index.js';
import { minorUnits } from '../../../../src/kernel/money.js';
import { invoiceArbitrary, parseScaled } from './arbitraries.js';

/** An amount of the calculation's output in integer minor units. */
const minorOf = (value: string, digits: number): bigint => {
  const { value: scaled, scale } = parseScaled(value);
  expect(scale).toBeLessThanOrEqual(digits);
  return scaled * 10n ** BigInt(digits - scale);
};
const total = (values: readonly bigint[]): bigint => values.reduce((sum, value) => sum + value, 0n);

/** What each line had left before each coupon, from the output's own breakouts. */
function leftBeforeEachCoupon(result: InvoiceCalculation, digits: number): Map<string, bigint>[] {
  const left = new Map(result.lines.map((line) => [line.uid, minorOf(line.subtotal, digits)]));
  return result.discounts.map((discount) => {
    const before = new Map(left);
    for (const breakout of discount.breakouts) {
      left.set(breakout.uid, left.get(breakout.uid)! - minorOf(breakout.discountAmount, digits));
    }
    return before;
  });
}

const moderate = invoiceArbitrary({ maxLines: 10, restrictions: true });

describe('invoice calculation laws', () => {
  test.prop([moderate], { numRuns: 300 })(
    'breakouts add up exactly to the invoice-level amount and each is within one minor unit of its share',
    (input) => {
      const digits = minorUnits(input.currency);
      const result = calculateInvoice(input);
      const before = leftBeforeEachCoupon(result, digits);
      result.discounts.forEach((discount, index) => {
        const amount = minorOf(discount.discountAmount, digits);
        const eligible = minorOf(discount.eligibleAmount, digits);
        const parts = discount.breakouts.map((breakout) => minorOf(breakout.discountAmount, digits));
        expect(total(parts)).toBe(amount);
        expect(total(discount.breakouts.map((breakout) => minorOf(breakout.eligibleAmount, digits)))).toBe(
          eligible,
        );
        // The exact share is amount × weight / eligible, unless some line could not pay its share (then caps rule).
        const fits = discount.breakouts.every(
          (breakout) =>
            amount * minorOf(breakout.eligibleAmount, digits) <= before[index]!.get(breakout.uid)! * eligible,
        );
        if (!fits || eligible === 0n) return;
        discount.breakouts.forEach((breakout, position) => {
          const distance = parts[position]! * eligible - amount * minorOf(breakout.eligibleAmount, digits);
          expect(distance < 0n ? -distance : distance).toBeLessThan(eligible);
        });
      });
      for (const tax of result.taxes) {
        const amount = minorOf(tax.taxAmount, digits);
        const taxable = minorOf(tax.taxableAmount, digits);
        const parts = tax.breakouts.map((breakout) => minorOf(breakout.taxAmount, digits));
        expect(total(parts)).toBe(amount);
        expect(total(tax.breakouts.map((breakout) => minorOf(breakout.taxableAmount, digits)))).toBe(taxable);
        tax.breakouts.forEach((breakout, position) => {
          const distance = parts[position]! * taxable - amount * minorOf(breakout.taxableAmount, digits);
          expect(distance < 0n ? -distance : distance).toBeLessThan(taxable === 0n ? 1n : taxable);
        });
      }
    },
  );

  test.prop([moderate], { numRuns: 300 })('a line never goes below zero, after any coupon', (input) => {
    const digits = minorUnits(input.currency);
    const result = calculateInvoice(input);
    const before = leftBeforeEachCoupon(result, digits);
    result.discounts.forEach((discount, index) => {
      for (const breakout of discount.breakouts) {
        const part = minorOf(breakout.discountAmount, digits);
        expect(part).toBeGreaterThanOrEqual(0n);
        expect(part).toBeLessThanOrEqual(before[index]!.get(breakout.uid)!);
      }
    });
    for (const line of result.lines) {
      expect(minorOf(line.subtotal, digits)).toBeGreaterThanOrEqual(minorOf(line.discount, digits));
    }
  });

  test.prop([moderate], { numRuns: 200 })(
    "a full-price coupon never sees another coupon's discount: its amount is what it takes alone, capped by what is left",
    (input) => {
      const digits = minorUnits(input.currency);
      const result = calculateInvoice(input);
      const before = leftBeforeEachCoupon(result, digits);
      input.coupons.forEach((coupon, index) => {
        if (coupon.kind !== 'percentage' || coupon.compoundingStrategy !== 'full-price') return;
        const alone = calculateInvoice({ ...input, coupons: [coupon], taxes: [] }).discounts[0]!;
        const stacked = result.discounts[index]!;
        expect(stacked.eligibleAmount).toBe(alone.eligibleAmount);
        const left = total(stacked.breakouts.map((breakout) => before[index]!.get(breakout.uid)!));
        const wanted = minorOf(alone.discountAmount, digits);
        expect(minorOf(stacked.discountAmount, digits)).toBe(wanted < left ? wanted : left);
      });
    },
  );

  const compoundOnly = invoiceArbitrary({ maxLines: 10, restrictions: false }).map(
    (input): InvoiceCalculationInput => ({
      ...input,
      coupons: input.coupons.map(
        (coupon): CalcCoupon => ({
          code: coupon.code,
          kind: 'percentage',
          percentage: coupon.percentage ?? '10',
          compoundingStrategy: 'compound',
        }),
      ),
    }),
  );

  test.prop([compoundOnly], { numRuns: 200 })(
    'compound coupons applied in order equal applying them one by one',
    (input) => {
      const stacked = calculateInvoice(input);
      let lines = input.lines;
      input.coupons.forEach((coupon, index) => {
        const step = calculateInvoice({ ...input, lines, coupons: [coupon], taxes: [] });
        expect(step.discounts[0]).toEqual(stacked.discounts[index]);
        lines = lines.map((line, position) => {
          const computed = step.lines[position]!;
          return { ...line, subtotal: computed.total };
        });
      });
    },
  );

  test.prop([invoiceArbitrary({ huge: true, maxLines: 8 })], { numRuns: 300 })(
    'total = subtotal − discount + tax, and equals the sum of line totals (every sum adds up)',
    (input) => {
      const digits = minorUnits(input.currency);
      const result = calculateInvoice(input);
      const amount = (value: string): bigint => minorOf(value, digits);
      expect(amount(result.total)).toBe(
        amount(result.subtotal) - amount(result.discount) + amount(result.tax),
      );
      expect(total(result.lines.map((line) => amount(line.total)))).toBe(amount(result.total));
      expect(total(result.lines.map((line) => amount(line.subtotal)))).toBe(amount(result.subtotal));
      expect(total(result.discounts.map((discount) => amount(discount.discountAmount)))).toBe(
        amount(result.discount),
      );
      expect(total(result.taxes.map((tax) => amount(tax.taxAmount)))).toBe(amount(result.tax));
      result.lines.forEach((line, position) => {
        const discount = total(
          result.discounts
            .flatMap((entry) => entry.breakouts.filter((b) => b.uid === line.uid))
            .map((b) => amount(b.discountAmount)),
        );
        const tax = total(result.taxes.map((entry) => amount(entry.breakouts[position]!.taxAmount)));
        expect(amount(line.discount)).toBe(discount);
        expect(amount(line.tax)).toBe(tax);
        expect(amount(line.total)).toBe(amount(line.subtotal) - discount + tax);
      });
    },
  );

  test.prop([moderate, fc.nat()], { numRuns: 100 })(
    'the same input gives the same output (pure, and independent of line order for invoice-level figures)',
    (input, seed) => {
      expect(calculateInvoice(input)).toEqual(calculateInvoice(input));
      const rotation = input.lines.length === 0 ? 0 : seed % input.lines.length;
      const rotated = {
        ...input,
        lines: [...input.lines.slice(rotation), ...input.lines.slice(0, rotation)],
      };
      const { lines: _lines, discounts, taxes, ...sums } = calculateInvoice(input);
      const other = calculateInvoice(rotated);
      expect({ ...other, lines: [], discounts: [], taxes: [] }).toEqual({
        ...sums,
        lines: [],
        discounts: [],
        taxes: [],
      });
      expect(other.discounts.map((entry) => entry.discountAmount)).toEqual(
        discounts.map((entry) => entry.discountAmount),
      );
      expect(other.taxes.map((entry) => entry.taxAmount)).toEqual(taxes.map((entry) => entry.taxAmount));
    },
  );
});
