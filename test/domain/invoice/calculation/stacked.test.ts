/**
 * Invoices large enough for the one-pass splits, with stacked coupons and two taxes: the results equal the
 * decimal reference, with breakouts kept and as integer columns, also when the second coupon overdraws
 * lines and its classes are split again with caps.
 */
import { describe, expect, it } from 'vitest';
import {
  calculateInvoiceReference,
  createInvoiceCalculator,
} from '../../../../src/domain/invoice/calculation/index.js';
import { PREDICTION_MIN_LINES } from '../../../../src/domain/invoice/calculation/predicted-split.js';
import type {
  CalcCoupon,
  CalcLine,
  InvoiceCalculationInput,
} from '../../../../src/domain/invoice/calculation/types.js';
import { seeded } from './split-cases.js';

/** `count` lines of every size (cents to thousands), about 70% taxable. */
function linesOf(count: number, seed: number): CalcLine[] {
  const random = seeded(seed);
  return Array.from({ length: count }, (_, index) => ({
    uid: `li_${index}`,
    quantity: String(1 + Math.floor(random() * 20)),
    unitPrice: (Math.floor(random() * 500_000) / 100).toFixed(2),
    taxable: random() < 0.7,
  }));
}

const STACKED: readonly CalcCoupon[] = [
  { code: 'LOYAL10', kind: 'percentage', percentage: '10', compoundingStrategy: 'compound' },
  { code: 'SPRING55', kind: 'percentage', percentage: '5.5', compoundingStrategy: 'full-price' },
  { code: 'FLAT1000', kind: 'amount', amount: '1000', compoundingStrategy: 'compound' },
];

/** The calculation, and its per-line columns, equal the reference. */
function expectReference(input: InvoiceCalculationInput): void {
  const reference = calculateInvoiceReference(input);
  expect(createInvoiceCalculator(input).calculation()).toEqual(reference);
  const columns = createInvoiceCalculator(input).columns();
  expect(columns).toBeDefined();
  const cents = (value: string): number => Math.round(Number(value) * 100);
  expect(Array.from(columns!.discount)).toEqual(reference.lines.map((line) => cents(line.discount)));
  expect(Array.from(columns!.tax)).toEqual(reference.lines.map((line) => cents(line.tax)));
  expect(Array.from(columns!.total)).toEqual(reference.lines.map((line) => cents(line.total)));
}

describe('large invoices with stacked coupons', () => {
  const count = PREDICTION_MIN_LINES + 1000;

  it('three stacked coupons and two taxes equal the reference (breakouts kept and not)', () => {
    expectReference({
      currency: 'USD',
      lines: linesOf(count, 1),
      coupons: STACKED,
      taxes: [
        { name: 'State', percentage: '8.875' },
        { name: 'City', percentage: '2.5' },
      ],
    });
  });

  it('a second coupon that would overdraw one-cent lines is split again with caps, as the reference does', () => {
    // Half of each one-cent line, twice: every remainder ties, so the second coupon gives its units to the
    // lines the first one took (the earliest), which would go below zero. Even line counts per class keep both coupons
    // uncapped at invoice level.
    const input: InvoiceCalculationInput = {
      currency: 'USD',
      lines: Array.from({ length: count }, (_, index) => ({
        uid: `li_${index}`,
        quantity: '1',
        unitPrice: '0.01',
        taxable: index % 4 < 2,
      })),
      coupons: [
        { code: 'HALF', kind: 'percentage', percentage: '50', compoundingStrategy: 'full-price' },
        { code: 'OTHERHALF', kind: 'percentage', percentage: '50', compoundingStrategy: 'full-price' },
      ],
      taxes: [
        { name: 'State', percentage: '8.875' },
        { name: 'City', percentage: '2.5' },
      ],
    };
    expectReference(input);
    const lines = createInvoiceCalculator(input).calculation().lines;
    expect(lines.every((line) => Number(line.total) >= 0)).toBe(true);
  });
});
