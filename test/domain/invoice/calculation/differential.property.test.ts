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
