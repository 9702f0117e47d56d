/**
 * The decimal reference on its own: it is the oracle of the differential tests, so its own rules are
 * pinned here by hand-checked examples rather than only by agreement with the fast path.
 */
import { describe, expect, it } from 'vitest';
import { calculateInvoiceReference } from '../../../../src/domain/invoice/calculation/index.js';
import { largestRemainder, waterFill } from '../../../../src/domain/invoice/calculation/reference-split.js';
import { InvariantError } from '../../../../src/kernel/invariant.js';

describe('largestRemainder (reference)', () => {
  it('gives the units left to the largest remainders, ties to the earlier row', () => {
    expect(largestRemainder('10', '10', '3', ['1', '1', '1'])).toEqual(['4', '3', '3']);
    expect(largestRemainder('3', '3', '7', ['1', '1', '1', '1', '1', '1', '1'])).toEqual([
      '1',
      '1',
      '1',
      '0',
      '0',
      '0',
      '0',
    ]);
    // Floors 0, 1, 0, 1, 0 with remainders 16, 2, 16, 2, 0 (of 18): the sixteens first, the earlier one on a tie.
    expect(largestRemainder('4', '4', '18', ['4', '5', '4', '5', '0'])).toEqual(['1', '1', '1', '1', '0']);
    expect(largestRemainder('3', '4', '18', ['4', '5', '4', '5', '0'])).toEqual(['1', '1', '0', '1', '0']);
  });

  it('floors exact quotients exactly, however large', () => {
    const big = '123456789012345678901234567890';
    expect(largestRemainder(big, big, '1', ['1'])).toEqual([big]);
    expect(largestRemainder('7', '7', '7', ['1', '6'])).toEqual(['1', '6']);
    expect(largestRemainder('0', '0', '5', ['2', '3'])).toEqual(['0', '0']);
  });

  it('splits nothing over zero weights, and refuses a target it cannot reach', () => {
    expect(largestRemainder('0', '5', '0', ['0', '0'])).toEqual(['0', '0']);
    expect(() => largestRemainder('1', '5', '0', ['0'])).toThrow('nothing to split over');
    expect(() => largestRemainder('3', '1', '2', ['1'])).toThrow(
      'largest remainder needs 0 to n extra units',
    );
    expect(() => largestRemainder('0', '1', '1', ['1'])).toThrow(InvariantError);
  });
});

describe('waterFill (reference)', () => {
  it('caps rows whose share exceeds what they have, in rounds, and splits the rest', () => {
    expect(waterFill('10', ['1', '1', '1'], ['1', '9', '9'])).toEqual({
      amounts: ['1', '5', '4'],
      capped: [true, false, false],
      numerator: '9',
      denominator: '2',
    });
    // Capping the first row raises the others' shares past the second cap: a second round.
    expect(waterFill('12', ['1', '1', '1'], ['2', '4', '9']).amounts).toEqual(['2', '4', '6']);
    expect(waterFill('0', ['0', '0'], ['0', '0']).amounts).toEqual(['0', '0']);
  });
});

describe('calculateInvoiceReference', () => {
  const line = (quantity: string, unitPrice: string) => ({ uid: 'a', quantity, unitPrice, taxable: true });

  it('refuses negative amounts and coupons without their value, naming them', () => {
    const base = { currency: 'USD', coupons: [], taxes: [] };
    expect(() => calculateInvoiceReference({ ...base, lines: [line('-1', '2')] })).toThrow(
      'negative amount -1',
    );
    expect(() =>
      calculateInvoiceReference({
        ...base,
        lines: [line('1', '2')],
        coupons: [{ code: 'HALF', kind: 'percentage', compoundingStrategy: 'compound' }],
      }),
    ).toThrow('percentage coupon HALF has no percentage');
  });

  it('keeps lines of different coupons and taxability in separate classes', () => {
    // One unit to give between two classes: it goes to the class with the larger remainder.
    const result = calculateInvoiceReference({
      currency: 'USD',
      lines: [
        { uid: 'a', quantity: '1', unitPrice: '0.01', taxable: true },
        { uid: 'b', quantity: '1', unitPrice: '0.03', taxable: false },
      ],
      coupons: [{ code: 'HALF', kind: 'percentage', percentage: '50', compoundingStrategy: 'compound' }],
      taxes: [],
    });
    expect(result.discount).toBe('0.02');
    expect(result.lines.map((calculated) => calculated.discount)).toEqual(['0', '0.02']);
  });
});
