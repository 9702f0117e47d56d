import { test } from '@fast-check/vitest';
import { describe, expect } from 'vitest';
import {
  abs,
  add,
  allocate,
  cmp,
  div,
  formatMoney,
  fromMinor,
  isInteger,
  isNegative,
  isPositive,
  isZero,
  max,
  min,
  minorUnits,
  moneyFormatter,
  mul,
  neg,
  parseDecimal,
  percentOf,
  roundMoney,
  roundTo,
  sub,
  sum,
  toMinor,
} from '../../src/kernel/money.js';

describe('parseDecimal examples', () => {
  test.each([
    ['12.50', '12.5'],
    ['012.50', '12.5'],
    ['-0', '0'],
    ['-0.000', '0'],
    ['+7', '7'],
    ['.5', '0.5'],
    ['5.', '5'],
    ['-3.1400', '-3.14'],
    ['1e5', '100000'],
    ['1.5E-3', '0.0015'],
    ['-2.50e+2', '-250'],
    ['0.000001e20', '100000000000000'],
    ['0e999999999', '0'],
    ['999999999999999.9999999999', '999999999999999.9999999999'],
  ])('accepts the numeric string %j as %j', (input, expected) => {
    expect(parseDecimal(input)).toEqual({ ok: true, value: expected });
  });

  test.each([
    [12.5, '12.5'],
    [0, '0'],
    [-0, '0'],
    [1e-7, '0.0000001'],
    [123456789012345, '123456789012345'],
    [-0.1, '-0.1'],
  ])('accepts the JSON number %j as %j', (input, expected) => {
    expect(parseDecimal(input)).toEqual({ ok: true, value: expected });
  });

  test.each([
    ['NaN', 'not_a_number'],
    ['nan', 'not_a_number'],
    ['Infinity', 'not_a_number'],
    ['-Infinity', 'not_a_number'],
    ['', 'not_a_number'],
    ['-', 'not_a_number'],
    ['.', 'not_a_number'],
    ['e5', 'not_a_number'],
    ['1e', 'not_a_number'],
    [' 1', 'not_a_number'],
    ['1 ', 'not_a_number'],
    ['\t1', 'not_a_number'],
    ['1\n', 'not_a_number'],
    ['1,5', 'not_a_number'],
    ['1,000.00', 'not_a_number'],
    ['1_000', 'not_a_number'],
    ['0x10', 'not_a_number'],
    ['١٢', 'not_a_number'],
    ['--1', 'not_a_number'],
    ['1.2.3', 'not_a_number'],
    ['1e999999999', 'too_large'],
    ['-1e999999999', 'too_large'],
    ['1e-999999999', 'too_precise'],
    ['1234567890123456', 'too_large'],
    ['0.00000000001', 'too_precise'],
    ['1.5e15', 'too_large'],
    ['1e-11', 'too_precise'],
  ])('refuses %j with %j', (input, error) => {
    expect(parseDecimal(input)).toEqual({ ok: false, error });
  });

  test.each([
    [Number.NaN],
    [Number.POSITIVE_INFINITY],
    [Number.NEGATIVE_INFINITY],
    [null],
    [undefined],
    [true],
    [{}],
    [[1]],
    [10n],
  ])('refuses the non-decimal value %s', (input) => {
    expect(parseDecimal(input)).toEqual({ ok: false, error: 'not_a_number' });
  });

  test('refuses 1e999999999 and a 10,000-digit string quickly', () => {
    const started = performance.now();
    expect(parseDecimal('1e999999999')).toEqual({ ok: false, error: 'too_large' });
    expect(parseDecimal('9'.repeat(10_000))).toEqual({ ok: false, error: 'too_large' });
    expect(parseDecimal(`0.${'1'.repeat(10_000)}`)).toEqual({ ok: false, error: 'too_large' });
    expect(parseDecimal(1e300)).toEqual({ ok: false, error: 'too_large' });
    expect(parseDecimal(5e-324)).toEqual({ ok: false, error: 'too_precise' });
    expect(performance.now() - started).toBeLessThan(50);
  });

  test('honours the limits', () => {
    expect(parseDecimal('-1', { allowNegative: false })).toEqual({ ok: false, error: 'negative' });
    expect(parseDecimal('-1e2', { allowNegative: false })).toEqual({ ok: false, error: 'negative' });
    expect(parseDecimal('-0', { allowNegative: false })).toEqual({ ok: true, value: '0' });
    expect(parseDecimal('1000', { maxIntegerDigits: 3 })).toEqual({ ok: false, error: 'too_large' });
    expect(parseDecimal('999.99', { maxIntegerDigits: 3, maxScale: 2 })).toEqual({
      ok: true,
      value: '999.99',
    });
    expect(parseDecimal('0.125', { maxScale: 2 })).toEqual({ ok: false, error: 'too_precise' });
    expect(parseDecimal('0.1200', { maxScale: 2 })).toEqual({ ok: true, value: '0.12' });
  });
});

