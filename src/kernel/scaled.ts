/**
 * Exact integer arithmetic on JS numbers ("number-scaled"), for loops over many invoice lines.
 *
 * Amounts are integers in the currency's minor unit, held in doubles. A double represents every integer
 * up to 2^53 exactly, so sums, differences and comparisons of such amounts are exact. Products of two
 * amounts are not: `mulDivInto` recovers them exactly with Dekker's two-product (no BigInt, no
 * allocation), which is what lets a largest-remainder split over a million lines run near float speed.
 * Every function states the range it is exact in; beyond it the
 * functions answer `NaN` and the caller falls back to an exact path (BigInt here, decimal.js in
 * money.ts). Inputs are canonical non-negative decimal strings (`Dec`); anything else is a caller bug.
 */
import { invariant } from './invariant.js';
import type { Dec } from './money.js';

/**
 * The largest amount, sum or weight (in minor units) the fast path accepts: 2^50, about 1.1·10^15
 * (11 trillion dollars in cents). The bound is what `mulDivInto` needs for an exact remainder.
 */
export const SCALED_LIMIT = 2 ** 50;

const TWO_53 = 2 ** 53;
/** Veltkamp's splitter for doubles: 2^27 + 1. */
const SPLITTER = 134_217_729;
/** Powers of ten that doubles hold exactly. */
const POW10: readonly number[] = Array.from({ length: 23 }, (_, power) => 10 ** power);
/** Decimal digits a mantissa may have and still be below 2^53. */
const MAX_FAST_DIGITS = 15;

/** Scale (digits after the point) of the mantissa `parseMantissa` returned last. Scratch, not state. */
let lastScale = 0;

/** Mantissa of a plain decimal such as `"12.3400"`, or -1 when the text is not one or is too long. */
function parseMantissa(text: string): number {
  let mantissa = 0;
  let digits = 0;
  let scale = 0;
  let afterPoint = false;
  for (let position = 0; position < text.length; position += 1) {
    const code = text.charCodeAt(position);
    if (code === 46 && !afterPoint) {
      afterPoint = true;
      continue;
    }
    const digit = code - 48;
    if (digit < 0 || digit > 9 || ++digits > MAX_FAST_DIGITS) return -1;
    mantissa = mantissa * 10 + digit;
    if (afterPoint) scale += 1;
  }
  lastScale = scale;
  return digits === 0 ? -1 : mantissa;
}

const PLAIN_DECIMAL = /^(\d*)(?:\.(\d*))?$/;

/** A non-negative decimal as a BigInt mantissa and its scale; throws on anything else (a caller bug). */
function parseBig(text: Dec): { readonly mantissa: bigint; readonly scale: number } {
  const match = PLAIN_DECIMAL.exec(text);
  const whole = match?.[1] ?? '';
  const fraction = match?.[2] ?? '';
  invariant(match !== null && whole.length + fraction.length > 0, `not a non-negative decimal: ${text}`);
  return { mantissa: BigInt(whole + fraction), scale: fraction.length };
}

const bigPow10 = (power: number): bigint => 10n ** BigInt(power);

/** `numerator / denominator` rounded half up, as a number, or NaN beyond `SCALED_LIMIT`. */
function bigHalfUp(numerator: bigint, denominator: bigint): number {
  const rounded = (2n * numerator + denominator) / (2n * denominator);
  return rounded <= BigInt(SCALED_LIMIT) ? Number(rounded) : Number.NaN;
}

/**
 * `quantity × unitPrice` rounded half up to `digits` decimals, in minor units: exact for any inputs.
 * The common case (mantissas of up to 15 digits whose product stays below 2^53) is parsed and rounded
 * with doubles only; anything else takes BigInt. Returns NaN when the result exceeds `SCALED_LIMIT`.
 * @example roundedProductMinor('3', '0.335', 2) // 101 (1.005 rounds up to 1.01)
 * @example roundedProductMinor('1000', '99999999.9999', 2) // 9999999999990
 * @example roundedProductMinor('1000000', '99999999.9999', 2) // NaN (beyond SCALED_LIMIT: callers fall back)
 */
