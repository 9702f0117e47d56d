import { describe, expect, test } from 'vitest';
import { perUnitPrice } from '../../../src/domain/catalog/component.js';
import {
  defaultUnitName,
  fillStarts,
  isRecurringKind,
  normalizeTaxCode,
  pricingMessage,
  resolvePriceList,
  SEGMENT_BULK_CREATE_LIMIT,
  SEGMENT_BULK_UPDATE_LIMIT,
  segmentableProblem,
  segmentKey,
  segmentValueMatches,
  segmentValuesProblem,
  taxCodeProblem,
} from '../../../src/domain/catalog/component-rules.js';
import { pricingError } from '../../../src/domain/pricing/types.js';

const bracket = (startingQuantity: string, endingQuantity: string | null, unitPrice: string) => ({
  startingQuantity,
  endingQuantity,
  unitPrice,
});

describe('resolvePriceList', () => {
  test('per_unit with a unit price keeps one open bracket from 1 at that price', () => {
    expect(resolvePriceList('per_unit', undefined, '2.5')).toEqual({
      ok: true,
      value: [bracket('1', null, '2.5')],
    });
  });
  test('per_unit prefers the unit price over brackets', () => {
    const result = resolvePriceList('per_unit', [bracket('1', '5', '9'), bracket('6', null, '8')], '3');
    expect(result).toEqual({ ok: true, value: [bracket('1', null, '3')] });
  });
  test('per_unit without a unit price takes the only bracket of prices', () => {
    expect(resolvePriceList('per_unit', [bracket('1', null, '4')], undefined)).toEqual({
      ok: true,
      value: [bracket('1', null, '4')],
    });
  });
  test('per_unit with neither a unit price nor prices is prices_missing on unit_price', () => {
    for (const prices of [undefined, []]) {
      expect(resolvePriceList('per_unit', prices, undefined)).toEqual({
        ok: false,
        error: {
          code: 'prices_missing',
          status: 422,
          field: 'unit_price',
          message: 'a per_unit price needs a unit price',
        },
      });
    }
  });
  test('per_unit with several brackets is ambiguous', () => {
    expect(
      resolvePriceList('per_unit', [bracket('1', '5', '1'), bracket('6', null, '2')], undefined),
    ).toEqual({
      ok: false,
      error: {
        code: 'per_unit_price_ambiguous',
        status: 422,
        field: 'prices',
        message: 'a per_unit price takes one price, not brackets',
      },
    });
  });
  test('per_unit still validates its single bracket', () => {
    const result = resolvePriceList('per_unit', [bracket('1', null, '-1')], undefined);
    expect(result.ok ? undefined : result.error.code).toBe('price_negative');
    const negativeUnit = resolvePriceList('per_unit', undefined, '-1');
    expect(negativeUnit.ok ? undefined : negativeUnit.error.code).toBe('price_negative');
  });
  test('the bracket schemes validate the prices as sent', () => {
    const tiers = [bracket('1', '10', '2'), bracket('11', null, '1')];
    for (const scheme of ['volume', 'tiered', 'stairstep'] as const) {
      expect(resolvePriceList(scheme, tiers, '7')).toEqual({ ok: true, value: tiers });
      const missing = resolvePriceList(scheme, undefined, undefined);
      expect(missing.ok ? undefined : missing.error).toMatchObject({
        code: 'prices_missing',
        field: 'prices',
      });
    }
  });
});

describe('fillStarts', () => {
  test('the first bracket starts at 1 and each later one right after the previous end', () => {
    expect(
      fillStarts([
        { endingQuantity: '10', unitPrice: '1' },
        { endingQuantity: '25', unitPrice: '0.75' },
        { endingQuantity: null, unitPrice: '0.5' },
      ]),
    ).toEqual([bracket('1', '10', '1'), bracket('11', '25', '0.75'), bracket('26', null, '0.5')]);
  });
  test('a given start is kept, and the next bracket follows the given end', () => {
    expect(
      fillStarts([
        { startingQuantity: '0', endingQuantity: '4', unitPrice: '3' },
        { startingQuantity: undefined, endingQuantity: null, unitPrice: '2' },
      ]),
    ).toEqual([bracket('0', '4', '3'), bracket('5', null, '2')]);
  });
  test('a bracket after an open-ended one starts at 0, which validation then refuses', () => {
    expect(
      fillStarts([
        { endingQuantity: null, unitPrice: '1' },
        { endingQuantity: '3', unitPrice: '2' },
      ]),
    ).toEqual([bracket('1', null, '1'), bracket('0', '3', '2')]);
  });
  test('no prices give no brackets', () => {
    expect(fillStarts([])).toEqual([]);
  });
});

describe('tax codes', () => {
  test('normalizeTaxCode trims, and blank or absent becomes null', () => {
    expect(normalizeTaxCode('  A1 ')).toBe('A1');
    expect(normalizeTaxCode('   ')).toBeNull();
    expect(normalizeTaxCode('')).toBeNull();
    expect(normalizeTaxCode(null)).toBeNull();
    expect(normalizeTaxCode(undefined)).toBeNull();
  });
  test('taxCodeProblem: only a taxable component under the new catalog experience needs a code', () => {
    expect(taxCodeProblem(true, true, null)).toEqual({
      code: 'tax_code_blank',
      status: 422,
      message: 'Tax code: cannot be blank for a taxable component.',
      field: 'tax_code',
    });
    expect(taxCodeProblem(true, true, '  ')?.code).toBe('tax_code_blank');
    expect(taxCodeProblem(true, true, 'D0000000')).toBeUndefined();
    expect(taxCodeProblem(false, true, null)).toBeUndefined();
    expect(taxCodeProblem(true, false, null)).toBeUndefined();
  });
});

