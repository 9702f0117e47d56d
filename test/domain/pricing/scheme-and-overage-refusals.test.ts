import { describe, expect, test } from 'vitest';
import {
  isPricingScheme,
  PRICING_SCHEMES,
  priceOverage,
  pricingError,
} from '../../../src/domain/pricing/index.js';

describe('isPricingScheme', () => {
  test('accepts exactly the four scheme names', () => {
    for (const scheme of PRICING_SCHEMES) expect(isPricingScheme(scheme)).toBe(true);
    expect(PRICING_SCHEMES).toEqual(['per_unit', 'volume', 'tiered', 'stairstep']);
  });
  test('refuses other text and non-strings', () => {
    for (const value of ['flat', 'Tiered', '', ' per_unit', undefined, null, 1, ['tiered'], { tiered: true }])
      expect(isPricingScheme(value)).toBe(false);
  });
});

describe('pricingError', () => {
  test('carries the bracket index only when one is at fault', () => {
    const withoutIndex = pricingError('prices_missing', 'prices', 'none');
    expect(withoutIndex).toEqual({ code: 'prices_missing', status: 422, field: 'prices', message: 'none' });
    expect(Object.keys(withoutIndex)).not.toContain('index');
    expect(pricingError('price_negative', 'prices', 'negative', 2)).toEqual({
      code: 'price_negative',
      status: 422,
      field: 'prices',
      message: 'negative',
      index: 2,
    });
  });
});

describe('priceOverage refusals', () => {
  const overage = { scheme: 'per_unit', prices: [], unitPrice: '1' } as const;
  test('a negative usage or included quantity names the quantity', () => {
    expect(priceOverage('-1', '10', overage)).toEqual({
      ok: false,
      error: {
        code: 'quantity_negative',
        status: 422,
        field: 'quantity',
        message: 'usage -1 cannot be negative',
      },
    });
    expect(priceOverage('5', '-2', overage)).toEqual({
      ok: false,
      error: {
        code: 'quantity_negative',
        status: 422,
        field: 'quantity',
        message: 'included quantity -2 cannot be negative',
      },
    });
  });
  test('usage equal to the included quantity has no overage', () => {
    const result = priceOverage('10', '10', overage);
    expect(result.ok && result.value.overageQuantity).toBe('0');
    expect(result.ok && result.value.coveredQuantity).toBe('10');
  });
});
