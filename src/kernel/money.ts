/**
 * Exact decimal arithmetic for money, quantities and rates.
 *
 * Values cross this module as canonical decimal strings (no exponent, no superfluous zeros, `-0` never
 * appears). This module is the only importer of decimal.js, so a scaled-integer fast path can take over
 * hot loops without touching the domain.
 */

import { Decimal } from 'decimal.js';
import { keepLayoutOf } from './kept-layouts.js';
import { err, ok, type Result } from './result.js';
import { smallAdd, smallCmp, smallMul, smallScaled, smallSign, smallSub } from './small-decimal.js';

/** A canonical decimal string, for example `"12.5"`, `"-3"`, `"0.0001"`. */
export type Dec = string;

const D = Decimal.clone({ precision: 40, rounding: Decimal.ROUND_HALF_UP, toExpNeg: -9e15, toExpPos: 9e15 });
type DecimalValue = InstanceType<typeof D>;
// Full collections must not take this class's hidden class away between requests (kept-layouts.ts).
keepLayoutOf(new D(0));

/** Limits on what a parsed decimal may look like: no input can make arithmetic expensive. */
export interface DecimalLimits {
  /** Digits before the point. Default 15. */
  readonly maxIntegerDigits?: number;
  /** Digits after the point. Default 10. */
  readonly maxScale?: number;
  /** Whether a negative value is accepted. Default true. */
  readonly allowNegative?: boolean;
}

/** Why a value is not an acceptable decimal. */
export type DecimalParseError = 'not_a_number' | 'too_large' | 'too_precise' | 'negative';

const DECIMAL_PATTERN = /^([+-]?)(\d*)(?:\.(\d*))?$/;
const EXPONENT_PATTERN = /^([+-]?)(\d*)(?:\.(\d*))?[eE]([+-]?\d+)$/;

/**
 * Parses a JSON number or a numeric string strictly and within bounds.
 *
 * Accepts `"12.50"`, `12.5`, `"-0"`, `".5"`; refuses `"1e999999999"`, `"NaN"`, `" 1"`, `"1,5"` and values
 * beyond the limits. The result is canonical.
 * @example parseDecimal('012.50') // { ok: true, value: '12.5' }
 * @example parseDecimal('1e999999999') // { ok: false, error: 'too_large' }
 */
export function parseDecimal(input: unknown, limits: DecimalLimits = {}): Result<Dec, DecimalParseError> {
  const maxIntegerDigits = limits.maxIntegerDigits ?? 15;
  const maxScale = limits.maxScale ?? 10;
  let text: string;
  if (typeof input === 'number') {
    if (Number.isSafeInteger(input)) return parsedInteger(input, maxIntegerDigits, limits.allowNegative);
    if (!Number.isFinite(input)) return err('not_a_number');
    text = numberToPlainString(input);
  } else if (typeof input === 'string') {
    if (input.length === 0 || input.length > 64)
      return input.length > 64 ? err('too_large') : err('not_a_number');
    if (isCanonicalWithin(input, maxIntegerDigits, maxScale)) return ok(input);
    text = input;
  } else {
    return err('not_a_number');
  }
  const match = DECIMAL_PATTERN.exec(text);
  if (!match) {
    const expo = EXPONENT_PATTERN.exec(text);
    if (!expo) return err('not_a_number');
    const [, expSign = '', mantInt = '', mantFrac = '', expText = ''] = expo;
    if (mantInt.length === 0 && mantFrac.length === 0) return err('not_a_number');
    // Bound the result from the digits alone (the input is at most 64 characters), before any arithmetic.
    const digits = (mantInt + mantFrac).replace(/^0+/, '');
    if (digits.length === 0) return ok('0');
    const significant = digits.replace(/0+$/, '');
    const exponent = Number(expText) - mantFrac.length + (digits.length - significant.length);
    if (significant.length + exponent > maxIntegerDigits) return err('too_large');
    if (-exponent > maxScale) return err('too_precise');
    return parseDecimal(new D(`${expSign}${significant}e${exponent}`).toFixed(), limits);
  }
  const [, sign = '', intPart = '', fracPart = ''] = match;
  if (intPart.length === 0 && fracPart.length === 0) return err('not_a_number');
  const intDigits = intPart.replace(/^0+/, '');
  const fracDigits = fracPart.replace(/0+$/, '');
  if (intDigits.length > maxIntegerDigits) return err('too_large');
  if (fracDigits.length > maxScale) return err('too_precise');
  const isZero = intDigits.length === 0 && fracDigits.length === 0;
  if (isZero) return ok('0');
  if (sign === '-' && limits.allowNegative === false) return err('negative');
  const body = (intDigits.length === 0 ? '0' : intDigits) + (fracDigits.length === 0 ? '' : `.${fracDigits}`);
  return ok(sign === '-' ? `-${body}` : body);
}