export function roundedProductMinor(quantity: Dec, unitPrice: Dec, digits: number): number {
  const quantityMantissa = parseMantissa(quantity);
  const quantityScale = lastScale;
  const priceMantissa = quantityMantissa < 0 ? -1 : parseMantissa(unitPrice);
  if (priceMantissa >= 0) {
    const product = quantityMantissa * priceMantissa;
    // A double product below 2^53 is exact: rounding is monotonic, so an exact product ≥ 2^53 never lands below.
    if (product < TWO_53) {
      const shift = quantityScale + lastScale - digits;
      if (shift <= 0) {
        const scaled = product * POW10[-shift]!;
        return scaled <= SCALED_LIMIT ? scaled : Number.NaN;
      }
      // Past 10^16 the product (< 2^53 < 5·10^15·10) is below half a minor unit.
      if (shift > 16) return 0;
      const divisor = POW10[shift]!;
      const halfUp = product + divisor / 2;
      // Math.floor(x / d) is exact for integers x < 2^53.
      if (halfUp < TWO_53) return Math.floor(halfUp / divisor);
    }
  }
  const left = parseBig(quantity);
  const right = parseBig(unitPrice);
  const shift = left.scale + right.scale - digits;
  const product = left.mantissa * right.mantissa;
  return shift <= 0 ? bigHalfUp(product * bigPow10(-shift), 1n) : bigHalfUp(product, bigPow10(shift));
}

/**
 * A decimal rounded half up to `digits` decimals, in minor units, or NaN beyond `SCALED_LIMIT`.
 * @example roundedMinor('10.005', 2) // 1001
 */
export const roundedMinor = (value: Dec, digits: number): number => roundedProductMinor(value, '1', digits);

/**
 * `amount × percentage / 100` rounded half up, for an amount in minor units: exact for any percentage
 * (BigInt; meant for invoice-level figures, not per line). NaN when the result exceeds `SCALED_LIMIT`.
 * @example percentOfMinor(17_550, '10') // 1755
 * @example percentOfMinor(15_795, '6.75') // 1066 (1066.1625)
 */
export function percentOfMinor(amount: number, percentage: Dec): number {
  const { mantissa, scale } = parseBig(percentage);
  return bigHalfUp(BigInt(amount) * mantissa, 100n * bigPow10(scale));
}

/** The exact error of the double product `a × b` (which rounded to `product`): a·b = product + error. */
function productError(a: number, b: number, product: number): number {
  const aSplit = SPLITTER * a;
  const aHigh = aSplit - (aSplit - a);
  const aLow = a - aHigh;
  const bSplit = SPLITTER * b;
  const bHigh = bSplit - (bSplit - b);
  const bLow = b - bHigh;
  return aLow * bLow - (product - aHigh * bHigh - aLow * bHigh - aHigh * bLow);
}

/** A fixed numerator and denominator, split once for exact products (see `divideInto`). */
export interface ExactDivider {
  readonly numerator: number;
  readonly denominator: number;
  readonly numeratorHigh: number;
  readonly numeratorLow: number;
  readonly denominatorHigh: number;
  readonly denominatorLow: number;
}

/**
 * Prepares `divideInto` for one numerator and denominator (integers, 0 < denominator ≤ `SCALED_LIMIT`).
 * @example exactDivider(10, 3).denominator // 3
 */
export function exactDivider(numerator: number, denominator: number): ExactDivider {
  const numeratorSplit = SPLITTER * numerator;
  const numeratorHigh = numeratorSplit - (numeratorSplit - numerator);
  const denominatorSplit = SPLITTER * denominator;
  const denominatorHigh = denominatorSplit - (denominatorSplit - denominator);
  return {
    numerator,
    denominator,
    numeratorHigh,
    numeratorLow: numerator - numeratorHigh,
    denominatorHigh,
    denominatorLow: denominator - denominatorHigh,
  };
}

/**
 * Writes `floor(numerator × weight / denominator)` to `quotients[index]` and the remainder
 * `numerator·weight − quotient·denominator` to `remainders[index]`, exactly, for integers 0 ≤ numerator,
 * weight, denominator ≤ `SCALED_LIMIT` with a quotient ≤ 2^52. Small enough to be inlined in a loop over
 * a million lines, which is where it runs (once per discount and tax per line).
 *
 * Why it is exact: below 2^53 the plain double product is exact. Above it, n·w = p + e exactly
 * (Dekker's two-product), the estimated quotient q is within 2 of the true one, q·d = p' + e' likewise,
 * and because d ≤ 2^50 ≤ n·w / 8, p and p' are within a factor 2 of each other, so p − p' is exact
 * (Sterbenz); e and e' are integers below 2^49 and the true remainder is below 2^53, so the sum is exact.
 * @example
 * const q = new Float64Array(1); const r = new Float64Array(1);
 * divideInto(exactDivider(2 ** 50, 2 ** 50 - 3), 2 ** 50 - 1, q, r, 0); // q[0] = 2 ** 50 + 2, r[0] = 6
 */
