import { fc, test as propertyTest } from '@fast-check/vitest';
import { describe, expect, test } from 'vitest';
import {
  compareProducts,
  divideInto,
  exactDivider,
  formatMinor,
  formatMinorFixed,
  percentOfMinor,
  roundedMinor,
  roundedProductMinor,
  SCALED_LIMIT,
} from '../../src/kernel/scaled.js';

// References in BigInt, written independently of the fast paths they check.
const LIMIT = 2n ** 50n;
const parse = (text: string) => {
  const [whole = '', fraction = ''] = text.split('.');
  return { mantissa: BigInt(`${whole}${fraction}` || '0'), scale: fraction.length };
};
const halfUp = (numerator: bigint, denominator: bigint): number => {
  const rounded = (2n * numerator + denominator) / (2n * denominator);
  return rounded <= LIMIT ? Number(rounded) : Number.NaN;
};
const referenceProduct = (quantity: string, price: string, digits: number): number => {
  const q = parse(quantity);
  const p = parse(price);
  const shift = q.scale + p.scale - digits;
  const product = q.mantissa * p.mantissa;
  return shift <= 0 ? halfUp(product * 10n ** BigInt(-shift), 1n) : halfUp(product, 10n ** BigInt(shift));
};
const referenceFormat = (minor: bigint, digits: number): string => {
  const sign = minor < 0n ? '-' : '';
  const text = (minor < 0n ? -minor : minor).toString().padStart(digits + 1, '0');
  const whole = text.slice(0, text.length - digits);
  const fraction = text.slice(text.length - digits).replace(/0+$/, '');
  return `${sign}${whole}${fraction === '' ? '' : `.${fraction}`}`;
};

/** A canonical non-negative decimal: up to `wholeDigits` digits before the point, up to `places` after it. */
const decimal = (wholeDigits: number, places: number) =>
  fc
    .tuple(
      fc.stringMatching(new RegExp(`^(0|[1-9]\\d{0,${wholeDigits - 1}})$`)),
      fc.stringMatching(new RegExp(`^\\d{0,${places}}$`)),
    )
    .map(([whole, fraction]) => (fraction === '' ? whole : `${whole}.${fraction}`));

describe('SCALED_LIMIT', () => {
  test('is 2^50', () => {
    expect(SCALED_LIMIT).toBe(1_125_899_906_842_624);
  });
});

describe('roundedProductMinor', () => {
  test('rounds half up to the requested decimals', () => {
    expect(roundedProductMinor('3', '0.335', 2)).toBe(101);
    expect(roundedProductMinor('3', '0.3349', 2)).toBe(100);
    expect(roundedProductMinor('2', '0.0025', 2)).toBe(1);
    expect(roundedProductMinor('2', '0.0024', 2)).toBe(0);
    expect(roundedProductMinor('1.5', '3', 0)).toBe(5);
    expect(roundedProductMinor('12.34', '1', 3)).toBe(12_340);
    expect(roundedProductMinor('0', '9.99', 2)).toBe(0);
  });
  test('a product far below half a minor unit is 0', () => {
    expect(roundedProductMinor('0.000000001', '0.000000001', 2)).toBe(0);
    expect(roundedProductMinor('0.00000000000000001', '1', 0)).toBe(0);
  });
  test('large products take the exact path', () => {
    expect(roundedProductMinor('100000', '9999999.99999', 2)).toBe(99_999_999_999_900);
    expect(roundedProductMinor('1125899906842623', '1', 0)).toBe(2 ** 50 - 1);
    expect(roundedProductMinor('9999999', '99999999.995', 0)).toBe(999_999_899_950_000);
  });
  test('beyond SCALED_LIMIT the answer is NaN', () => {
    expect(roundedProductMinor('1125899906842624', '1', 0)).toBe(2 ** 50);
    expect(roundedProductMinor('1125899906842625', '1', 0)).toBeNaN();
    expect(roundedProductMinor('11258999068426.25', '1', 2)).toBeNaN();
    expect(roundedProductMinor('100000000', '100000000', 0)).toBeNaN();
  });
  test('a text that is not a non-negative decimal is a caller bug', () => {
    expect(() => roundedProductMinor('-1', '1', 2)).toThrow('not a non-negative decimal: -1');
    expect(() => roundedProductMinor('1', '', 2)).toThrow('not a non-negative decimal: ');
    expect(() => roundedProductMinor('1.2.3', '1', 2)).toThrow('not a non-negative decimal: 1.2.3');
  });
  propertyTest.prop([decimal(9, 6), decimal(9, 6), fc.integer({ min: 0, max: 6 })], { numRuns: 300 })(
    'law: equals the exact product rounded half up (or NaN beyond the limit)',
    (quantity, price, digits) => {
      expect(roundedProductMinor(quantity, price, digits)).toEqual(referenceProduct(quantity, price, digits));
    },
  );
  propertyTest.prop([decimal(16, 18), decimal(4, 18), fc.integer({ min: 0, max: 4 })], { numRuns: 200 })(
    'law: long mantissas round exactly too',
    (quantity, price, digits) => {
      expect(roundedProductMinor(quantity, price, digits)).toEqual(referenceProduct(quantity, price, digits));
    },
  );
});

