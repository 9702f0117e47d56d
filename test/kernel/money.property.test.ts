/**
 * Laws of kernel/money.ts, checked against a reference written with BigInt on scaled integers
 * (`units × 10^-scale`), which shares no code with decimal.js.
 */

import { fc, test } from '@fast-check/vitest';
import { describe, expect } from 'vitest';
import {
  add,
  allocate,
  formatMoney,
  fromMinor,
  minorUnits,
  mul,
  parseDecimal,
  roundMoney,
  sub,
  toMinor,
} from '../../src/kernel/money.js';

interface Scaled {
  readonly units: bigint;
  readonly scale: number;
}

const pow10 = (n: number): bigint => 10n ** BigInt(n);
const absBig = (n: bigint): bigint => (n < 0n ? -n : n);

/** Reads a plain decimal spelling (sign, digits, optional point, optional exponent). */
function scaledOf(text: string): Scaled {
  const [mantissa = '', exponent = '0'] = text.toLowerCase().split('e');
  const negative = mantissa.startsWith('-');
  const [int = '', frac = ''] = mantissa.replace(/^[+-]/, '').split('.');
  const units = BigInt(`0${int}${frac}`);
  return { units: negative ? -units : units, scale: frac.length - Number(exponent) };
}

/** The canonical string of `units × 10^-scale`: no exponent, no trailing zeros, never `-0`. */
function decOf(units: bigint, scale: number): string {
  if (scale < 0) return decOf(units * pow10(-scale), 0);
  const digits = absBig(units)
    .toString()
    .padStart(scale + 1, '0');
  const int = digits.slice(0, digits.length - scale);
  const frac = digits.slice(digits.length - scale).replace(/0+$/, '');
  const body = frac.length > 0 ? `${int}.${frac}` : int;
  return units < 0n && body !== '0' ? `-${body}` : body;
}

/** `units ÷ 10^drop`, rounded half away from zero. */
function roundUnits(units: bigint, drop: number): bigint {
  if (drop <= 0) return units * pow10(-drop);
  const divisor = pow10(drop);
  const magnitude = absBig(units);
  const rounded = magnitude / divisor + ((magnitude % divisor) * 2n >= divisor ? 1n : 0n);
  return units < 0n ? -rounded : rounded;
}

const aligned = (value: Scaled, scale: number): bigint => value.units * pow10(scale - value.scale);
const CANONICAL = /^-?(0|[1-9]\d*)(\.\d*[1-9])?$/;
const currencies = fc.constantFrom('USD', 'JPY', 'KWD');

/** Decimals with at most `maxInt` integer digits and `maxScale` decimals, biased to small values. */
const decimal = (maxInt = 15, maxScale = 10, nonNegative = false): fc.Arbitrary<string> =>
  fc
    .integer({ min: 0, max: maxScale })
    .chain((scale) =>
      fc
        .bigInt({ min: nonNegative ? 0n : 1n - pow10(maxInt + scale), max: pow10(maxInt + scale) - 1n })
        .map((units) => decOf(units, scale)),
    );

/** Values that sit exactly halfway between two minor units of the currency. */
const tie = (currency: string): fc.Arbitrary<string> =>
  fc
    .bigInt({ min: -(10n ** 14n), max: 10n ** 14n })
    .map((n) => decOf(n * 10n + (n < 0n ? -5n : 5n), minorUnits(currency) + 1));

/** Expected result of parseDecimal with default limits, from the reference. */
function expectedParse(text: string): { ok: true; value: string } | { ok: false; error: string } {
  if (text.length > 64) return { ok: false, error: 'too_large' };
  const { units, scale } = scaledOf(text);
  const canonical = decOf(units, scale);
  const [int = '', frac = ''] = canonical.replace('-', '').split('.');
  if (int.replace(/^0+/, '').length > 15) return { ok: false, error: 'too_large' };
  if (frac.length > 10) return { ok: false, error: 'too_precise' };
  return { ok: true, value: canonical };
}