describe('arithmetic examples', () => {
  test('add, sub, mul, div, neg, abs, sum', () => {
    expect(add('0.1', '0.2')).toBe('0.3');
    expect(sub('1', '0.25')).toBe('0.75');
    expect(sub('0.1', '0.1')).toBe('0');
    expect(mul('1.5', '3')).toBe('4.5');
    expect(mul('-0', '5')).toBe('0');
    expect(mul('-1', '0')).toBe('0');
    expect(div('1', '4')).toBe('0.25');
    expect(div('2', '3')).toBe(`0.${'6'.repeat(39)}7`);
    expect(neg('2')).toBe('-2');
    expect(neg('0')).toBe('0');
    expect(abs('-2.5')).toBe('2.5');
    expect(sum(['1', '2.5', '-0.5'])).toBe('3');
    expect(sum([])).toBe('0');
    expect(percentOf('200', '8.875')).toBe('17.75');
  });

  test('comparisons and predicates', () => {
    expect(cmp('2', '10')).toBe(-1);
    expect(cmp('10', '2')).toBe(1);
    expect(cmp('2.0', '2')).toBe(0);
    expect(min('1', '2')).toBe('1');
    expect(max('1', '2')).toBe('2');
    expect(isZero('0')).toBe(true);
    expect(isNegative('-0.01')).toBe(true);
    expect(isNegative('0')).toBe(false);
    expect(isPositive('0.01')).toBe(true);
    expect(isPositive('0')).toBe(false);
    expect(isInteger('3')).toBe(true);
    expect(isInteger('3.5')).toBe(false);
  });
});

describe('rounding and money examples', () => {
  test('half-up, away from zero on ties, at the minor unit', () => {
    expect(roundTo('2.345', 2)).toBe('2.35');
    expect(roundTo('-2.345', 2)).toBe('-2.35');
    expect(roundTo('2.3449', 2)).toBe('2.34');
    expect(roundTo('-0.004', 2)).toBe('0');
    expect(roundMoney('10.005', 'USD')).toBe('10.01');
    expect(roundMoney('-10.005', 'USD')).toBe('-10.01');
    expect(roundMoney('0.5', 'JPY')).toBe('1');
    expect(roundMoney('-0.5', 'JPY')).toBe('-1');
    expect(roundMoney('1.0005', 'KWD')).toBe('1.001');
    expect(roundMoney('1.0004', 'kwd')).toBe('1');
  });

  test('minor units, formatting and minor-unit conversion', () => {
    expect([minorUnits('USD'), minorUnits('JPY'), minorUnits('KWD'), minorUnits('eur')]).toEqual([
      2, 0, 3, 2,
    ]);
    expect(formatMoney('5', 'USD')).toBe('5.00');
    expect(formatMoney('5', 'JPY')).toBe('5');
    expect(formatMoney('5', 'KWD')).toBe('5.000');
    expect(formatMoney('-0.001', 'USD')).toBe('0.00');
    expect(formatMoney('-0.005', 'USD')).toBe('-0.01');
    expect([
      moneyFormatter('USD')('5'),
      moneyFormatter('jpy')('5.5'),
      moneyFormatter('KWD')('1.0005'),
    ]).toEqual(['5.00', '6', '1.001']);
    expect(toMinor('12.345', 'USD')).toBe(1235);
    expect(toMinor('-12.345', 'USD')).toBe(-1235);
    expect(fromMinor(1235, 'USD')).toBe('12.35');
    expect(fromMinor(-7, 'KWD')).toBe('-0.007');
    expect(fromMinor(0, 'JPY')).toBe('0');
  });

  test('allocate examples', () => {
    expect(allocate('10', ['1', '1', '1'], 'USD')).toEqual(['3.34', '3.33', '3.33']);
    expect(allocate('-10', ['1', '1', '1'], 'USD')).toEqual(['-3.34', '-3.33', '-3.33']);
    expect(allocate('100', ['0', '0'], 'JPY')).toEqual(['50', '50']);
    expect(allocate('5', ['0', '3', '0'], 'USD')).toEqual(['0', '5', '0']);
    expect(allocate('0.005', ['1', '1'], 'USD')).toEqual(['0.01', '0']);
    expect(allocate('-0.004', ['1', '2'], 'USD')).toEqual(['0', '0']);
    expect(allocate('1', ['1', '1', '1'], 'KWD')).toEqual(['0.334', '0.333', '0.333']);
    expect(allocate('10', [], 'USD')).toEqual([]);
    // Largest remainder: shares 1.25 and 3.75 cents, the extra cent goes to the larger remainder.
    expect(allocate('0.05', ['0.25', '0.75'], 'USD')).toEqual(['0.01', '0.04']);
    // Shares 1.5 and 3.5 cents: a tie goes to the earlier part.
    expect(allocate('0.05', ['0.3', '0.7'], 'USD')).toEqual(['0.02', '0.03']);
  });
});
