/**
 * The kernel's fast paths on their own: each answers exactly what it can and `undefined` (or false) for
 * everything else. Through money.ts a wrong "can't answer" is invisible, because decimal.js then gives
 * the same result more slowly; these tables pin down where each fast path stops, edge by edge.
 */
import { describe, expect, it } from 'vitest';
import { isCanonicalWithin, padToPlaces } from '../../src/kernel/money.js';
import {
  smallAdd,
  smallCmp,
  smallMul,
  smallScaled,
  smallSign,
  smallSub,
} from '../../src/kernel/small-decimal.js';

/** Spellings the fast path leaves to decimal.js, each for a different reason. */
const unsupported = [
  '',
  '-',
  '.5',
  '-.5',
  '5.',
  '1.2.3',
  '1e3',
  '12a',
  '1/2',
  '1:2',
  ' 1',
  '+1',
  '1234567890123456', // 16 significant digits
  '0.0000000000000001', // scale 16
];

describe('small-decimal fast path', () => {
  it.each(unsupported)('answers undefined for %j', (text) => {
    expect(smallSign(text)).toBeUndefined();
    expect(smallAdd(text, '1')).toBeUndefined();
    expect(smallAdd('1', text)).toBeUndefined();
    expect(smallSub(text, '1')).toBeUndefined();
    expect(smallMul(text, '1')).toBeUndefined();
    expect(smallMul('1', text)).toBeUndefined();
    expect(smallCmp(text, '1')).toBeUndefined();
    expect(smallCmp('1', text)).toBeUndefined();
    expect(smallScaled(text, 6)).toBeUndefined();
  });

  it.each([
    ['0', 0],
    ['7', 1],
    ['-7', -1],
    ['-0', 0],
    ['-0.000', 0],
    ['0.0', 0],
    ['000123.4500', 1],
    ['-0.001', -1],
    ['123456789012345', 1], // 15 significant digits
    ['0000000000000001', 1], // leading zeros are not significant
    ['1.00000000000000', 1], // 15 significant digits with the trailing zeros
    ['0.000000000000001', 1], // scale 15
  ] as const)('reads %j (sign %d)', (text, sign) => {
    expect(smallSign(text)).toBe(sign);
  });

  it('adds and subtracts at the larger scale, spelled as decimal.js spells', () => {
    expect(smallAdd('1.5', '2.25')).toBe('3.75');
    expect(smallAdd('2.25', '1.5')).toBe('3.75');
    expect(smallAdd('0.1', '0.2')).toBe('0.3');
    expect(smallAdd('1.25', '-1.25')).toBe('0');
    expect(smallAdd('-1', '0.5')).toBe('-0.5');
    expect(smallSub('0.05', '0.1')).toBe('-0.05');
    expect(smallSub('10', '0.001')).toBe('9.999');
    expect(smallSub('3', '1')).toBe('2');
    expect(smallAdd('1.10', '2.20')).toBe('3.3');
    expect(smallAdd('0', '0')).toBe('0');
  });

  it('stops adding where an aligned mantissa reaches 2^52', () => {
    // (A mantissa of 15 digits is below 2^52; only alignment to a larger scale can reach it.)
    expect(smallAdd('450359962737049', '1')).toBe('450359962737050');
    expect(smallAdd('-45035996273.705', '0.00001')).toBeUndefined();
    expect(smallAdd('45035996273.7049', '0.00001')).toBe('45035996273.70491');
    expect(smallAdd('45035996273.705', '0.00001')).toBeUndefined();
    expect(smallCmp('45035996273.705', '0.00001')).toBeUndefined();
    expect(smallSub('45035996273.705', '0.00001')).toBeUndefined();
  });

  it('multiplies while the product stays below 2^53', () => {
    expect(smallMul('1.5', '0.2')).toBe('0.3');
    expect(smallMul('-2', '0.25')).toBe('-0.5');
    expect(smallMul('0', '-3')).toBe('0');
    expect(smallMul('94906265', '94906265')).toBe('9007199136250225');
    // 2^26 × 2^27 = 2^53 exactly: the first product the doubles cannot vouch for.
    expect(smallMul('67108864', '134217728')).toBeUndefined();
    expect(smallMul('-67108864', '134217728')).toBeUndefined();
    expect(smallMul('67108864', '134217727')).toBe('9007199187632128');
  });

  it('compares at the larger scale', () => {
    expect(smallCmp('1.5', '1.25')).toBe(1);
    expect(smallCmp('1.25', '1.5')).toBe(-1);
    expect(smallCmp('1.50', '1.5')).toBe(0);
    expect(smallCmp('-1', '0')).toBe(-1);
  });

  it('scales to whole minor units without rounding, and only then', () => {
    expect(smallScaled('1.23', 2)).toBe(123);
    expect(smallScaled('1.2', 2)).toBe(120);
    expect(smallScaled('-4', 2)).toBe(-400);
    expect(Object.is(smallScaled('-0', 2), 0)).toBe(true);
    expect(Object.is(smallScaled('-0.00', 2), 0)).toBe(true);
    expect(smallScaled('1.234', 2)).toBeUndefined();
    expect(smallScaled('1.23', 3)).toBe(1230);
    expect(smallScaled('900719925474', 4)).toBe(9_007_199_254_740_000);
    expect(smallScaled('900719925474.1', 4)).toBeUndefined();
    expect(smallScaled('-900719925474.1', 4)).toBeUndefined();
    expect(smallScaled('1', 15)).toBe(10 ** 15);
    expect(smallScaled('1', 16)).toBeUndefined();
  });
});