describe('money laws', () => {
  test.prop([decimal(), decimal()], { numRuns: 500 })(
    'law: add and sub are exact vs a BigInt reference',
    (a, b) => {
      const x = scaledOf(a);
      const y = scaledOf(b);
      const scale = Math.max(x.scale, y.scale);
      expect(add(a, b)).toBe(decOf(aligned(x, scale) + aligned(y, scale), scale));
      expect(sub(a, b)).toBe(decOf(aligned(x, scale) - aligned(y, scale), scale));
    },
  );

  test.prop([decimal(9, 6), decimal(9, 6)], { numRuns: 500 })(
    'law: mul is exact vs a BigInt reference when the product fits 40 significant digits',
    (a, b) => {
      const x = scaledOf(a);
      const y = scaledOf(b);
      expect(mul(a, b)).toBe(decOf(x.units * y.units, x.scale + y.scale));
    },
  );

  test.prop([decimal(), decimal()], { numRuns: 500 })(
    'law: mul of any parsed decimals equals the BigInt product rounded half-up to 40 significant digits',
    (a, b) => {
      const x = scaledOf(a);
      const y = scaledOf(b);
      const product = x.units * y.units;
      const excess = Math.max(0, absBig(product).toString().length - 40);
      expect(mul(a, b)).toBe(decOf(roundUnits(product, excess), x.scale + y.scale - excess));
    },
  );

  test.prop([currencies.chain((c) => fc.tuple(fc.constant(c), fc.oneof(decimal(), tie(c))))], {
    numRuns: 500,
  })(
    'law: rounding is half-up (away from zero on ties) at the minor unit, vs a BigInt reference',
    ([currency, value]) => {
      const { units, scale } = scaledOf(value);
      const places = minorUnits(currency);
      const expected = decOf(roundUnits(units, scale - places), places);
      expect(roundMoney(value, currency)).toBe(expected);
      const formatted = formatMoney(value, currency);
      expect(formatted).toMatch(places === 0 ? /^-?\d+$/ : new RegExp(`^-?\\d+\\.\\d{${places}}$`));
      expect(formatted.startsWith('-')).toBe(expected.startsWith('-'));
      expect(decOf(scaledOf(formatted).units, scaledOf(formatted).scale)).toBe(expected);
    },
  );

  test.prop([decimal(12, 6), currencies])(
    'law: parse(format(x)) round trips to the rounded amount',
    (value, currency) => {
      expect(parseDecimal(value)).toEqual({ ok: true, value });
      expect(parseDecimal(formatMoney(value, currency))).toEqual({
        ok: true,
        value: roundMoney(value, currency),
      });
      expect(fromMinor(toMinor(value, currency), currency)).toBe(roundMoney(value, currency));
    },
  );
});

describe('allocate laws', () => {
  const weight = fc.oneof(
    { weight: 1, arbitrary: fc.constant('0') },
    { weight: 4, arbitrary: decimal(6, 4, true) },
  );
  const weights = fc.oneof(
    { weight: 5, arbitrary: fc.array(weight, { minLength: 1, maxLength: 40 }) },
    { weight: 1, arbitrary: fc.array(fc.constant('0'), { minLength: 1, maxLength: 5 }) },
  );
  const cases = fc.tuple(decimal(12, 5), weights, currencies);

  /** Splits in minor units: the exact shares `T·w/S` as [numerator per part, common denominator]. */
  function exactShares(total: string, ws: readonly string[], currency: string) {
    const places = minorUnits(currency);
    const t = scaledOf(total);
    const totalMinor = roundUnits(t.units, t.scale - places);
    const scale = Math.max(...ws.map((w) => scaledOf(w).scale));
    let units = ws.map((w) => aligned(scaledOf(w), scale));
    let denominator = units.reduce((a, b) => a + b, 0n);
    if (denominator === 0n) {
      units = ws.map(() => 1n);
      denominator = BigInt(ws.length);
    }
    return { places, totalMinor, numerators: units.map((u) => totalMinor * u), denominator };
  }

  const minorOf = (part: string, places: number): bigint => aligned(scaledOf(part), places);

  test.prop([cases], { numRuns: 400 })(
    'law: allocate parts add up exactly to the total rounded to the minor unit',
    ([total, ws, currency]) => {
      const parts = allocate(total, ws, currency);
      const { places, totalMinor } = exactShares(total, ws, currency);
      expect(parts).toHaveLength(ws.length);
      for (const part of parts) {
        expect(part).toMatch(CANONICAL);
        expect(scaledOf(part).scale).toBeLessThanOrEqual(places);
      }
      expect(parts.reduce((acc, part) => acc + minorOf(part, places), 0n)).toBe(totalMinor);
    },
  );

  test.prop([cases], { numRuns: 400 })(
    'law: each allocated part is within one minor unit of its exact share, with the sign of the total',
    ([total, ws, currency]) => {
      const parts = allocate(total, ws, currency);
      const { places, totalMinor, numerators, denominator } = exactShares(total, ws, currency);
      parts.forEach((part, i) => {
        const minor = minorOf(part, places);
        // |part − T·w/S| < 1  ⇔  |part·S − T·w| < S
        expect(absBig(minor * denominator - (numerators[i] ?? 0n)) < denominator).toBe(true);
        if (totalMinor >= 0n) expect(minor >= 0n).toBe(true);
        else expect(minor <= 0n).toBe(true);
      });
    },
  );

  test.prop([cases], { numRuns: 400 })(
    'law: allocate is the largest-remainder split (ties to the earlier part) of a BigInt reference',
    ([total, ws, currency]) => {
      const { places, totalMinor, numerators, denominator } = exactShares(total, ws, currency);
      const sign = totalMinor < 0n ? -1n : 1n;
      const floors = numerators.map((n) => absBig(n) / denominator);
      let left = absBig(totalMinor) - floors.reduce((a, b) => a + b, 0n);
      const order = numerators
        .map((n, index) => ({ index, remainder: absBig(n) % denominator }))
        .sort((a, b) =>
          a.remainder === b.remainder ? a.index - b.index : a.remainder > b.remainder ? -1 : 1,
        );
      for (const { index } of order) {
        if (left === 0n) break;
        floors[index] = (floors[index] ?? 0n) + 1n;
        left -= 1n;
      }
      expect(allocate(total, ws, currency)).toEqual(floors.map((f) => decOf(sign * f, places)));
    },
  );
});

