import { describe, expect, test } from 'vitest';
import {
  containingBracket,
  type PriceBracket,
  priceQuantity,
  validateBrackets,
} from '../../../src/domain/pricing/index.js';

const bracket = (start: string, end: string | null, unitPrice = '1'): PriceBracket => ({
  startingQuantity: start,
  endingQuantity: end,
  unitPrice,
});

const bracketError = (brackets: readonly PriceBracket[]) => {
  const result = validateBrackets(brackets);
  return result.ok ? undefined : result.error;
};

const priceError = (...args: Parameters<typeof priceQuantity>) => {
  const result = priceQuantity(...args);
  return result.ok ? undefined : result.error;
};

const costOf = (...args: Parameters<typeof priceQuantity>) => {
  const result = priceQuantity(...args);
  if (!result.ok) throw new Error(`expected a cost, got ${result.error.code}`);
  return result.value;
};

describe('bracket refusals say what is wrong', () => {
  test.each([
    [[], 'prices_missing', 'at least one price bracket is required'],
    [[bracket('1', '2.5')], 'bracket_bound_invalid', 'bracket quantities must be whole numbers of 0 or more'],
    [[bracket('10', '5')], 'bracket_end_before_start', 'ending quantity 5 is below starting quantity 10'],
    [
      [bracket('1', null), bracket('2', null)],
      'bracket_open_ended_not_last',
      'only the last bracket may have no ending quantity',
    ],
    [[bracket('2', '5')], 'bracket_first_start_invalid', 'the first bracket must start at quantity 0 or 1'],
    [
      [bracket('1', '5'), bracket('7', null)],
      'brackets_not_contiguous',
      'a bracket must start right after the previous one ends (expected 6)',
    ],
    [[bracket('1', null, '-0.01')], 'price_negative', 'a unit price cannot be negative'],
  ] as const)('%j: %s', (brackets, code, message) => {
    expect(bracketError(brackets)).toMatchObject({ code, field: 'prices', message, status: 422 });
  });

  test('containingBracket of no bracket is a broken invariant', () => {
    expect(() => containingBracket([], '1')).toThrow('containingBracket needs at least one bracket');
  });
});

describe('per_unit refusals', () => {
  test('no unit price and no bracket', () => {
    expect(priceError('per_unit', '1', [])).toMatchObject({
      code: 'prices_missing',
      field: 'unit_price',
      message: 'a per_unit price point needs a unit price',
    });
  });
  test('several brackets instead of one price', () => {
    expect(priceError('per_unit', '1', [bracket('1', '5'), bracket('6', null)])).toMatchObject({
      code: 'per_unit_price_ambiguous',
      field: 'prices',
      message: 'a per_unit price point takes one price, not brackets',
    });
  });
  test('a negative unit price', () => {
    expect(priceError('per_unit', '1', [], '-1')).toMatchObject({
      code: 'price_negative',
      field: 'unit_price',
      message: 'a unit price cannot be negative',
    });
  });
});

describe('the breakdown lists the bracket each charge came from', () => {
  const prices = [bracket('1', '100', '0'), bracket('101', null, '0.5')];

  test('per_unit: one open-ended charge from quantity 1 at the explicit price', () => {
    expect(costOf('per_unit', '3', [], '9.99').breakdown).toEqual([
      { startingQuantity: '1', endingQuantity: null, quantity: '3', unitPrice: '9.99', amount: '29.97' },
    ]);
    expect(costOf('per_unit', '0', [], '9.99').breakdown).toEqual([]);
  });

  test('volume: the whole quantity at the containing bracket, not tiered', () => {
    expect(costOf('volume', '194', prices)).toEqual({
      amount: '97',
      unitPrice: '0.5',
      tiered: false,
      breakdown: [
        { startingQuantity: '101', endingQuantity: null, quantity: '194', unitPrice: '0.5', amount: '97' },
      ],
    });
    expect(costOf('volume', '0', prices).breakdown).toEqual([]);
  });

  test('stairstep: the containing bracket once, not tiered', () => {
    const customers = [bracket('0', '50', '0'), bracket('51', '500', '49')];
    expect(costOf('stairstep', '60', customers)).toEqual({
      amount: '49',
      unitPrice: '49',
      tiered: false,
      breakdown: [
        { startingQuantity: '51', endingQuantity: '500', quantity: '60', unitPrice: '49', amount: '49' },
      ],
    });
  });
});
