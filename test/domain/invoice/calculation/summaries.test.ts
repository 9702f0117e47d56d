/**
 * The coupon and tax summaries of a calculation: the catalog's own fields pass through unchanged, and a
 * field the catalog did not give is absent (not present as `undefined`, which would show in JSON output
 * as a key and in the API as `null`).
 */
import { describe, expect, it } from 'vitest';
import {
  calculateInvoice,
  calculateInvoiceReference,
  createInvoiceCalculator,
  type InvoiceCalculationInput,
} from '../../../../src/domain/invoice/calculation/index.js';

const input: InvoiceCalculationInput = {
  currency: 'USD',
  lines: [
    { uid: 'a', quantity: '2', unitPrice: '30', taxable: true },
    { uid: 'b', quantity: '1', unitPrice: '40', taxable: false },
  ],
  coupons: [
    {
      code: 'WELCOME5',
      kind: 'amount',
      amount: '5',
      compoundingStrategy: 'compound',
      sourceId: 41,
      title: 'Welcome',
      description: 'Five off the first invoice',
    },
    { code: 'TEN', kind: 'percentage', percentage: '10', compoundingStrategy: 'full-price' },
  ],
  taxes: [
    { name: 'VAT', percentage: '20', sourceId: 9 },
    { name: 'City tax', percentage: '1.5' },
  ],
};

/** The summaries without their breakouts, as `totals()` reports them. */
const summaries = (calculation: ReturnType<typeof calculateInvoice>) => ({
  discounts: calculation.discounts.map(({ breakouts: _breakouts, ...summary }) => summary),
  taxes: calculation.taxes.map(({ breakouts: _breakouts, ...summary }) => summary),
});

// Subtotal 100 (a 60 taxable, b 40 exempt). WELCOME5 takes 5 (3 / 2), TEN 10% of the original 100 (6 / 4).
// VAT 20% of a's 60 − 3 − 6 = 51 is 10.2; the city tax 1.5% of 51 is 0.765, rounded half up to 0.77.
const expected = {
  discounts: [
    {
      code: 'WELCOME5',
      kind: 'amount',
      compoundingStrategy: 'compound',
      amount: '5',
      sourceId: 41,
      title: 'Welcome',
      description: 'Five off the first invoice',
      eligibleAmount: '100',
      discountAmount: '5',
    },
    {
      code: 'TEN',
      kind: 'percentage',
      compoundingStrategy: 'full-price',
      percentage: '10',
      eligibleAmount: '100',
      discountAmount: '10',
    },
  ],
  taxes: [
    {
      name: 'VAT',
      percentage: '20',
      sourceId: 9,
      taxableAmount: '51',
      taxAmount: '10.2',
      taxExemptAmount: '34',
    },
    { name: 'City tax', percentage: '1.5', taxableAmount: '51', taxAmount: '0.77', taxExemptAmount: '34' },
  ],
};

describe('discount and tax summaries', () => {
  it('pass the catalog fields through and leave out the ones it did not give (fast path)', () => {
    const result = calculateInvoice(input);
    expect(summaries(result)).toStrictEqual(expected);
    expect(result).toMatchObject({ subtotal: '100', discount: '15', tax: '10.97', total: '95.97' });
  });

  it('are the same in the decimal reference and in the incremental totals', () => {
    expect(summaries(calculateInvoiceReference(input))).toStrictEqual(expected);
    const { discounts, taxes } = createInvoiceCalculator(input).totals();
    expect({ discounts, taxes }).toStrictEqual(expected);
  });

  it('split each discount and tax over the lines it applies to, exempt lines showing their net amount', () => {
    const result = calculateInvoice(input);
    expect(result.discounts.map((discount) => discount.breakouts)).toStrictEqual([
      [
        { uid: 'a', eligibleAmount: '60', discountAmount: '3' },
        { uid: 'b', eligibleAmount: '40', discountAmount: '2' },
      ],
      [
        { uid: 'a', eligibleAmount: '60', discountAmount: '6' },
        { uid: 'b', eligibleAmount: '40', discountAmount: '4' },
      ],
    ]);
    expect(result.taxes[1]!.breakouts).toStrictEqual([
      { uid: 'a', taxableAmount: '51', taxAmount: '0.77', taxExemptAmount: '0' },
      { uid: 'b', taxableAmount: '0', taxAmount: '0', taxExemptAmount: '34' },
    ]);
  });
});
