/**
 * Where the integer fast path ends: every line subtotal, class sum and total up to 2^50 minor units
 * (`SCALED_LIMIT`, 11,258,999,068,426.24 USD) stays on it (`columns()` defined); one minor unit more and
 * the calculator answers from the decimal reference, with the same figures.
 */
import { describe, expect, it } from 'vitest';
import {
  type CalcLine,
  calculateInvoice,
  calculateInvoiceReference,
  createInvoiceCalculator,
  type InvoiceCalculationInput,
} from '../../../../src/domain/invoice/calculation/index.js';

/** 2^50 cents in dollars. */
const LIMIT_USD = '11258999068426.24';
const ONE_CENT_MORE = '11258999068426.25';
/** 2^49 cents in dollars (a 100% tax doubles it to the limit). */
const HALF_LIMIT_USD = '5629499534213.12';

const priced = (uid: string, subtotal: string, taxable = true): CalcLine => ({
  uid,
  quantity: '1',
  unitPrice: subtotal,
  taxable,
});
const usd = (lines: CalcLine[], extra: Partial<InvoiceCalculationInput> = {}): InvoiceCalculationInput => ({
  currency: 'USD',
  lines,
  coupons: [],
  taxes: [],
  ...extra,
});
const onFastPath = (input: InvoiceCalculationInput): boolean =>
  createInvoiceCalculator(input).columns() !== undefined;

describe('the fast path range', () => {
  it('holds a line of exactly 2^50 minor units, not one of a minor unit more', () => {
    expect(onFastPath(usd([priced('a', LIMIT_USD)]))).toBe(true);
    expect(onFastPath(usd([priced('a', ONE_CENT_MORE)]))).toBe(false);
    expect(
      onFastPath(usd([{ uid: 'a', quantity: '0', unitPrice: '0', subtotal: LIMIT_USD, taxable: true }])),
    ).toBe(true);
    expect(calculateInvoice(usd([priced('a', ONE_CENT_MORE)])).total).toBe(ONE_CENT_MORE);
  });

  it('holds lines adding up to exactly 2^50 minor units, and falls back one minor unit beyond', () => {
    const atLimit = usd([priced('a', '11258999068426.23'), priced('b', '0.01', false)]);
    expect(onFastPath(atLimit)).toBe(true);
    expect(calculateInvoice(atLimit).subtotal).toBe(LIMIT_USD);
    const beyond = usd([priced('a', '11258999068426.23'), priced('b', '0.02', false)]);
    expect(onFastPath(beyond)).toBe(false);
    expect(calculateInvoice(beyond)).toEqual(calculateInvoiceReference(beyond));
  });

  it('applies the same bounds when restricted coupons split the lines into classes', () => {
    const coupon = {
      code: 'B',
      kind: 'percentage',
      percentage: '50',
      compoundingStrategy: 'compound',
      eligibleLineUids: ['b'],
    } as const;
    const atLimit = usd([priced('a', '11258999068426.22'), priced('b', '0.02')], { coupons: [coupon] });
    expect(onFastPath(atLimit)).toBe(true);
    expect(onFastPath(usd([priced('a', LIMIT_USD)], { coupons: [coupon] }))).toBe(true);
    expect(onFastPath(usd([priced('a', ONE_CENT_MORE)], { coupons: [coupon] }))).toBe(false);
    const beyond = usd([priced('a', '11258999068426.23'), priced('b', '0.02')], { coupons: [coupon] });
    expect(onFastPath(beyond)).toBe(false);
    expect(calculateInvoice(atLimit)).toMatchObject({ discount: '0.01', total: '11258999068426.23' });
  });

  it('holds a total of exactly 2^50 minor units after tax, not one beyond', () => {
    const tax = { taxes: [{ name: 'Double', percentage: '100' }] };
    const atLimit = usd([priced('a', HALF_LIMIT_USD)], tax);
    expect(onFastPath(atLimit)).toBe(true);
    expect(calculateInvoice(atLimit).total).toBe(LIMIT_USD);
    const beyond = usd([priced('a', '5629499534213.13')], tax);
    expect(onFastPath(beyond)).toBe(false);
    expect(calculateInvoice(beyond)).toEqual(calculateInvoiceReference(beyond));
    expect(calculateInvoice(beyond).total).toBe('11258999068426.26');
  });

  it('moves an edited invoice off the fast path and back as its sum crosses the limit', () => {
    const input = usd([priced('a', '11258999068426.2'), priced('b', '0.04')]);
    const calculator = createInvoiceCalculator(input);
    expect(calculator.columns()).toBeDefined();
    calculator.updateLine(1, priced('b', '0.05'));
    expect(calculator.columns()).toBeUndefined();
    expect(calculator.totals().total).toBe('11258999068426.25');
    calculator.updateLine(1, priced('b', '0.03'));
    expect(calculator.columns()).toBeDefined();
    expect(calculator.totals().total).toBe('11258999068426.23');
    calculator.updateLine(0, priced('a', ONE_CENT_MORE));
    expect(calculator.columns()).toBeUndefined();
    expect(calculator.line(0).subtotal).toBe(ONE_CENT_MORE);
  });
});
