/**
 * The differential law: the integer fast path gives exactly what the plain decimal.js reference gives,
 * field for field, on generated invoices (including the shapes that push it to its fallbacks).
 */
import { fc, test } from '@fast-check/vitest';
import { describe, expect } from 'vitest';
import {
  calculateInvoice,
  calculateInvoiceReference,
  createInvoiceCalculator,
} from '../../../../src/domain/invoice/calculation/index.js';
import { storedBreakouts } from '../../../../src/domain/invoice/stored-breakouts.js';
import { moneyFormatter } from '../../../../src/kernel/money.js';
import { SCALED_LIMIT } from '../../../../src/kernel/scaled.js';
import { invoiceArbitrary, nearLimitInvoiceArbitrary } from './arbitraries.js';

describe('invoice calculation: fast path against the decimal reference', () => {
  test.prop([invoiceArbitrary()], { numRuns: 400 })(
    'fast path equals the decimal reference (small invoices, every edge)',
    (input) => {
      expect(calculateInvoice(input)).toEqual(calculateInvoiceReference(input));
    },
  );

  test.prop([invoiceArbitrary({ huge: true, maxLines: 6 })], { numRuns: 200 })(
    'fast path equals the decimal reference with huge quantities and prices (per-line and whole fallbacks)',
    (input) => {
      expect(calculateInvoice(input)).toEqual(calculateInvoiceReference(input));
    },
  );

  test.prop([invoiceArbitrary({ minLines: 150, maxLines: 600, maxCoupons: 3, maxTaxes: 2 })], {
    numRuns: 15,
  })(
    'fast path equals the decimal reference on invoices large enough for the estimated fractions',
    (input) => {
      const calculator = createInvoiceCalculator(input);
      expect(calculator.columns()).toBeDefined();
      expect(calculator.calculation()).toEqual(calculateInvoiceReference(input));
    },
  );

  test.prop([invoiceArbitrary({ minLines: 20_000, maxLines: 20_000, maxCoupons: 3, maxTaxes: 2 })], {
    numRuns: 2,
  })(
    'fast path equals the decimal reference on invoices large enough for the one-pass prediction',
    (input) => {
      const calculator = createInvoiceCalculator(input);
      expect(calculator.columns()).toBeDefined();
      expect(calculator.calculation()).toEqual(calculateInvoiceReference(input));
    },
  );

  test.prop([invoiceArbitrary({ maxCoupons: 3, maxTaxes: 2 })], { numRuns: 300 })(
    'breakouts built in another shape carry the reference amounts, written with the currency decimals',
    (input) => {
      const money = moneyFormatter(input.currency);
      const reference = calculateInvoiceReference(input);
      const stored = createInvoiceCalculator(input).calculationWith(storedBreakouts(input.currency));
      expect(stored.lines).toEqual(reference.lines);
      expect(stored.discounts.map((discount) => discount.breakouts)).toEqual(
        reference.discounts.map((discount) =>
          discount.breakouts.map((part) => ({
            uid: part.uid,
            eligible_amount: money(part.eligibleAmount),
            discount_amount: money(part.discountAmount),
          })),
        ),
      );
      expect(stored.taxes.map((tax) => tax.breakouts)).toEqual(
        reference.taxes.map((tax) =>
          tax.breakouts.map((part) => ({
            uid: part.uid,
            taxable_amount: money(part.taxableAmount),
            tax_amount: money(part.taxAmount),
            tax_exempt_amount: money(part.taxExemptAmount),
          })),
        ),
      );
    },
  );

  test.prop([nearLimitInvoiceArbitrary(BigInt(SCALED_LIMIT))], { numRuns: 300 })(
    'fast path equals the decimal reference when the amounts sit just inside or just beyond its range limit',
    (input) => {
      expect(calculateInvoice(input)).toEqual(calculateInvoiceReference(input));
    },
  );

  test('near-limit invoices take both the fast path and the fallback', () => {
    const inputs = fc.sample(nearLimitInvoiceArbitrary(BigInt(SCALED_LIMIT)), { numRuns: 200, seed: 12 });
    const fast = inputs.filter((input) => createInvoiceCalculator(input).columns() !== undefined);
    expect(fast.length).toBeGreaterThan(20);
    expect(fast.length).toBeLessThan(inputs.length - 20);
  });

  test('the fast path holds the benchmark-like invoices (no fallback)', () => {
    const input = fc.sample(invoiceArbitrary({ minLines: 50, maxLines: 50, restrictions: false }), {
      numRuns: 1,
      seed: 7,
    })[0]!;
    expect(createInvoiceCalculator(input).columns()).toBeDefined();
  });
});
