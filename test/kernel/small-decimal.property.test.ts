/**
 * The small-decimal fast path of money.ts (`add`, `sub`, `mul`, `cmp`, `isZero`, `isNegative`,
 * `isPositive`) against decimal.js itself, on every spelling around the edges: signs, leading and trailing
 * zeros, missing digits, exponents, and mantissas on both sides of 15 digits and of 2^53.
 */
import { fc, test } from '@fast-check/vitest';
import { Decimal } from 'decimal.js';
import { describe, expect } from 'vitest';
import { add, cmp, isNegative, isPositive, isZero, mul, sub } from '../../src/kernel/money.js';

const D = Decimal.clone({ precision: 40, rounding: Decimal.ROUND_HALF_UP, toExpNeg: -9e15, toExpPos: 9e15 });
const spelled = (value: InstanceType<typeof D>): string => {
  const text = value.toFixed();
  return text === '-0' ? '0' : text;
};

const digits = (min: number, max: number) =>
  fc.string({ unit: fc.constantFrom(...'0123456789'), minLength: min, maxLength: max });
/** Plain spellings decimal.js reads, from short to past the fast path's 15 digits. */
const plain = fc
  .tuple(fc.constantFrom('', '', '-'), digits(1, 17), fc.option(digits(1, 17), { nil: undefined }))
  .map(([sign, whole, fraction]) => `${sign}${whole}${fraction === undefined ? '' : `.${fraction}`}`);
/** Values right at the limits: 15 and 16 significant digits, 2^52 and 2^53 in minor units. */
const edge = fc.constantFrom(
  '999999999999999',
  '-999999999999999',
  '9999999999999999',
  '4503599627370495',
  '4503599627370496',
  '9007199254740991',
  '9007199254740993',
  '45035996.27370495',
  '0.000000000000001',
  '0.0000000000000001',
  '-0',
  '-0.000',
  '0.0',
  '000123.4500',
  '1e3',
  '5.',
  '.5',
  '+7',
);
const value = fc.oneof({ weight: 4, arbitrary: plain }, { weight: 1, arbitrary: edge });

describe('small decimals', () => {
  test.prop([value, value], { numRuns: 2000 })(
    'law: add, sub and mul equal decimal.js, spelling included',
    (a, b) => {
      expect(add(a, b)).toBe(spelled(new D(a).plus(b)));
      expect(sub(a, b)).toBe(spelled(new D(a).minus(b)));
      expect(mul(a, b)).toBe(spelled(new D(a).times(b)));
    },
  );

  test.prop([value, value], { numRuns: 2000 })('law: cmp and the sign tests equal decimal.js', (a, b) => {
    expect(cmp(a, b)).toBe(new D(a).cmp(b));
    const x = new D(a);
    expect([isZero(a), isNegative(a), isPositive(a)]).toEqual([
      x.isZero(),
      x.isNegative() && !x.isZero(),
      x.isPositive() && !x.isZero(),
    ]);
  });

  test('examples at the edges of exact doubles', () => {
    expect(add('4503599627370495', '1')).toBe('4503599627370496');
    expect(add('9007199254740991', '2')).toBe('9007199254740993');
    expect(mul('94906265', '94906267')).toBe('9007199326062755');
    expect(mul('94906263', '94906265')).toBe('9007198946437695');
    expect(mul('0.1', '0.1')).toBe('0.01');
    expect(sub('0.30', '0.1')).toBe('0.2');
    expect(add('-0.5', '0.5')).toBe('0');
    expect(cmp('000123.4500', '123.45')).toBe(0);
    expect(cmp('-0', '0')).toBe(0);
  });
});