describe('roundedMinor', () => {
  test('rounds a decimal half up to minor units', () => {
    expect(roundedMinor('10.005', 2)).toBe(1001);
    expect(roundedMinor('10.0049', 2)).toBe(1000);
    expect(roundedMinor('7', 3)).toBe(7000);
    expect(roundedMinor('0.5', 0)).toBe(1);
  });
});

describe('percentOfMinor', () => {
  test('takes a percentage of minor units, rounded half up', () => {
    expect(percentOfMinor(17_550, '10')).toBe(1755);
    expect(percentOfMinor(15_795, '6.75')).toBe(1066);
    expect(percentOfMinor(10, '5')).toBe(1);
    expect(percentOfMinor(9, '5')).toBe(0);
    expect(percentOfMinor(0, '100')).toBe(0);
    expect(percentOfMinor(2 ** 50, '100')).toBe(2 ** 50);
    expect(percentOfMinor(2 ** 50, '100.0001')).toBeNaN();
  });
  propertyTest.prop([fc.integer({ min: 0, max: 2 ** 40 }), decimal(3, 6)], { numRuns: 200 })(
    'law: equals amount × percentage / 100 rounded half up',
    (amount, percentage) => {
      const { mantissa, scale } = parse(percentage);
      expect(percentOfMinor(amount, percentage)).toEqual(
        halfUp(BigInt(amount) * mantissa, 100n * 10n ** BigInt(scale)),
      );
    },
  );
});

describe('exactDivider and divideInto', () => {
  test('splits numerator and denominator into halves that add up', () => {
    const divider = exactDivider(2 ** 50 - 5, 2 ** 49 + 7);
    expect(divider.numerator).toBe(2 ** 50 - 5);
    expect(divider.denominator).toBe(2 ** 49 + 7);
    expect(divider.numeratorHigh + divider.numeratorLow).toBe(2 ** 50 - 5);
    expect(divider.denominatorHigh + divider.denominatorLow).toBe(2 ** 49 + 7);
    expect(Math.abs(divider.numeratorLow)).toBeLessThan(2 ** 26);
    expect(Math.abs(divider.denominatorLow)).toBeLessThan(2 ** 26);
  });

  const divide = (numerator: number, weight: number, denominator: number, at = 1) => {
    const quotients = new Float64Array(3);
    const remainders = new Float64Array(3);
    divideInto(exactDivider(numerator, denominator), weight, quotients, remainders, at);
    return { quotient: quotients[at], remainder: remainders[at], untouched: [quotients[0], remainders[0]] };
  };

  test('writes the floor quotient and remainder at the index', () => {
    expect(divide(10, 7, 3)).toEqual({ quotient: 23, remainder: 1, untouched: [0, 0] });
    expect(divide(10, 3, 5)).toEqual({ quotient: 6, remainder: 0, untouched: [0, 0] });
    expect(divide(0, 99, 7)).toEqual({ quotient: 0, remainder: 0, untouched: [0, 0] });
  });
  test('stays exact for products beyond 2^53', () => {
    expect(divide(2 ** 50, 2 ** 50 - 1, 2 ** 50 - 3)).toEqual({
      quotient: 2 ** 50 + 2,
      remainder: 6,
      untouched: [0, 0],
    });
    expect(divide(2 ** 50 - 1, 2 ** 50 - 1, 2 ** 50)).toEqual({
      quotient: 2 ** 50 - 2,
      remainder: 1,
      untouched: [0, 0],
    });
  });

  const operands = fc
    .tuple(fc.bigInt({ min: 0n, max: LIMIT }), fc.bigInt({ min: 0n, max: LIMIT }))
    .chain(([numerator, weight]) => {
      const smallest = (numerator * weight) / 2n ** 52n + 1n;
      return fc.tuple(fc.constant(numerator), fc.constant(weight), fc.bigInt({ min: smallest, max: LIMIT }));
    });
  propertyTest.prop([operands], { numRuns: 300 })(
    'law: numerator·weight = quotient·denominator + remainder with 0 ≤ remainder < denominator',
    ([numerator, weight, denominator]) => {
      const result = divide(Number(numerator), Number(weight), Number(denominator));
      expect(result.quotient).toBe(Number((numerator * weight) / denominator));
      expect(result.remainder).toBe(Number((numerator * weight) % denominator));
    },
  );
});

