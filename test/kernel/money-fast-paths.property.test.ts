/**
 * The character-scan fast paths of money.ts (a canonical string parses to itself; a canonical amount
 * with at most the currency's decimals formats by padding) against references built on decimal.js, on
 * every spelling around their edges: signs, leading and trailing zeros, missing digits, the limits.
 */
import { fc, test } from '@fast-check/vitest';
import { Decimal } from 'decimal.js';
import { describe, expect } from 'vitest';
import {
  formatMoney,
  minorUnits,
  moneyFormatter,
  parseDecimal,
  roundMoney,
  roundTo,
  toMinor,
} from '../../src/kernel/money.js';

const digits = (max: number) => fc.string({ unit: fc.constantFrom(...'0123456789'), maxLength: max });
/** Any plain spelling: optional sign, digits, optional point, digits (possibly none on either side). */
const spelling = fc
  .tuple(fc.constantFrom('', '', '-', '+'), digits(14), fc.boolean(), digits(6))
  .map(([sign, int, point, frac]) => `${sign}${int}${point ? '.' : ''}${frac}`);

/** parseDecimal's documented answer for a plain spelling under the given limits. */
function expectedParse(text: string, maxIntegerDigits: number, maxScale: number, allowNegative: boolean) {
  const match = /^([+-]?)(\d*)(?:\.(\d*))?$/.exec(text);
  if (match === null || text.length === 0) return { ok: false, error: 'not_a_number' };
  const [, sign = '', int = '', frac = ''] = match;
  if (int.length + frac.length === 0) return { ok: false, error: 'not_a_number' };
  const value = new Decimal(`${sign === '-' ? '-' : ''}${int || '0'}.${frac || '0'}`);
  const [whole = '', fraction = ''] = value.abs().toFixed().split('.');
  if (whole.replace(/^0+/, '').length > maxIntegerDigits) return { ok: false, error: 'too_large' };
  if (fraction.length > maxScale) return { ok: false, error: 'too_precise' };
  if (value.isZero()) return { ok: true, value: '0' };
  if (value.isNegative() && !allowNegative) return { ok: false, error: 'negative' };
  return { ok: true, value: value.toFixed() };
}

/** formatMoney's documented answer: half-up to the currency's decimals, never a negative zero. */
function expectedFormat(text: string, currency: string): string {
  const fixed = new Decimal(text).toFixed(minorUnits(currency), Decimal.ROUND_HALF_UP);
  return /^-0(\.0*)?$/.test(fixed) ? fixed.slice(1) : fixed;
}

describe('money fast paths', () => {
  test.prop([spelling.filter((text) => /\d/.test(text)), fc.integer({ min: 0, max: 8 })], { numRuns: 600 })(
    'law: roundTo of any spelling (canonical or not) is the decimal.js half-up rounding, written canonically',
    (text, places) => {
      const fixed = new Decimal(text).toDecimalPlaces(places, Decimal.ROUND_HALF_UP).toFixed();
      const expected = fixed === '-0' ? '0' : fixed;
      expect(roundTo(text, places)).toBe(expected);
      expect(roundMoney(text, 'USD')).toBe(roundTo(text, 2));
    },
  );

  test.prop([spelling, fc.integer({ min: 1, max: 13 }), fc.integer({ min: 0, max: 5 }), fc.boolean()], {
    numRuns: 600,
  })(
    'law: parseDecimal under any limits equals the decimal.js reference, canonical input being its own parse',
    (text, maxIntegerDigits, maxScale, allowNegative) => {
      const limits = { maxIntegerDigits, maxScale, allowNegative };
      expect(parseDecimal(text, limits)).toEqual(
        expectedParse(text, maxIntegerDigits, maxScale, allowNegative),
      );
    },
  );

  test.prop(
    [
      fc.oneof(
        fc.integer({ min: -20_000, max: 20_000 }),
        fc.maxSafeInteger(),
        fc.constantFrom(0, -0, Number.MAX_SAFE_INTEGER, -Number.MAX_SAFE_INTEGER, 10 ** 15, 10 ** 15 - 1),
      ),
      fc.integer({ min: 1, max: 16 }),
      fc.boolean(),
      fc.boolean(),
    ],
    { numRuns: 600 },
  )(
    'law: parseDecimal of a safe integer JSON number equals the decimal.js reference of its text',
    (value, maxIntegerDigits, allowNegative, defaults) => {
      const expected = expectedParse(String(value), maxIntegerDigits, 10, allowNegative);
      if (defaults) expect(parseDecimal(value)).toEqual(expectedParse(String(value), 15, 10, true));
      else expect(parseDecimal(value, { maxIntegerDigits, allowNegative })).toEqual(expected);
    },
  );

  test.prop([spelling.filter((text) => /\d/.test(text)), fc.constantFrom('USD', 'JPY', 'KWD', 'EUR')], {
    numRuns: 600,
  })(
    'law: formatMoney of any spelling (canonical or not) is the half-up rounding to the currency decimals',
    (text, currency) => {
      expect(formatMoney(text, currency)).toBe(expectedFormat(text, currency));
      expect(moneyFormatter(currency)(text)).toBe(expectedFormat(text, currency));
    },
  );

  test.prop([spelling.filter((text) => /\d/.test(text)), fc.constantFrom('USD', 'JPY', 'KWD', 'EUR')], {
    numRuns: 600,
  })(
    'law: toMinor of any spelling is the half-up rounding of the amount times 10^decimals',
    (text, currency) => {
      const reference = new Decimal(text)
        .times(new Decimal(10).pow(minorUnits(currency)))
        .toDecimalPlaces(0, Decimal.ROUND_HALF_UP)
        .toNumber();
      expect(toMinor(text, currency)).toBe(reference === 0 ? 0 : reference);
    },
  );

  test('toMinor at the edge of exact float64 integers', () => {
    expect(toMinor('9999999999999.99', 'USD')).toBe(999_999_999_999_999);
    expect(toMinor('-999999999999.999', 'KWD')).toBe(-999_999_999_999_999);
    // Beyond 15 digits decimal.js answers (and the number rounds as a float64 does).
    expect(toMinor('99999999999999.99', 'USD')).toBe(1e16);
    expect(toMinor('-0.00', 'USD')).toBe(0);
    expect(toMinor('-0.004', 'USD')).toBe(0);
    expect(toMinor('-0.005', 'USD')).toBe(-1);
    expect(toMinor('12.345', 'USD')).toBe(1235);
    expect(toMinor('7', 'JPY')).toBe(7);
  });
});