describe('parseDecimal laws', () => {
  const digits = (max: number) => fc.string({ unit: fc.constantFrom(...'0123456789'), maxLength: max });
  const spelling = fc
    .tuple(fc.constantFrom('', '+', '-'), digits(18), fc.boolean(), digits(13))
    .filter(([, int, point, frac]) => int.length + frac.length > 0 && (point || frac.length === 0))
    .map(([sign, int, point, frac]) => `${sign}${int}${point ? '.' : ''}${frac}`);

  test.prop([decimal()], { numRuns: 300 })(
    'law: parseDecimal is strict and canonical: canonical input is a fixed point',
    (value) => {
      expect(value).toMatch(CANONICAL);
      expect(parseDecimal(value)).toEqual({ ok: true, value });
    },
  );

  test.prop([spelling], { numRuns: 500 })(
    'law: parseDecimal canonicalizes any plain spelling (no exponent, no trailing zeros, never -0)',
    (text) => {
      const result = parseDecimal(text);
      expect(result).toEqual(expectedParse(text));
      if (result.ok) expect(result.value).toMatch(CANONICAL);
    },
  );

  test.prop(
    [spelling.filter((s) => /\d/.test(s)), fc.integer({ min: -40, max: 40 }), fc.constantFrom('e', 'E')],
    {
      numRuns: 500,
    },
  )('law: parseDecimal reads exponent spellings exactly, within bounds', (mantissa, exponent, e) => {
    const text = `${mantissa}${e}${exponent}`;
    expect(parseDecimal(text)).toEqual(expectedParse(text));
  });

  test.prop([fc.double({ noNaN: true, noDefaultInfinity: true })], { numRuns: 500 })(
    'law: parseDecimal reads a JSON number as its shortest decimal spelling',
    (n) => {
      const result = parseDecimal(n);
      expect(result).toEqual(expectedParse(String(n)));
      if (result.ok) expect(Number(result.value)).toBe(n === 0 ? 0 : n);
    },
  );

  test.prop([spelling, fc.nat(), fc.constantFrom(' ', '\t', '\n', '\r', '\u00a0', ',', '_', "'")], {
    numRuns: 300,
  })('law: parseDecimal refuses whitespace, commas and separators anywhere', (text, at, separator) => {
    const position = at % (text.length + 1);
    const spoiled = text.slice(0, position) + separator + text.slice(position);
    expect(parseDecimal(spoiled).ok).toBe(false);
  });
});