describe('isCanonicalWithin (parseDecimal fast path)', () => {
  it.each([
    ['7', true],
    ['0', true],
    ['12.5', true],
    ['0.05', true],
    ['123456789012345', true], // 15 integer digits
    ['1234567890123456', false], // 16
    ['0.1234567891', true], // 10 decimals
    ['0.12345678912', false], // 11
    ['012.5', false],
    ['00', false],
    ['.5', false],
    ['5.', false],
    ['12.50', false],
    ['1.2.3', false],
    ['-1', false],
    ['1a', false],
    ['1/2', false],
    ['1:2', false],
    ['', false],
  ] as const)('%j is canonical within 15 digits and 10 decimals: %s', (text, canonical) => {
    expect(isCanonicalWithin(text, 15, 10)).toBe(canonical);
  });

  it('counts a lone zero as no integer digit', () => {
    expect(isCanonicalWithin('0.5', 0, 10)).toBe(true);
    expect(isCanonicalWithin('5', 0, 10)).toBe(false);
    expect(isCanonicalWithin('5', 1, 10)).toBe(true);
    expect(isCanonicalWithin('0.55', 1, 1)).toBe(false);
  });
});

describe('padToPlaces (formatMoney fast path)', () => {
  it.each([
    ['5', 2, '5.00'],
    ['5.1', 2, '5.10'],
    ['5.12', 2, '5.12'],
    ['-5.1', 2, '-5.10'],
    ['0', 2, '0.00'],
    ['0.5', 3, '0.500'],
    ['10', 0, '10'],
    ['7', 6, '7.000000'],
  ] as const)('%j to %d places is %j', (value, places, expected) => {
    expect(padToPlaces(value, places)).toBe(expected);
  });

  it.each([
    ['5.123', 2], // would need rounding
    ['5', 7], // more places than the table of zeros
    ['-0', 2], // negative zero
    ['-0.00', 2],
    ['05', 2],
    ['.5', 2],
    ['5.', 2],
    ['-', 2],
    ['1.2.3', 2],
    ['1a', 2],
    ['1/2', 2],
    ['1:2', 2],
    ['1e3', 2],
  ] as const)('%j to %d places is left to decimal.js', (value, places) => {
    expect(padToPlaces(value, places)).toBeUndefined();
  });
});
