/** Worked examples of the invoice calculation, with the figures written out. */
import { describe, expect, it } from 'vitest';
import {
  type CalcCoupon,
  type CalcLine,
  calculateInvoice,
  calculateInvoiceReference,
  createInvoiceCalculator,
  type InvoiceCalculationInput,
} from '../../../../src/domain/invoice/calculation/index.js';
import { InvariantError } from '../../../../src/kernel/invariant.js';

const line = (uid: string, quantity: string, unitPrice: string, taxable = true): CalcLine => ({
  uid,
  quantity,
  unitPrice,
  taxable,
});
const percent = (
  code: string,
  percentage: string,
  strategy: CalcCoupon['compoundingStrategy'] = 'compound',
) => ({ code, kind: 'percentage', percentage, compoundingStrategy: strategy }) as const;
const flat = (code: string, amount: string) =>
  ({ code, kind: 'amount', amount, compoundingStrategy: 'compound' }) as const;
const invoice = (overrides: Partial<InvoiceCalculationInput>): InvoiceCalculationInput => ({
  currency: 'USD',
  lines: [],
  coupons: [],
  taxes: [],
  ...overrides,
});

describe('calculateInvoice', () => {
  it('reproduces the read-invoice example of the official documentation (10% coupon, 6.75% tax)', () => {
    const result = calculateInvoice(
      invoice({
        lines: [line('a', '1', '99'), line('b', '1', '15.5'), line('c', '1', '47'), line('d', '1', '14')],
        coupons: [{ ...percent('MULTI', '10'), sourceId: 7, title: 'Multi-service discount (10%)' }],
        taxes: [{ name: 'NC Sales Tax', percentage: '6.75', sourceId: 3 }],
      }),
    );
    expect(result).toMatchObject({ subtotal: '175.5', discount: '17.55', tax: '10.66', total: '168.61' });
    expect(result.discounts[0]).toMatchObject({
      sourceId: 7,
      eligibleAmount: '175.5',
      discountAmount: '17.55',
    });
    expect(result.discounts[0]!.breakouts.map((b) => b.discountAmount)).toEqual([
      '9.9',
      '1.55',
      '4.7',
      '1.4',
    ]);
    expect(result.taxes[0]).toMatchObject({
      taxableAmount: '157.95',
      taxAmount: '10.66',
      taxExemptAmount: '0',
    });
    // Exact shares 6.01425, 0.941625, 2.85525, 0.8505: the missing cent goes to the largest remainder (2.855).
    expect(result.taxes[0]!.breakouts.map((b) => b.taxAmount)).toEqual(['6.01', '0.94', '2.86', '0.85']);
    expect(result.lines.map((l) => l.total)).toEqual(['95.11', '14.89', '45.16', '13.45']);
  });

  it('stacks coupons in request order: compound on what is left, full-price on the original price', () => {
    const item = [line('item', '1', '100')];
    const both = calculateInvoice(
      invoice({ lines: item, coupons: [percent('A', '10'), percent('B', '20')] }),
    );
    expect(both.discounts.map((d) => [d.eligibleAmount, d.discountAmount])).toEqual([
      ['100', '10'],
      ['90', '18'],
    ]);
    const fullPrice = calculateInvoice(
      invoice({ lines: item, coupons: [percent('A', '10'), percent('B', '20', 'full-price')] }),
    );
    expect(fullPrice.discount).toBe('30');
    const amountFirst = calculateInvoice(
      invoice({ lines: item, coupons: [flat('FIVE', '5'), percent('A', '10')] }),
    );
    expect(amountFirst.discounts.map((d) => d.discountAmount)).toEqual(['5', '9.5']);
  });

  it('caps a coupon at what is left: amount coupons above the subtotal, 100% coupons, stacked full-price', () => {
    const big = calculateInvoice(invoice({ lines: [line('a', '2', '10')], coupons: [flat('BIG', '500')] }));
    expect(big).toMatchObject({ discount: '20', total: '0' });
    expect(big.discounts[0]).toMatchObject({ eligibleAmount: '20', discountAmount: '20' });
    const all = calculateInvoice(
      invoice({
        lines: [line('a', '1', '10')],
        coupons: [percent('HALF', '60'), percent('FULL', '100'), flat('MORE', '1')],
        taxes: [{ name: 'VAT', percentage: '20' }],
      }),
    );
    expect(all.discounts.map((d) => d.discountAmount)).toEqual(['6', '4', '0']);
    expect(all).toMatchObject({ subtotal: '10', discount: '10', tax: '0', total: '0' });
    const fullPrice = calculateInvoice(
      invoice({
        lines: [line('a', '1', '10')],
        coupons: [percent('A', '60'), percent('B', '50', 'full-price')],
      }),
    );
    expect(fullPrice.discounts.map((d) => d.discountAmount)).toEqual(['6', '4']);
  });

  it('splits a full-price coupon again with per-line caps when the plain split would take a line below zero', () => {
    const result = calculateInvoice(
      invoice({
        lines: [line('a', '1', '1.01'), line('b', '1', '1.01')],
        coupons: [percent('A', '50'), percent('B', '50', 'full-price')],
      }),
    );
    // A: 1.01 split 0.51 / 0.50 (tie to the earlier line). B wants 0.505 + 0.505 of lines left with 0.50 / 0.51.
    expect(result.discounts[0]!.breakouts.map((b) => b.discountAmount)).toEqual(['0.51', '0.5']);
    expect(result.discounts[1]!.breakouts.map((b) => b.discountAmount)).toEqual(['0.5', '0.51']);
    expect(result.lines.map((l) => l.total)).toEqual(['0', '0']);
  });

  it('rounds to the currency: JPY has no minor unit, KWD has three decimals', () => {
    const yen = calculateInvoice(
      invoice({ currency: 'JPY', lines: [line('a', '3', '33.5')], coupons: [percent('TEN', '10')] }),
    );
    expect(yen).toMatchObject({ subtotal: '101', discount: '10', total: '91' });
    const dinar = calculateInvoice(
      invoice({
        currency: 'KWD',
        lines: [line('a', '3', '0.3335')],
        taxes: [{ name: 'VAT', percentage: '5' }],
      }),
    );
    expect(dinar).toMatchObject({ subtotal: '1.001', tax: '0.05', total: '1.051' });
  });

  it('applies a restricted coupon to its lines only and shows lines outside a tax as exempt', () => {
    const result = calculateInvoice(
      invoice({
        lines: [line('a', '1', '100'), line('b', '2', '25', false), line('zero', '0', '80')],
        coupons: [{ ...percent('ONLY_B', '10'), eligibleLineUids: ['b'] }],
        taxes: [{ name: 'VAT', percentage: '20' }],
      }),
    );
    expect(result.discounts[0]!.breakouts).toEqual([{ uid: 'b', eligibleAmount: '50', discountAmount: '5' }]);
    expect(result.taxes[0]).toMatchObject({ taxableAmount: '100', taxAmount: '20', taxExemptAmount: '45' });
    expect(result.taxes[0]!.breakouts[1]).toEqual({
      uid: 'b',
      taxableAmount: '0',
      taxAmount: '0',
      taxExemptAmount: '45',
    });
    expect(result.lines[2]).toEqual({ uid: 'zero', subtotal: '0', discount: '0', tax: '0', total: '0' });
  });

  it('uses a subtotal the caller priced (tiered line) instead of quantity × blended price', () => {
    const result = calculateInvoice(
      invoice({
        lines: [{ ...line('tiered', '194', '0.24226804'), subtotal: '47' }],
        coupons: [percent('T', '10')],
      }),
    );
    expect(result.lines[0]).toMatchObject({ subtotal: '47', discount: '4.7', total: '42.3' });
  });

  it('handles an empty invoice', () => {
    expect(
      calculateInvoice(invoice({ coupons: [percent('A', '10')], taxes: [{ name: 'T', percentage: '5' }] })),
    ).toMatchObject({
      subtotal: '0',
      discount: '0',
      tax: '0',
      total: '0',
    });
  });

  it('prices lines beyond the fast parse exactly (per-line BigInt), and whole invoices beyond 2^50 minor units with the reference', () => {
    const wide = invoice({ lines: [line('a', '1000000', '999.9999')], coupons: [percent('A', '10')] });
    expect(calculateInvoice(wide)).toMatchObject({
      subtotal: '999999900',
      discount: '99999990',
      total: '899999910',
    });
    expect(createInvoiceCalculator(wide).columns()).toBeDefined();
    const huge = invoice({
      lines: [line('a', '1000000', '99999999.9999'), line('b', '3', '0.335')],
      coupons: [percent('A', '12.5')],
      taxes: [{ name: 'VAT', percentage: '8.875' }],
    });
    expect(createInvoiceCalculator(huge).columns()).toBeUndefined();
    expect(calculateInvoice(huge)).toEqual(calculateInvoiceReference(huge));
    expect(calculateInvoice(huge).subtotal).toBe('99999999999901.01');
  });

  it('refuses malformed input as a caller bug', () => {
    expect(() => calculateInvoice(invoice({ lines: [line('a', '-1', '5')] }))).toThrow(InvariantError);
    const noPercentage = { code: 'X', kind: 'percentage', compoundingStrategy: 'compound' } as const;
    expect(() => calculateInvoice(invoice({ coupons: [noPercentage] }))).toThrow(InvariantError);
    expect(() => calculateInvoice(invoice({ taxes: [{ name: 'T', percentage: '-5' }] }))).toThrow(
      InvariantError,
    );
  });
});