/**
 * `parseDecimal` of a JSON number that is a safe integer (a quantity, a count): its text is already
 * canonical, so only the limits are checked, in the order of the general path.
 */
function parsedInteger(
  input: number,
  maxIntegerDigits: number,
  allowNegative: boolean | undefined,
): Result<Dec, DecimalParseError> {
  if (input === 0) return ok('0');
  const text = String(input);
  if ((input < 0 ? text.length - 1 : text.length) > maxIntegerDigits) return err('too_large');
  if (input < 0 && allowNegative === false) return err('negative');
  return ok(text);
}

/**
 * Whether `text` is already a canonical non-negative decimal within the limits (`"12.5"`, `"0.05"`,
 * `"7"`): then it is its own parse, found by one scan instead of a regular expression and two rewrites.
 * Requests carry amounts mostly in this form, a hundred thousand of them in a large invoice.
 * Exported for its own tests (a wrong answer would be hidden by the slow path that follows); not public API.
 * @example isCanonicalWithin('12.5', 15, 10) // true
 * @example isCanonicalWithin('012.5', 15, 10) // false
 */
export function isCanonicalWithin(text: string, maxIntegerDigits: number, maxScale: number): boolean {
  const length = text.length;
  let point = -1;
  for (let index = 0; index < length; index += 1) {
    const code = text.charCodeAt(index);
    if (code === POINT && point < 0) point = index;
    else if (code < DIGIT_0 || code > DIGIT_9) return false;
  }
  const integerDigits = point < 0 ? length : point;
  if (integerDigits === 0 || (integerDigits > 1 && text.charCodeAt(0) === DIGIT_0)) return false;
  // "0" has no integer digits once its zero is dropped; any other integer part counts each digit.
  if ((integerDigits === 1 && text.charCodeAt(0) === DIGIT_0 ? 0 : integerDigits) > maxIntegerDigits)
    return false;
  if (point < 0) return true;
  const decimals = length - point - 1;
  return decimals > 0 && decimals <= maxScale && text.charCodeAt(length - 1) !== DIGIT_0;
}

function numberToPlainString(value: number): string {
  const text = String(value);
  return /e/i.test(text) ? new D(value).toFixed() : text;
}

const dec = (value: Dec): DecimalValue => new D(value);
const out = (value: DecimalValue): Dec => {
  const text = value.toFixed();
  return text === '-0' ? '0' : text;
};

