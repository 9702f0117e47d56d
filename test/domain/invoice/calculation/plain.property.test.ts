/** The calculation without coupons or taxes: the general calculation's figures, as the same strings. */
import { test } from '@fast-check/vitest';
import { describe, expect, it } from 'vitest';
import { calculatePlain, createInvoiceCalculator } from '../../../../src/domain/invoice/calculation/index.js';
import { minorUnits } from '../../../../src/kernel/money.js';
import { invoiceArbitrary } from './arbitraries.js';

describe('calculatePlain', () => {
  test.prop([invoiceArbitrary({ maxCoupons: 0, maxTaxes: 0, maxLines: 30 })], { numRuns: 400 })(
    'equals the general calculation, and leaves it only amounts beyond the fast range',
    (input) => {
      const lines = input.lines;
      const general = createInvoiceCalculator(input).calculation();
      const plain = calculatePlain(lines, minorUnits(input.currency));
      // Undefined only beyond the fast range (about 10^15 minor units), where the general one is exact.
      if (plain === undefined) {
        expect(general.subtotal.replace(/[-.]/g, '').length).toBeGreaterThan(12);
        return;
      }
      expect(plain.lines).toEqual(general.lines);
      expect({
        subtotal: plain.subtotal,
        discount: plain.zero,
        tax: plain.zero,
        total: plain.subtotal,
      }).toEqual({
        subtotal: general.subtotal,
        discount: general.discount,
        tax: general.tax,
        total: general.total,
      });
    },
  );

  it('prices lines by quantity and unit price or by their given subtotal, in the currency digits', () => {
    const lines = [
      { uid: 'a', quantity: '3', unitPrice: '0.335', taxable: true },
      { uid: 'b', quantity: '1', unitPrice: '7', taxable: false, subtotal: '2.5' },
      { uid: 'c', quantity: '0', unitPrice: '9', taxable: false },
    ];
    const usd = calculatePlain(lines, 2);
    expect(usd?.lines.map((line) => [line.uid, line.subtotal, line.discount, line.tax, line.total])).toEqual([
      ['a', '1.01', '0', '0', '1.01'],
      ['b', '2.5', '0', '0', '2.5'],
      ['c', '0', '0', '0', '0'],
    ]);
    expect(usd?.subtotal).toBe('3.51');
    expect(calculatePlain(lines, 0)?.subtotal).toBe('4');
    expect(calculatePlain(lines, 3)?.subtotal).toBe('3.505');
    expect(calculatePlain([], 2)).toEqual({ lines: [], subtotal: '0', zero: '0' });
  });

  it('leaves amounts out of range to the general calculation', () => {
    const huge = { uid: 'a', quantity: '1', unitPrice: '20000000000000', taxable: false };
    expect(calculatePlain([huge], 2)).toBeUndefined();
    const half = { uid: 'b', quantity: '1', unitPrice: '6000000000000', taxable: false };
    expect(calculatePlain([half], 2)?.subtotal).toBe('6000000000000');
    expect(calculatePlain([half, half], 2)).toBeUndefined();
  });
});
