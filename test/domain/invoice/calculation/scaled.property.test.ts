/**
 * Laws of the kernel's number-scaled arithmetic (src/kernel/scaled.ts), against BigInt. They live here
 * because the invoice calculation is the fast path's only user so far.
 */
import { fc, test } from '@fast-check/vitest';
import { describe, expect } from 'vitest';
import {
  compareProducts,
  divideInto,
  exactDivider,
  formatMinor,
  percentOfMinor,
  roundedMinor,
  roundedProductMinor,
  SCALED_LIMIT,
} from '../../../../src/kernel/scaled.js';
import { decimalArbitrary, fromScaled, parseScaled } from './arbitraries.js';

const LIMIT = BigInt(SCALED_LIMIT);
const halfUp = (numerator: bigint, denominator: bigint): bigint =>
  (2n * numerator + denominator) / (2n * denominator);
const expectedMinor = (value: bigint): number => (value <= LIMIT ? Number(value) : Number.NaN);

/** Integers up to the fast range, biased towards both ends and powers of two. */
const amountArbitrary = fc.oneof(
  fc.bigInt({ min: 0n, max: LIMIT }),
  fc.bigInt({ min: LIMIT - 1000n, max: LIMIT }),
  fc.bigInt({ min: 0n, max: 1000n }),
  fc.integer({ min: 0, max: 50 }).map((power) => 2n ** BigInt(power)),
);

describe('kernel/scaled', () => {
  test.prop([decimalArbitrary, decimalArbitrary, fc.constantFrom(0, 2, 3)])(
    'roundedProductMinor equals quantity × price rounded half up, computed in BigInt',
    (quantity, price, digits) => {
      const left = parseScaled(quantity);
      const right = parseScaled(price);
      const scale = left.scale + right.scale;
      const product = left.value * right.value * 10n ** BigInt(digits);
      expect(roundedProductMinor(quantity, price, digits)).toBe(
        expectedMinor(halfUp(product, 10n ** BigInt(scale))),
      );
    },
  );

  test('roundedProductMinor: half a minor unit rounds up, in every currency', () => {
    expect(roundedProductMinor('1', '0.005', 2)).toBe(1);
    expect(roundedProductMinor('3', '0.335', 2)).toBe(101);
    expect(roundedProductMinor('1', '0.5', 0)).toBe(1);
    expect(roundedProductMinor('1', '0.0005', 3)).toBe(1);
    expect(roundedProductMinor('0.0001', '0.0001', 2)).toBe(0);
    expect(roundedProductMinor('1000000', '999.9999', 2)).toBe(99_999_990_000);
    // 10^16 cents is beyond the fast range (2^50): the caller falls back.
    expect(roundedProductMinor('1000000', '99999999.9999', 2)).toBeNaN();
    expect(roundedMinor('10.005', 2)).toBe(1001);
  });

  test.prop([amountArbitrary, amountArbitrary.filter((value) => value > 0n), amountArbitrary])(
    'divideInto gives floor(n·w/d) and its remainder exactly (within its preconditions)',
    (numerator, denominator, weight) => {
      fc.pre((numerator * weight) / denominator <= 2n ** 52n);
      const quotients = new Float64Array(1);
      const remainders = new Float64Array(1);
      divideInto(
        exactDivider(Number(numerator), Number(denominator)),
        Number(weight),
        quotients,
        remainders,
        0,
      );
      expect(quotients[0]).toBe(Number((numerator * weight) / denominator));
      expect(remainders[0]).toBe(Number((numerator * weight) % denominator));
    },
  );

  test.prop([amountArbitrary, amountArbitrary, amountArbitrary, amountArbitrary])(
    'compareProducts is the sign of a·b − c·d',
    (a, b, c, d) => {
      const difference = a * b - c * d;
      const sign = difference < 0n ? -1 : difference > 0n ? 1 : 0;
      expect(compareProducts(Number(a), Number(b), Number(c), Number(d))).toBe(sign);
    },
  );

  test.prop([amountArbitrary, decimalArbitrary])(
    'percentOfMinor is amount × p / 100 rounded half up',
    (amount, pct) => {
      const { value, scale } = parseScaled(pct);
      expect(percentOfMinor(Number(amount), pct)).toBe(
        expectedMinor(halfUp(amount * value, 100n * 10n ** BigInt(scale))),
      );
    },
  );

  test.prop([amountArbitrary, fc.constantFrom(0, 2, 3)])(
    'formatMinor writes the canonical decimal',
    (minor, digits) => {
      expect(formatMinor(Number(minor), digits)).toBe(fromScaled(minor, digits));
    },
  );

  test('malformed or negative decimals are caller bugs', () => {
    expect(() => roundedProductMinor('-1', '2', 2)).toThrow(/non-negative decimal/);
    expect(() => roundedProductMinor('1e5', '2', 2)).toThrow(/non-negative decimal/);
    expect(() => percentOfMinor(100, '')).toThrow(/non-negative decimal/);
  });
});