export function divideInto(
  divider: ExactDivider,
  weight: number,
  quotients: Float64Array,
  remainders: Float64Array,
  index: number,
): void {
  const { numerator, denominator } = divider;
  const product = numerator * weight;
  let quotient = Math.floor(product / denominator);
  let remainder: number;
  if (product < TWO_53) {
    remainder = product - quotient * denominator;
  } else {
    const weightSplit = SPLITTER * weight;
    const weightHigh = weightSplit - (weightSplit - weight);
    const weightLow = weight - weightHigh;
    const { numeratorHigh, numeratorLow, denominatorHigh, denominatorLow } = divider;
    const error =
      numeratorLow * weightLow -
      (product - numeratorHigh * weightHigh - numeratorLow * weightHigh - numeratorHigh * weightLow);
    const back = quotient * denominator;
    const quotientSplit = SPLITTER * quotient;
    const quotientHigh = quotientSplit - (quotientSplit - quotient);
    const quotientLow = quotient - quotientHigh;
    const backError =
      quotientLow * denominatorLow -
      (back - quotientHigh * denominatorHigh - quotientLow * denominatorHigh - quotientHigh * denominatorLow);
    remainder = product - back + (error - backError);
  }
  while (remainder < 0) {
    quotient -= 1;
    remainder += denominator;
  }
  while (remainder >= denominator) {
    quotient += 1;
    remainder -= denominator;
  }
  quotients[index] = quotient;
  remainders[index] = remainder;
}

/**
 * The sign of `a·b − c·d`, exactly, for integers 0 ≤ a, b, c, d < 2^53.
 * @example compareProducts(3, 5, 4, 4) // -1
 */
export function compareProducts(a: number, b: number, c: number, d: number): -1 | 0 | 1 {
  const left = a * b;
  const right = c * d;
  // Rounding is monotonic and deterministic: different doubles mean the exact products differ the same way.
  if (left !== right) return left < right ? -1 : 1;
  if (left < TWO_53) return 0;
  const difference = productError(a, b, left) - productError(c, d, right);
  return difference < 0 ? -1 : difference > 0 ? 1 : 0;
}

/**
 * An integer amount of minor units as a canonical decimal string (no trailing zeros, no exponent).
 * @example formatMinor(12_340, 2) // '123.4'
 * @example formatMinor(5, 3) // '0.005'
 */
export function formatMinor(minor: number, digits: number): Dec {
  if (minor < 0) return `-${formatMinor(-minor, digits)}`;
  if (digits === 0) return String(minor);
  // Cents, the common case, without the general loop and padding: an invoice formats millions of them.
  if (digits === 2) {
    const whole = Math.floor(minor / 100);
    const cents = minor - whole * 100;
    if (cents === 0) return String(whole);
    if (cents % 10 === 0) return `${whole}.${cents / 10}`;
    return cents < 10 ? `${whole}.0${cents}` : `${whole}.${cents}`;
  }
  const scale = POW10[digits]!;
  const whole = Math.floor(minor / scale);
  let fraction = minor - whole * scale;
  if (fraction === 0) return String(whole);
  let places = digits;
  while (fraction % 10 === 0) {
    fraction /= 10;
    places -= 1;
  }
  return `${whole}.${String(fraction).padStart(places, '0')}`;
}

/**
 * An integer amount of minor units with exactly `digits` decimals, as the API presents money.
 * @example formatMinorFixed(12_340, 2) // '123.40'
 * @example formatMinorFixed(-5, 3) // '-0.005'
 */
export function formatMinorFixed(minor: number, digits: number): Dec {
  if (minor < 0) return `-${formatMinorFixed(-minor, digits)}`;
  if (digits === 0) return String(minor);
  const scale = POW10[digits]!;
  const whole = Math.floor(minor / scale);
  const fraction = minor - whole * scale;
  // Cents, the common case, without padding.
  if (digits === 2) return fraction < 10 ? `${whole}.0${fraction}` : `${whole}.${fraction}`;
  return `${whole}.${String(fraction).padStart(digits, '0')}`;
}

