import { describe, expect, test } from 'vitest';
import { type PriceBracket, priceQuantity } from '../../../src/domain/pricing/index.js';

const bracket = (start: string, end: string | null, unitPrice: string): PriceBracket => ({
  startingQuantity: start,
  endingQuantity: end,
  unitPrice,
});

/** The documented tiered example: an hourly instance, the first 100 hours free. */
const freeThenHalf = [bracket('1', '100', '0'), bracket('101', null, '0.5')];
/** Seats at 100 each for 1–5, 90 each for 6–10. */
const seats = [bracket('1', '5', '100'), bracket('6', '10', '90')];
/** 0–50 customers free, 51–500 for 49. */
const customers = [bracket('0', '50', '0'), bracket('51', '500', '49')];

const costOf = (...args: Parameters<typeof priceQuantity>) => {
  const result = priceQuantity(...args);
  if (!result.ok) throw new Error(`expected a cost, got ${result.error.code}`);
  return result.value;
};

describe('per_unit', () => {
  test('quantity × the explicit unit price, which wins over brackets', () => {
    expect(costOf('per_unit', '3', [], '9.99')).toMatchObject({
      amount: '29.97',
      unitPrice: '9.99',
      tiered: false,
    });
    expect(costOf('per_unit', '3', seats, '2').amount).toBe('6');
  });
  test('uses the single bracket when no unit price is given', () => {
    expect(costOf('per_unit', '4', [bracket('1', null, '2.5')]).amount).toBe('10');
  });
  test('fractional quantities are priced exactly', () => {
    expect(costOf('per_unit', '0.333', [], '3').amount).toBe('0.999');
  });
  test('zero units cost 0 and show no breakdown', () => {
    expect(costOf('per_unit', '0', [], '5')).toEqual({
      amount: '0',
      unitPrice: '5',
      tiered: false,
      breakdown: [],
    });
  });
  test('needs exactly one price', () => {
    const none = priceQuantity('per_unit', '1', []);
    const many = priceQuantity('per_unit', '1', seats);
    expect(none.ok ? undefined : none.error).toMatchObject({ code: 'prices_missing', field: 'unit_price' });
    expect(many.ok ? undefined : many.error).toMatchObject({
      code: 'per_unit_price_ambiguous',
      field: 'prices',
    });
  });
  test('refuses a negative unit price', () => {
    const result = priceQuantity('per_unit', '1', [], '-1');
    expect(result.ok ? undefined : result.error).toMatchObject({ code: 'price_negative', status: 422 });
  });
});

describe('tiered', () => {
  test('the documented example: 194 units, 1–100 at 0 and 101+ at 0.5, cost 47', () => {
    const cost = costOf('tiered', '194', freeThenHalf);
    expect(cost.amount).toBe('47');
    expect(cost.tiered).toBe(true);
    expect(cost.unitPrice.startsWith('0.24226804')).toBe(true);
    expect(cost.breakdown).toEqual([
      { startingQuantity: '1', endingQuantity: '100', quantity: '100', unitPrice: '0', amount: '0' },
      { startingQuantity: '101', endingQuantity: null, quantity: '94', unitPrice: '0.5', amount: '47' },
    ]);
  });
  test('a quantity inside the first tier uses only that tier', () => {
    expect(costOf('tiered', '3', seats)).toMatchObject({ amount: '300', unitPrice: '100' });
  });
  test('a quantity across tiers shows the blended unit price to 8 decimal places, the amount exact', () => {
    expect(costOf('tiered', '7', seats)).toMatchObject({ amount: '680', unitPrice: '97.14285714' });
  });
  test('fractional quantities split at the bracket boundary', () => {
    expect(costOf('tiered', '100.5', freeThenHalf).amount).toBe('0.25');
    expect(costOf('tiered', '5.5', seats).amount).toBe('545');
  });
  test('units beyond the last bounded bracket are priced at its price', () => {
    expect(costOf('tiered', '12', seats).amount).toBe(String(5 * 100 + 7 * 90));
  });
  test('zero units cost 0; the blended price is then the first tier price', () => {
    expect(costOf('tiered', '0', seats)).toEqual({
      amount: '0',
      unitPrice: '100',
      tiered: true,
      breakdown: [],
    });
  });
  test('brackets starting at 0 count units from 1', () => {
    expect(costOf('tiered', '60', customers).amount).toBe(String(10 * 49));
  });
});

describe('volume', () => {
  test('every unit at the price of the bracket holding the quantity', () => {
    expect(costOf('volume', '5', seats)).toMatchObject({ amount: '500', unitPrice: '100' });
    expect(costOf('volume', '7', seats)).toMatchObject({ amount: '630', unitPrice: '90' });
    expect(costOf('volume', '194', freeThenHalf).amount).toBe('97');
  });
  test('a fractional quantity above a bracket end falls in the next bracket', () => {
    expect(costOf('volume', '5.5', seats)).toMatchObject({ amount: '495', unitPrice: '90' });
  });
  test('beyond the last bounded bracket the last price applies', () => {
    expect(costOf('volume', '20', seats).amount).toBe('1800');
  });
  test('zero units cost 0', () => {
    expect(costOf('volume', '0', seats)).toMatchObject({ amount: '0', unitPrice: '100', breakdown: [] });
  });
});

describe('stairstep', () => {
  test('the bracket price once, as a flat amount', () => {
    expect(costOf('stairstep', '30', customers)).toMatchObject({ amount: '0', unitPrice: '0' });
    expect(costOf('stairstep', '60', customers)).toMatchObject({ amount: '49', unitPrice: '49' });
    expect(costOf('stairstep', '500', customers).amount).toBe('49');
    expect(costOf('stairstep', '3', seats).amount).toBe('100');
  });
  test('beyond the last bounded bracket the last price applies', () => {
    expect(costOf('stairstep', '501', customers).amount).toBe('49');
  });
  test('zero units cost 0 even when the first step has a price', () => {
    expect(costOf('stairstep', '0', seats)).toEqual({
      amount: '0',
      unitPrice: '0',
      tiered: false,
      breakdown: [],
    });
  });
});

describe('errors are values', () => {
  test('a negative quantity', () => {
    const result = priceQuantity('tiered', '-1', seats);
    expect(result.ok ? undefined : result.error).toEqual({
      code: 'quantity_negative',
      status: 422,
      field: 'quantity',
      message: 'quantity -1 cannot be negative',
    });
  });
  test('brackets are validated for every bracket scheme', () => {
    for (const scheme of ['tiered', 'volume', 'stairstep'] as const) {
      const result = priceQuantity(scheme, '1', [bracket('1', '5', '1'), bracket('7', null, '1')]);
      expect(result.ok ? undefined : result.error).toMatchObject({
        code: 'brackets_not_contiguous',
        index: 1,
      });
    }
  });
});
