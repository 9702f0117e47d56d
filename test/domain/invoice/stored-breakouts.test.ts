/**
 * Breakouts built in the shape the invoice stores and presents (`calculationWith(storedBreakouts)`):
 * the same amounts as the documented calculation, with the currency's decimals, on the integer fast
 * path and on the exact reference alike; and the renaming of breakouts stored in the earlier shape.
 */
import { describe, expect, it } from 'vitest';
import {
  type CalcLine,
  createInvoiceCalculator,
  type InvoiceCalculationInput,
} from '../../../src/domain/invoice/calculation/index.js';
import { storedBreakouts, withPresentedBreakouts } from '../../../src/domain/invoice/stored-breakouts.js';
import type { Invoice } from '../../../src/domain/invoice/types.js';
import { moneyFormatter } from '../../../src/kernel/money.js';

const line = (uid: string, quantity: string, unitPrice: string, taxable: boolean): CalcLine => ({
  uid,
  quantity,
  unitPrice,
  taxable,
});

const input = (lines: readonly CalcLine[]): InvoiceCalculationInput => ({
  currency: 'USD',
  lines,
  coupons: [
    { code: 'TEN', kind: 'percentage', percentage: '10', compoundingStrategy: 'compound' },
    { code: 'FIVE', kind: 'amount', amount: '5', compoundingStrategy: 'full-price' },
  ],
  taxes: [{ name: 'State', percentage: '8.875' }],
});

/** What the stored breakouts must be: the documented ones, written with the currency's decimals. */
function expected(calculationInput: InvoiceCalculationInput) {
  const money = moneyFormatter('USD');
  const plain = createInvoiceCalculator(calculationInput).calculation();
  return {
    discounts: plain.discounts.map((discount) =>
      discount.breakouts.map((part) => ({
        uid: part.uid,
        eligible_amount: money(part.eligibleAmount),
        discount_amount: money(part.discountAmount),
      })),
    ),
    taxes: plain.taxes.map((tax) =>
      tax.breakouts.map((part) => ({
        uid: part.uid,
        taxable_amount: money(part.taxableAmount),
        tax_amount: money(part.taxAmount),
        tax_exempt_amount: money(part.taxExemptAmount),
      })),
    ),
  };
}

function expectStoredLikePlain(calculationInput: InvoiceCalculationInput): void {
  const stored = createInvoiceCalculator(calculationInput).calculationWith(storedBreakouts('USD'));
  const want = expected(calculationInput);
  expect(stored.discounts.map((discount) => discount.breakouts)).toEqual(want.discounts);
  expect(stored.taxes.map((tax) => tax.breakouts)).toEqual(want.taxes);
  for (const part of stored.discounts.flatMap((discount) => discount.breakouts))
    expect(Object.isFrozen(part)).toBe(true);
}

describe('calculationWith(storedBreakouts)', () => {
  it('writes the documented breakouts with the currency decimals, on the integer fast path', () => {
    const lines = Array.from({ length: 40 }, (_, index) =>
      line(`li_${index}`, String(1 + (index % 7)), `${index}.${index % 10}5`, index % 3 !== 0),
    );
    expectStoredLikePlain(input(lines));
    expect(createInvoiceCalculator(input(lines)).columns()).toBeDefined();
  });

  it('and on the exact reference, beyond the fast range', () => {
    const lines = [line('a', '1000000', '99999999999.99', true), line('b', '3', '0.335', false)];
    // Beyond the fast range there are no integer columns: the reference's strings are rewritten.
    expect(createInvoiceCalculator(input(lines)).columns()).toBeUndefined();
    expectStoredLikePlain(input(lines));
  });

  it('writes the zero amounts of exempt lines with the currency decimals', () => {
    const lines = [line('a', '1', '10', false), line('b', '1', '20', true)];
    const stored = createInvoiceCalculator(input(lines)).calculationWith(storedBreakouts('USD'));
    expect(stored.taxes[0]!.breakouts[0]).toMatchObject({ taxable_amount: '0.00', tax_amount: '0.00' });
    expect(stored.taxes[0]!.breakouts[1]).toMatchObject({ tax_exempt_amount: '0.00' });
  });
});

describe('withPresentedBreakouts', () => {
  const current = {
    discounts: [{ breakouts: [{ uid: 'a', eligible_amount: '10.00', discount_amount: '1.00' }] }],
    taxes: [
      { breakouts: [{ uid: 'a', taxable_amount: '9.00', tax_amount: '0.80', tax_exempt_amount: '0.00' }] },
    ],
  } as unknown as Invoice;

  it('renames breakouts stored in the earlier shape, and keeps their amounts', () => {
    const old = {
      ...current,
      discounts: [{ breakouts: [{ uid: 'a', eligibleAmount: '10', discountAmount: '1' }] }],
      taxes: [{ breakouts: [{ uid: 'a', taxableAmount: '9', taxAmount: '0.8', taxExemptAmount: '0' }] }],
    } as unknown as Invoice;
    const renamed = withPresentedBreakouts(old);
    expect(renamed.discounts[0]!.breakouts).toEqual([
      { uid: 'a', eligible_amount: '10', discount_amount: '1' },
    ]);
    expect(renamed.taxes[0]!.breakouts).toEqual([
      { uid: 'a', taxable_amount: '9', tax_amount: '0.8', tax_exempt_amount: '0' },
    ]);
  });

  it('returns an invoice in the current shape as it is', () => {
    expect(withPresentedBreakouts(current)).toBe(current);
  });
});