/** `a + b`. @example add('0.1', '0.2') // '0.3' */
export const add = (a: Dec, b: Dec): Dec => smallAdd(a, b) ?? out(dec(a).plus(b));
/** `a − b`. @example sub('1', '0.25') // '0.75' */
export const sub = (a: Dec, b: Dec): Dec => smallSub(a, b) ?? out(dec(a).minus(b));
/** `a × b`, exact up to 40 significant digits. @example mul('1.5', '3') // '4.5' */
export const mul = (a: Dec, b: Dec): Dec => smallMul(a, b) ?? out(dec(a).times(b));
/** `a ÷ b` to 40 significant digits. @example div('1', '4') // '0.25' */
export const div = (a: Dec, b: Dec): Dec => out(dec(a).div(b));
/** `−a`. @example neg('2') // '-2' */
export const neg = (a: Dec): Dec => out(dec(a).neg());
/** Absolute value. @example abs('-2') // '2' */
export const abs = (a: Dec): Dec => out(dec(a).abs());
/** Sum of a list. @example sum(['1', '2.5']) // '3.5' */
export function sum(values: Iterable<Dec>): Dec {
  let total = new D(0);
  for (const value of values) total = total.plus(value);
  return out(total);
}
/** -1, 0 or 1. @example cmp('2', '10') // -1 */
export const cmp = (a: Dec, b: Dec): -1 | 0 | 1 => smallCmp(a, b) ?? (dec(a).cmp(b) as -1 | 0 | 1);
/** @example isZero('0') // true */
export const isZero = (a: Dec): boolean => {
  // The most common zero, the canonical one, without parsing it.
  if (a === '0') return true;
  const sign = smallSign(a);
  return sign === undefined ? dec(a).isZero() : sign === 0;
};
/** @example isNegative('-0.01') // true */
export const isNegative = (a: Dec): boolean => {
  const sign = smallSign(a);
  return sign === undefined ? dec(a).isNegative() && !dec(a).isZero() : sign < 0;
};
/** @example isPositive('0.01') // true */
export const isPositive = (a: Dec): boolean => {
  const sign = smallSign(a);
  return sign === undefined ? dec(a).isPositive() && !dec(a).isZero() : sign > 0;
};
/** The smaller of two. @example min('1', '2') // '1' */
export const min = (a: Dec, b: Dec): Dec => (cmp(a, b) <= 0 ? a : b);
/** The larger of two. @example max('1', '2') // '2' */
export const max = (a: Dec, b: Dec): Dec => (cmp(a, b) >= 0 ? a : b);
/** Whether the value is a whole number. @example isInteger('3.0') // true */
export const isInteger = (a: Dec): boolean => dec(a).isInteger();
/** `amount × percentage / 100`, unrounded. @example percentOf('200', '8.875') // '17.75' */
export const percentOf = (amount: Dec, percentage: Dec): Dec => out(dec(amount).times(percentage).div(100));

/** Rounds half-up (away from zero on a tie) to `places` decimals. @example roundTo('2.345', 2) // '2.35' */
export const roundTo = (value: Dec, places: number): Dec =>
  // A canonical amount with at most `places` decimals is its own rounding: most amounts already are.
  isCanonicalUpTo(value, places) ? value : out(dec(value).toDecimalPlaces(places, D.ROUND_HALF_UP));

/**
 * Whether `value` is canonical (no superfluous zero, no negative zero) with at most `places` decimals:
 * the test `padToPlaces` makes, without making the padded text (a renewal rounds a line per component).
 */
function isCanonicalUpTo(value: Dec, places: number): boolean {
  const decimals = plainDecimals(value);
  return (
    decimals >= 0 &&
    decimals <= places &&
    places < ZEROS.length &&
    (decimals === 0 || value.charCodeAt(value.length - 1) !== DIGIT_0)
  );
}

/** Rounds away from zero to `places` decimals. @example roundAwayTo('2.341', 2) // '2.35' */
export const roundAwayTo = (value: Dec, places: number): Dec =>
  out(dec(value).toDecimalPlaces(places, D.ROUND_UP));

const MINOR_UNITS: Readonly<Record<string, number>> = {
  BHD: 3,
  BIF: 0,
  CLP: 0,
  DJF: 0,
  GNF: 0,
  IQD: 3,
  ISK: 0,
  JOD: 3,
  JPY: 0,
  KMF: 0,
  KRW: 0,
  KWD: 3,
  LYD: 3,
  OMR: 3,
  PYG: 0,
  RWF: 0,
  TND: 3,
  UGX: 0,
  UYI: 0,
  VND: 0,
  VUV: 0,
  XAF: 0,
  XOF: 0,
  XPF: 0,
};

