/**
 * Caller bugs the calculation refuses (the API layer validates requests first): each names what is wrong,
 * on the fast path and in the decimal reference alike.
 */
import { describe, expect, it } from 'vitest';
import {
  type CalcCoupon,
  calculateInvoice,
  calculateInvoiceReference,
  createInvoiceCalculator,
  type InvoiceCalculationInput,
} from '../../../../src/domain/invoice/calculation/index.js';
import { InvariantError } from '../../../../src/kernel/invariant.js';

const withCoupon = (coupon: CalcCoupon): InvoiceCalculationInput => ({
  currency: 'USD',
  lines: [{ uid: 'a', quantity: '1', unitPrice: '10', taxable: true }],
  coupons: [coupon],
  taxes: [],
});

describe('calculation preconditions', () => {
  it('refuses a coupon without the value its kind needs, naming the coupon', () => {
    const noAmount = withCoupon({ code: 'FLAT', kind: 'amount', compoundingStrategy: 'compound' });
    expect(() => calculateInvoice(noAmount)).toThrow(new InvariantError('amount coupon FLAT has no amount'));
    expect(() => calculateInvoiceReference(noAmount)).toThrow(InvariantError);
    const noPercentage = withCoupon({ code: 'PCT', kind: 'percentage', compoundingStrategy: 'full-price' });
    expect(() => calculateInvoice(noPercentage)).toThrow(
      new InvariantError('percentage coupon PCT has no percentage'),
    );
  });

  it('refuses a line index outside the invoice, for reads and edits alike', () => {
    const calculator = createInvoiceCalculator(
      withCoupon({ code: 'P', kind: 'percentage', percentage: '50', compoundingStrategy: 'compound' }),
    );
    expect(calculator.line(0)).toEqual({ uid: 'a', subtotal: '10', discount: '5', tax: '0', total: '5' });
    for (const index of [-1, 1, 0.5, Number.NaN]) {
      expect(() => calculator.line(index)).toThrow(new InvariantError(`no line at index ${index}`));
      expect(() =>
        calculator.updateLine(index, { uid: 'b', quantity: '1', unitPrice: '1', taxable: true }),
      ).toThrow(new InvariantError(`no line at index ${index}`));
    }
    // The refused edits changed nothing.
    expect(calculator.totals().total).toBe('5');
  });
});
