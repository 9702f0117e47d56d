/**
 * Line classes (lines with the same coupons and taxability) decide only ties, and must decide them the
 * same way whether the class key is a number (up to 30 restricted coupons) or a string (more).
 */
import { describe, expect, it } from 'vitest';
import {
  type CalcCoupon,
  calculateInvoice,
  calculateInvoiceReference,
  createInvoiceCalculator,
  type InvoiceCalculationInput,
} from '../../../../src/domain/invoice/calculation/index.js';

/**
 * `zeroCoupons` restricted 0% coupons on line `b` (they only shape the classes), then a one-cent coupon
 * on both lines and a 10% tax. Lines `b` then `a`, 100 each: the cent is a tie between their classes.
 */
function invoiceWith(zeroCoupons: number, taxableA = true): InvoiceCalculationInput {
  const shaping = Array.from(
    { length: zeroCoupons },
    (_, index): CalcCoupon => ({
      code: `ZERO${index}`,
      kind: 'percentage',
      percentage: '0',
      compoundingStrategy: 'compound',
      eligibleLineUids: ['b'],
    }),
  );
  return {
    currency: 'USD',
    lines: [
      { uid: 'b', quantity: '1', unitPrice: '100', taxable: true },
      { uid: 'a', quantity: '1', unitPrice: '100', taxable: taxableA },
    ],
    coupons: [
      ...shaping,
      {
        code: 'CENT',
        kind: 'amount',
        amount: '0.01',
        compoundingStrategy: 'compound',
        eligibleLineUids: ['a', 'b'],
      },
    ],
    taxes: [{ name: 'VAT', percentage: '10' }],
  };
}

const centOf = (input: InvoiceCalculationInput) =>
  calculateInvoice(input)
    .discounts.at(-1)!
    .breakouts.map((breakout) => [breakout.uid, breakout.discountAmount]);

describe('line classes', () => {
  it('give a tied unit to the class whose coupons sort first (not eligible before eligible), with numeric keys', () => {
    // Class of a: not eligible for ZERO*, so it sorts before the class of b, although b is the first line.
    expect(centOf(invoiceWith(29))).toEqual([
      ['b', '0'],
      ['a', '0.01'],
    ]);
    expect(calculateInvoice(invoiceWith(29))).toEqual(calculateInvoiceReference(invoiceWith(29)));
  });

  it('decide ties the same way with string keys (more than 30 restricted coupons)', () => {
    const input = invoiceWith(31);
    expect(centOf(input)).toEqual([
      ['b', '0'],
      ['a', '0.01'],
    ]);
    const result = calculateInvoice(input);
    expect(result).toEqual(calculateInvoiceReference(input));
    expect(result).toMatchObject({ subtotal: '200', discount: '0.01', tax: '20', total: '219.99' });
    expect(result.lines.map((line) => line.tax)).toEqual(['10', '10']);
  });

  it('keep lines that differ only in taxability apart, with string keys', () => {
    const input = invoiceWith(31, false);
    const result = calculateInvoice(input);
    expect(result).toEqual(calculateInvoiceReference(input));
    expect(result.lines.map((line) => [line.uid, line.tax, line.total])).toEqual([
      ['b', '10', '110'],
      ['a', '0', '99.99'],
    ]);
    expect(result.taxes[0]).toMatchObject({
      taxableAmount: '100',
      taxAmount: '10',
      taxExemptAmount: '99.99',
    });
  });

  it('follow a line that an edit moves into another class, with string keys', () => {
    const input = invoiceWith(31);
    const calculator = createInvoiceCalculator(input);
    calculator.totals();
    // Line a takes the uid b: now both lines are in b's class and the tie goes to the first line.
    const moved = { uid: 'b', quantity: '1', unitPrice: '100', taxable: true };
    calculator.updateLine(1, moved);
    const expected = calculateInvoiceReference({ ...input, lines: [input.lines[0]!, moved] });
    expect(calculator.calculation()).toEqual(expected);
    expect(expected.discounts.at(-1)!.breakouts.map((breakout) => breakout.discountAmount)).toEqual([
      '0.01',
      '0',
    ]);
  });
});