/** Amounts below this many minor units repeat across lines (small discounts, zero taxes): each writer formats them once. */
const SMALL_AMOUNTS = 4096;
/** How many small amounts a writer formats before it keeps them in a table. */
const TABLE_AFTER = 64;

/** What follows the whole part of an amount, per fraction of the minor unit ('' for none). */
function fractionSuffixes(digits: number, fixed: boolean): readonly string[] {
  return Array.from({ length: POW10[digits]! }, (_, fraction) => {
    if (digits === 0) return '';
    const padded = String(fraction).padStart(digits, '0');
    if (fixed) return `.${padded}`;
    const trimmed = padded.replace(/0+$/, '');
    return trimmed.length === 0 ? '' : `.${trimmed}`;
  });
}

/** The suffix tables of `formatMinor` and `formatMinorFixed` for 0 to 3 decimals (every ISO 4217 minor unit). */
const SUFFIXES = new Map<(minor: number, digits: number) => Dec, readonly (readonly string[])[]>([
  [formatMinor, [0, 1, 2, 3].map((digits) => fractionSuffixes(digits, false))],
  [formatMinorFixed, [0, 1, 2, 3].map((digits) => fractionSuffixes(digits, true))],
]);

/** "0" to "9999", and the same four digits zero-padded: built on first use (20,000 short strings). */
let fourDigits: { readonly plain: readonly string[]; readonly padded: readonly string[] } | undefined;

/**
 * `String(whole)` for a non-negative integer, from tables below 10^8: one concatenation of table strings
 * instead of a number conversion, which misses V8's small number-to-string cache for most amounts and
 * then costs a runtime call.
 */
function wholeText(whole: number): string {
  if (!(whole < 100_000_000)) return String(whole);
  fourDigits ??= {
    plain: Array.from({ length: 10_000 }, (_, value) => String(value)),
    padded: Array.from({ length: 10_000 }, (_, value) => String(value).padStart(4, '0')),
  };
  if (whole < 10_000) return fourDigits.plain[whole]!;
  const high = Math.floor(whole / 10_000);
  return fourDigits.plain[high]! + fourDigits.padded[whole - high * 10_000]!;
}

/**
 * `format(minor, digits)` for the many amounts of one calculation, the same strings for every input:
 * amounts below a few thousand minor units are formatted once per writer and then shared, and for
 * `formatMinor` and `formatMinorFixed` the whole part's digits and the fraction come from tables, so each
 * other amount costs a concatenation or two instead of a number conversion and a template's
 * intermediate strings.
 * @example minorWriter(formatMinor, 2)(12_340) // '123.4'
 * @example minorWriter(formatMinorFixed, 2)(5) // '0.05'
 */
export function minorWriter(
  format: (minor: number, digits: number) => Dec,
  digits: number,
): (minor: number) => Dec {
  // The table (32 KB) pays only over many amounts: an invoice of a line or two, most of them, writes a
  // handful and would leave it all to the collector. So the writer makes it at its TABLE_AFTER-th amount.
  let small: (Dec | undefined)[] | undefined;
  let written = 0;
  const suffixes = SUFFIXES.get(format)?.[digits];
  const scale = POW10[digits]!;
  return (minor) => {
    if (minor >= 0 && minor < SMALL_AMOUNTS) {
      const index = minor | 0;
      if (index === minor) {
        if (small === undefined) {
          written += 1;
          if (written < TABLE_AFTER) return format(minor, digits);
          // Sized up front: filled in any order, it stays a holey array rather than a dictionary.
          small = new Array(SMALL_AMOUNTS);
        }
        const known = small[index];
        if (known !== undefined) return known;
        const text = format(minor, digits);
        small[index] = text;
        return text;
      }
    }
    if (suffixes === undefined || !(minor >= 0)) return format(minor, digits);
    const whole = Math.floor(minor / scale);
    const suffix = suffixes[minor - whole * scale];
    // A fraction that is not a whole number of minor units has no suffix: the general path answers it.
    return suffix === undefined ? format(minor, digits) : wholeText(whole) + suffix;
  };
}