describe('createInvoiceCalculator', () => {
  const input = invoice({
    lines: [line('a', '2', '10'), line('b', '1', '5.5', false)],
    coupons: [percent('TEN', '10')],
    taxes: [{ name: 'VAT', percentage: '10' }],
  });

  it('recomputes totals after an edit and derives lines when asked', () => {
    const calculator = createInvoiceCalculator(input);
    expect(calculator.totals()).toMatchObject({
      subtotal: '25.5',
      discount: '2.55',
      tax: '1.8',
      total: '24.75',
    });
    calculator.updateLine(1, line('b', '2', '5.5'));
    expect(calculator.totals()).toMatchObject({
      subtotal: '31',
      discount: '3.1',
      tax: '2.79',
      total: '30.69',
    });
    expect(calculator.line(1)).toEqual({
      uid: 'b',
      subtotal: '11',
      discount: '1.1',
      tax: '0.99',
      total: '10.89',
    });
    expect(calculator.size).toBe(2);
  });

  it('exposes per-line results as integer columns of minor units', () => {
    const columns = createInvoiceCalculator(input).columns();
    expect(columns?.minorDigits).toBe(2);
    expect([...(columns?.total ?? [])]).toEqual([1980, 495]);
    expect([...(columns?.discount ?? [])]).toEqual([200, 55]);
  });

  it('refuses an index outside the invoice', () => {
    expect(() => createInvoiceCalculator(input).updateLine(2, line('c', '1', '1'))).toThrow(InvariantError);
  });
});