describe('component kinds', () => {
  test('only on/off components get a default unit name', () => {
    expect(defaultUnitName('on_off_component')).toBe('on/off');
    expect(defaultUnitName('quantity_based_component')).toBeUndefined();
    expect(defaultUnitName('metered_component')).toBeUndefined();
  });
  test('quantity-based and on/off allocations recur; usage and prepaid kinds do not', () => {
    expect(isRecurringKind('quantity_based_component')).toBe(true);
    expect(isRecurringKind('on_off_component')).toBe(true);
    expect(isRecurringKind('metered_component')).toBe(false);
    expect(isRecurringKind('event_based_component')).toBe(false);
    expect(isRecurringKind('prepaid_usage_component')).toBe(false);
  });
  test('only event-based components hold segments', () => {
    expect(segmentableProblem('event_based_component')).toBeUndefined();
    expect(segmentableProblem('metered_component')).toEqual({
      code: 'not_segmentable',
      status: 422,
      message: 'Segments belong to an event-based component whose metric segments its events.',
      field: 'price_point',
    });
  });
  test('perUnitPrice reads the price of a per_unit price point only', () => {
    expect(
      perUnitPrice({ pricingScheme: 'per_unit', prices: [{ id: 1, ...bracket('1', null, '1.5') }] }),
    ).toBe('1.5');
    expect(perUnitPrice({ pricingScheme: 'per_unit', prices: [] })).toBeNull();
    expect(
      perUnitPrice({ pricingScheme: 'volume', prices: [{ id: 1, ...bracket('1', null, '1.5') }] }),
    ).toBeNull();
  });
});

describe('segment values', () => {
  test('values filled from the first slot are accepted', () => {
    expect(segmentValuesProblem(['EU', null, null, null])).toBeUndefined();
    expect(segmentValuesProblem(['EU', 1, true, 'x'])).toBeUndefined();
    expect(segmentValuesProblem([0, false, null, null])).toBeUndefined();
  });
  test('the first slot is required', () => {
    expect(segmentValuesProblem([null, null, null, null])).toEqual({
      field: 'segment_property_1_value',
      message: 'is required',
    });
  });
  test('a gap before a given value names the empty slot and the later one', () => {
    expect(segmentValuesProblem([null, 'x', null, null])).toEqual({
      field: 'segment_property_1_value',
      message: 'is required when segment_property_2_value is given',
    });
    expect(segmentValuesProblem(['a', null, null, 4])).toEqual({
      field: 'segment_property_2_value',
      message: 'is required when segment_property_4_value is given',
    });
    expect(segmentValuesProblem(['a', 'b', null, 4])).toEqual({
      field: 'segment_property_3_value',
      message: 'is required when segment_property_4_value is given',
    });
  });
  test('blank text is refused in any slot', () => {
    expect(segmentValuesProblem(['  ', null, null, null])).toEqual({
      field: 'segment_property_1_value',
      message: 'cannot be blank',
    });
    expect(segmentValuesProblem(['a', 'b', '', null])).toEqual({
      field: 'segment_property_3_value',
      message: 'cannot be blank',
    });
  });
  test('segmentKey tells values of different types apart', () => {
    expect(segmentKey(7, ['EU', 1, null, null])).toBe('7/["EU",1,null,null]');
    expect(segmentKey(7, ['1', null, null, null])).not.toBe(segmentKey(7, [1, null, null, null]));
    expect(segmentKey(7, [true, null, null, null])).not.toBe(segmentKey(8, [true, null, null, null]));
  });
  test('segmentValueMatches compares by text form, and an empty slot matches nothing', () => {
    expect(segmentValueMatches(true, 'true')).toBe(true);
    expect(segmentValueMatches(1.5, '1.5')).toBe(true);
    expect(segmentValueMatches('EU', 'EU')).toBe(true);
    expect(segmentValueMatches('EU', 'US')).toBe(false);
    expect(segmentValueMatches(null, 'null')).toBe(false);
  });
  test('bulk limits follow SPEC 8', () => {
    expect(SEGMENT_BULK_CREATE_LIMIT).toBe(2000);
    expect(SEGMENT_BULK_UPDATE_LIMIT).toBe(1000);
  });
});

describe('pricingMessage', () => {
  test('names the bracket position counted from 1 when a bracket is at fault', () => {
    expect(
      pricingMessage(pricingError('price_negative', 'prices', 'a unit price cannot be negative', 1)),
    ).toBe('a unit price cannot be negative (price 2)');
    expect(
      pricingMessage(pricingError('price_negative', 'prices', 'a unit price cannot be negative', 0)),
    ).toBe('a unit price cannot be negative (price 1)');
    expect(pricingMessage(pricingError('prices_missing', 'prices', 'at least one price'))).toBe(
      'at least one price',
    );
  });
});