/** Decimal places of a currency's minor unit (ISO 4217; 2 unless listed). @example minorUnits('JPY') // 0 */
export const minorUnits = (currency: string): number => MINOR_UNITS[currency.toUpperCase()] ?? 2;

/** Rounds half-up to the currency's minor unit. @example roundMoney('10.005', 'USD') // '10.01' */
export const roundMoney = (value: Dec, currency: string): Dec => roundTo(value, minorUnits(currency));

/**
 * Formats with exactly the currency's decimals, for the wire. Rounds half-up first.
 * @example formatMoney('5', 'USD') // '5.00'
 */
export function formatMoney(value: Dec, currency: string): string {
  return formatToPlaces(value, minorUnits(currency));
}

/**
 * `formatMoney` for one currency, its minor unit looked up once: for presenting many amounts.
 * @example moneyFormatter('USD')('5') // '5.00'
 */
export function moneyFormatter(currency: string): (value: Dec) => string {
  const places = minorUnits(currency);
  return (value) => formatToPlaces(value, places);
}

/**
 * `moneyFormatter` for amounts nothing keeps (a record handed to the caller and dropped): no lookup among
 * the shared texts, which only save memory for what a site holds; and an amount equal to the previous
 * one gives the previous text (a column of zero taxes is written once).
 * @example transientMoneyFormatter('USD')('5') // '5.00'
 */
export function transientMoneyFormatter(currency: string): (value: Dec) => string {
  const places = minorUnits(currency);
  let lastValue: Dec | undefined;
  let lastText = '';
  return (value) => {
    if (value !== lastValue) {
      lastText = padToPlaces(value, places) ?? formatToPlaces(value, places);
      lastValue = value;
    }
    return lastText;
  };
}

function formatToPlaces(value: Dec, places: number): string {
  const padded = padToPlaces(value, places);
  if (padded !== undefined) return padded === value ? value : sharedText(formattedTexts, padded);
  const text = dec(value).toFixed(places, D.ROUND_HALF_UP);
  return /^-0(\.0*)?$/.test(text) ? text.slice(1) : text;
}

/**
 * One string for each amount text recently formatted: every invoice and `invoice_issued` record of a
 * site presents the same few amounts ('0.00', the plan's price) several times, and each formatting makes
 * a new string of 24 bytes or more that the state then keeps. Bounded: emptied when full.
 */
const formattedTexts = new Map<string, string>();
const MAX_SHARED_TEXTS = 4096;

function sharedText(texts: Map<string, string>, text: string): string {
  const known = texts.get(text);
  if (known !== undefined) return known;
  if (texts.size >= MAX_SHARED_TEXTS) texts.clear();
  texts.set(text, text);
  return text;
}

const ZEROS = ['', '0', '00', '000', '0000', '00000', '000000'];
const DIGIT_0 = 48;
const DIGIT_9 = 57;
const MINUS = 45;
const POINT = 46;

/**
 * `value` written with exactly `places` decimals when it is a canonical decimal with at most that many
 * (no rounding is then needed); undefined otherwise. An invoice presents a dozen amounts per line, all
 * already rounded: a scan of the characters costs a fraction of a regular expression or a decimal.js
 * round trip, and a value that already has `places` decimals is its own answer.
 * Exported for its own tests (a wrong answer would be hidden by the slow path that follows); not public API.
 * @example padToPlaces('5.1', 2) // '5.10'
 * @example padToPlaces('5.123', 2) // undefined
 */
export function padToPlaces(value: string, places: number): string | undefined {
  const decimals = plainDecimals(value);
  if (decimals < 0 || decimals > places || places >= ZEROS.length) return undefined;
  if (decimals === places) return value;
  return decimals === 0 ? `${value}.${ZEROS[places]}` : value + ZEROS[places - decimals];
}

