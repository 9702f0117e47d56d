import { describe, expect, test } from 'vitest';
import { type PriceBracket, priceOverage } from '../../../src/domain/pricing/index.js';

const bracket = (start: string, end: string | null, unitPrice: string): PriceBracket => ({
  startingQuantity: start,
  endingQuantity: end,
  unitPrice,
});
const tieredOverage = {
  scheme: 'tiered',
  prices: [bracket('1', '20', '1'), bracket('21', null, '0.5')],
} as const;

describe('priceOverage', () => {
  test('prices only the units beyond the included quantity, counting overage units from 1', () => {
    const result = priceOverage('130', '100', tieredOverage);
    expect(result.ok && result.value).toMatchObject({
      coveredQuantity: '100',
      overageQuantity: '30',
      cost: { amount: '25', tiered: true },
    });
  });
  test('usage within the included quantity costs nothing', () => {
    const result = priceOverage('80', '100', tieredOverage);
    expect(result.ok && result.value).toMatchObject({
      coveredQuantity: '80',
      overageQuantity: '0',
      cost: { amount: '0' },
    });
  });
  test('a per_unit overage may be a single unit price', () => {
    const result = priceOverage('12.5', '10', { scheme: 'per_unit', prices: [], unitPrice: '2' });
    expect(result.ok && result.value.cost.amount).toBe('5');
  });
  test('negative usage or included quantity and broken overage brackets are errors', () => {
    expect(priceOverage('-1', '0', tieredOverage)).toMatchObject({
      ok: false,
      error: { code: 'quantity_negative' },
    });
    expect(priceOverage('1', '-1', tieredOverage)).toMatchObject({
      ok: false,
      error: { code: 'quantity_negative' },
    });
    expect(priceOverage('1', '5', { scheme: 'volume', prices: [] })).toMatchObject({
      ok: false,
      error: { code: 'prices_missing' },
    });
  });
});