describe('compareProducts', () => {
  test('compares small products', () => {
    expect(compareProducts(3, 5, 4, 4)).toBe(-1);
    expect(compareProducts(4, 4, 3, 5)).toBe(1);
    expect(compareProducts(2, 6, 3, 4)).toBe(0);
  });
  test('tells apart products that round to the same double', () => {
    const big = 2 ** 52 + 1;
    expect(compareProducts(big, 3, 2 ** 52, 3)).toBe(1);
    expect(compareProducts(2 ** 52, 3, big, 3)).toBe(-1);
    expect(compareProducts(big, 3, 3, big)).toBe(0);
    // (x − 1)(x − 3) = x² − 4x + 3 is one below (x − 2)² = x² − 4x + 4, far below a double's spacing there.
    expect(compareProducts(2 ** 53 - 1, 2 ** 53 - 3, 2 ** 53 - 2, 2 ** 53 - 2)).toBe(-1);
    expect(compareProducts(2 ** 53 - 2, 2 ** 53 - 2, 2 ** 53 - 1, 2 ** 53 - 3)).toBe(1);
  });
  const operand = fc.bigInt({ min: 0n, max: 2n ** 53n - 1n });
  const sign = (value: bigint) => (value < 0n ? -1 : value > 0n ? 1 : 0);
  propertyTest.prop(
    [operand, operand, fc.bigInt({ min: -2n, max: 2n }), fc.bigInt({ min: -2n, max: 2n }), fc.boolean()],
    { numRuns: 300 },
  )('law: the sign of a·b − c·d, also for nearly equal products', (a, b, da, db, swap) => {
    // c and d close to a and b (or swapped) so that both products often round to the same double.
    const clamp = (value: bigint) => (value < 0n ? 0n : value >= 2n ** 53n ? 2n ** 53n - 1n : value);
    const c = clamp((swap ? b : a) + da);
    const d = clamp((swap ? a : b) + db);
    expect(compareProducts(Number(a), Number(b), Number(c), Number(d))).toBe(sign(a * b - c * d));
  });
});

describe('formatMinor', () => {
  test('formats minor units as a canonical decimal', () => {
    expect(formatMinor(12_340, 2)).toBe('123.4');
    expect(formatMinor(12_345, 2)).toBe('123.45');
    expect(formatMinor(12_305, 2)).toBe('123.05');
    expect(formatMinor(12_300, 2)).toBe('123');
    expect(formatMinor(5, 2)).toBe('0.05');
    expect(formatMinor(5, 3)).toBe('0.005');
    expect(formatMinor(5_000, 3)).toBe('5');
    expect(formatMinor(5_100, 3)).toBe('5.1');
    expect(formatMinor(42, 0)).toBe('42');
    expect(formatMinor(-1_999, 2)).toBe('-19.99');
    expect(formatMinor(-7, 4)).toBe('-0.0007');
    expect(formatMinor(0, 2)).toBe('0');
  });
  propertyTest.prop([fc.integer({ min: -(2 ** 50), max: 2 ** 50 }), fc.integer({ min: 0, max: 6 })], {
    numRuns: 300,
  })(
    'law: the decimal point sits `digits` places from the right, trailing zeros dropped',
    (minor, digits) => {
      expect(formatMinor(minor, digits)).toBe(referenceFormat(BigInt(minor), digits));
    },
  );
});

describe('formatMinorFixed', () => {
  test("formats minor units with exactly the currency's decimals", () => {
    expect(formatMinorFixed(12_340, 2)).toBe('123.40');
    expect(formatMinorFixed(12_305, 2)).toBe('123.05');
    expect(formatMinorFixed(12_300, 2)).toBe('123.00');
    expect(formatMinorFixed(5, 2)).toBe('0.05');
    expect(formatMinorFixed(0, 2)).toBe('0.00');
    expect(formatMinorFixed(5_100, 3)).toBe('5.100');
    expect(formatMinorFixed(42, 0)).toBe('42');
    expect(formatMinorFixed(-1_990, 2)).toBe('-19.90');
    expect(formatMinorFixed(-7, 4)).toBe('-0.0007');
  });
  propertyTest.prop([fc.integer({ min: -(2 ** 50), max: 2 ** 50 }), fc.integer({ min: 0, max: 6 })], {
    numRuns: 300,
  })('law: the canonical decimal padded with zeros to `digits` decimals', (minor, digits) => {
    const [whole, fraction = ''] = formatMinor(minor, digits).split('.');
    expect(formatMinorFixed(minor, digits)).toBe(
      digits === 0 ? whole : `${whole}.${fraction.padEnd(digits, '0')}`,
    );
  });
});