/**
 * How many decimals a plain decimal has (`-?digits(.digits)?`, no superfluous leading zero, no negative
 * zero, trailing zeros allowed), or -1 when the text is not one.
 */
function plainDecimals(value: string): number {
  const length = value.length;
  const negative = value.charCodeAt(0) === MINUS;
  const first = negative ? 1 : 0;
  let point = -1;
  let nonZero = false;
  for (let index = first; index < length; index += 1) {
    const code = value.charCodeAt(index);
    if (code === POINT) {
      if (point >= 0) return -1;
      point = index;
    } else if (code < DIGIT_0 || code > DIGIT_9) return -1;
    else if (code !== DIGIT_0) nonZero = true;
  }
  const integerEnd = point < 0 ? length : point;
  // Canonical: digits before the point, none of them a superfluous leading zero, digits after it, and
  // no negative zero.
  if (integerEnd === first || point === length - 1) return -1;
  if (integerEnd - first > 1 && value.charCodeAt(first) === DIGIT_0) return -1;
  if (negative && !nonZero) return -1;
  return point < 0 ? 0 : length - point - 1;
}

/** Amount in integer minor units (half-up). @example toMinor('12.345', 'USD') // 1235 */
export function toMinor(value: Dec, currency: string): number {
  const places = minorUnits(currency);
  // Stored amounts have at most the currency's decimals: moving the point is the whole job, and every
  // amount presented goes through here (decimal.js spent a `pow` and three allocations on each).
  const scaled = smallScaled(value, places);
  if (scaled !== undefined) return scaled;
  // `+ 0` turns a negative zero (a negative amount rounding to nothing) into 0.
  return dec(value).times(new D(10).pow(places)).toDecimalPlaces(0, D.ROUND_HALF_UP).toNumber() + 0;
}

/** Amount from integer minor units. @example fromMinor(1235, 'USD') // '12.35' */
export const fromMinor = (minor: number, currency: string): Dec =>
  out(new D(minor).div(new D(10).pow(minorUnits(currency))));

/**
 * Splits `total` over parts in proportion to `weights` by the largest-remainder method, in the
 * currency's minor units: the parts add up exactly to `total` (rounded to the minor unit) and each is
 * within one minor unit of its exact share. Ties go to the earlier part. When every weight is zero the
 * total is split equally.
 * @example allocate('10', ['1', '1', '1'], 'USD') // ['3.34', '3.33', '3.33']
 */
export function allocate(total: Dec, weights: readonly Dec[], currency: string): Dec[] {
  if (weights.length === 0) return [];
  const places = minorUnits(currency);
  const scale = new D(10).pow(places);
  const totalMinor = dec(total).times(scale).toDecimalPlaces(0, D.ROUND_HALF_UP);
  const sign = totalMinor.isNegative() ? -1 : 1;
  const magnitude = totalMinor.abs();
  let decimalWeights = weights.map((w) => dec(w).abs());
  let weightSum = decimalWeights.reduce((a, b) => a.plus(b), new D(0));
  if (weightSum.isZero()) {
    decimalWeights = weights.map(() => new D(1));
    weightSum = new D(weights.length);
  }
  const floors: DecimalValue[] = [];
  const remainders: { index: number; remainder: DecimalValue }[] = [];
  let assigned = new D(0);
  decimalWeights.forEach((weight, index) => {
    const exact = magnitude.times(weight).div(weightSum);
    const floor = exact.floor();
    floors.push(floor);
    assigned = assigned.plus(floor);
    remainders.push({ index, remainder: exact.minus(floor) });
  });
  let left = magnitude.minus(assigned).toNumber();
  remainders.sort((a, b) => b.remainder.cmp(a.remainder) || a.index - b.index);
  for (const { index } of remainders) {
    if (left <= 0) break;
    floors[index] = (floors[index] ?? new D(0)).plus(1);
    left -= 1;
  }
  return floors.map((units) => out(units.times(sign).div(scale)));
}
