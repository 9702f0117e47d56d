import { describe, expect, test } from 'vitest';
import {
  bracketFloor,
  containingBracket,
  type PriceBracket,
  validateBrackets,
} from '../../../src/domain/pricing/index.js';

const bracket = (start: string, end: string | null, unitPrice = '1'): PriceBracket => ({
  startingQuantity: start,
  endingQuantity: end,
  unitPrice,
});

const errorOf = (brackets: readonly PriceBracket[]) => {
  const result = validateBrackets(brackets);
  return result.ok ? undefined : result.error;
};

describe('validateBrackets', () => {
  test('accepts contiguous brackets from 0 or 1, the last open or bounded', () => {
    expect(validateBrackets([bracket('1', '10'), bracket('11', null)]).ok).toBe(true);
    expect(validateBrackets([bracket('0', '0'), bracket('1', '10')]).ok).toBe(true);
    expect(validateBrackets([bracket('1', '1')]).ok).toBe(true);
  });
  test('refuses an empty list', () => {
    expect(errorOf([])).toMatchObject({ code: 'prices_missing', field: 'prices', status: 422 });
  });
  test('refuses fractional or negative bounds', () => {
    expect(errorOf([bracket('1', '10.5')])).toMatchObject({ code: 'bracket_bound_invalid', index: 0 });
    expect(errorOf([bracket('-1', '10')])).toMatchObject({ code: 'bracket_bound_invalid', index: 0 });
  });
  test('refuses a first bracket that leaves the first units unpriced', () => {
    expect(errorOf([bracket('2', null)])).toMatchObject({ code: 'bracket_first_start_invalid' });
  });
  test('refuses an end before the start', () => {
    expect(errorOf([bracket('1', '10'), bracket('11', '5')])).toMatchObject({
      code: 'bracket_end_before_start',
      index: 1,
    });
  });
  test('refuses gaps, overlaps and unsorted brackets', () => {
    expect(errorOf([bracket('1', '10'), bracket('12', null)])).toMatchObject({
      code: 'brackets_not_contiguous',
    });
    expect(errorOf([bracket('1', '10'), bracket('10', null)])).toMatchObject({
      code: 'brackets_not_contiguous',
    });
    expect(errorOf([bracket('11', null), bracket('1', '10')])).toMatchObject({ index: 0 });
  });
  test('refuses an open-ended bracket before the last', () => {
    expect(errorOf([bracket('1', null), bracket('11', null)])).toMatchObject({
      code: 'bracket_open_ended_not_last',
      index: 0,
    });
  });
  test('refuses a negative price', () => {
    expect(errorOf([bracket('1', '10', '0'), bracket('11', null, '-0.01')])).toMatchObject({
      code: 'price_negative',
      index: 1,
    });
  });
});

describe('bracketFloor and containingBracket', () => {
  const brackets = [bracket('1', '100'), bracket('101', '200'), bracket('201', '300')];
  test('a bracket prices the quantity above start − 1 (never below 0)', () => {
    expect(bracketFloor(bracket('101', null))).toBe('100');
    expect(bracketFloor(bracket('0', '5'))).toBe('0');
  });
  test('the containing bracket is the first whose end reaches the quantity', () => {
    expect(containingBracket(brackets, '0')).toBe(brackets[0]);
    expect(containingBracket(brackets, '100')).toBe(brackets[0]);
    expect(containingBracket(brackets, '100.01')).toBe(brackets[1]);
    expect(containingBracket(brackets, '300')).toBe(brackets[2]);
  });
  test('past the last bracket, the last bracket contains the quantity', () => {
    expect(containingBracket(brackets, '1000')).toBe(brackets[2]);
  });
});
