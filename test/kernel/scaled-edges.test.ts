/**
 * The integer fast path at the edges of double precision, where random operands rarely land: a product
 * that rounds to exactly 2^53, and a rounding shift of exactly 16 decimal places.
 */
import { describe, expect, test } from 'vitest';
import { compareProducts, divideInto, exactDivider, roundedProductMinor } from '../../src/kernel/scaled.js';

/** 321 × 28,059,810,762,433 = 2^53 + 1, which a double product rounds to 2^53. */
const A = 321;
const B = 28_059_810_762_433;

const divide = (numerator: number, weight: number, denominator: number) => {
  const quotients = new Float64Array(1);
  const remainders = new Float64Array(1);
  divideInto(exactDivider(numerator, denominator), weight, quotients, remainders, 0);
  return [quotients[0], remainders[0]];
};

describe('a product of exactly 2^53 + 1', () => {
  test('rounds to 2^53 as a double (the premise of the cases below)', () => {
    expect(A * B).toBe(2 ** 53);
    expect(BigInt(A) * BigInt(B)).toBe(2n ** 53n + 1n);
  });

  test('divideInto still gives the exact quotient and remainder', () => {
    expect(divide(A, B, 2 ** 50)).toEqual([8, 1]);
    expect(divide(A, B, 3)).toEqual([3_002_399_751_580_331, 0]);
    expect(divide(B, A, 2 ** 50 - 1)).toEqual([8, 9]);
  });

  test('compareProducts tells it apart from 2^53 itself', () => {
    expect(compareProducts(A, B, 2 ** 27, 2 ** 26)).toBe(1);
    expect(compareProducts(2 ** 27, 2 ** 26, B, A)).toBe(-1);
    expect(compareProducts(2 ** 27, 2 ** 26, 2 ** 26, 2 ** 27)).toBe(0);
  });
});

describe('roundedProductMinor with a shift of 16 decimal places', () => {
  test('rounds a product of half a unit or more up, below half a unit down', () => {
    // 0.55 × 0.99999999999999 = 0.5499999999999945: rounds to 1 whole unit.
    expect(roundedProductMinor('0.55', '0.99999999999999', 0)).toBe(1);
    // 0.45 × 0.99999999999999 = 0.4499999999999955: rounds to 0.
    expect(roundedProductMinor('0.45', '0.99999999999999', 0)).toBe(0);
  });

  test('a shift beyond 16 places leaves less than half a unit', () => {
    expect(roundedProductMinor('0.055', '0.99999999999999', 0)).toBe(0);
    expect(roundedProductMinor('0.99', '0.0099999999999', 0)).toBe(0);
  });
});
