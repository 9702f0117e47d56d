/**
 * Exact arithmetic on small decimals in doubles: the fast path of money.ts's `add`, `sub`, `mul`, `cmp`
 * and the sign tests. A plain decimal (`-?digits(.digits)?`) of at most 15 significant digits is an integer
 * mantissa below 2^53 and a scale, and sums, differences and products of such mantissas are exact while
 * they stay below 2^53, which every function checks. Anything else (more digits, an exponent, a result out
 * of range) answers `undefined` and money.ts falls back to decimal.js. The answers are decimal.js's,
 * spelling included (`toFixed()` without trailing zeros, never `-0`): a differential property test holds
 * them to it.
 */

/** Scale (digits after the point) of the mantissa `mantissaOf` returned last. Scratch, not state. */
let parsedScale = 0;

const MAX_DIGITS = 15;
/** Below this, two aligned mantissas add without leaving the exact range. */
const ADD_LIMIT = 2 ** 52;
const EXACT_LIMIT = 2 ** 53;
const POW10: readonly number[] = Array.from({ length: 16 }, (_, power) => 10 ** power);
const MINUS = 45;
const POINT = 46;
const DIGIT_0 = 48;

/** The signed mantissa of a plain decimal of at most 15 significant digits (scale in `parsedScale`), or NaN. */
function mantissaOf(text: string): number {
  const length = text.length;
  let position = length > 0 && text.charCodeAt(0) === MINUS ? 1 : 0;
  const negative = position === 1;
  let mantissa = 0;
  let significant = 0;
  let scale = 0;
  let wholeDigits = 0;
  let afterPoint = false;
  for (; position < length; position += 1) {
    const code = text.charCodeAt(position);
    if (code === POINT) {
      if (afterPoint || wholeDigits === 0) return Number.NaN;
      afterPoint = true;
      continue;
    }
    const digit = code - DIGIT_0;
    if (digit < 0 || digit > 9) return Number.NaN;
    if (afterPoint) scale += 1;
    else wholeDigits += 1;
    if (mantissa === 0 && digit === 0) continue;
    if (++significant > MAX_DIGITS || scale >= POW10.length) return Number.NaN;
    mantissa = mantissa * 10 + digit;
  }
  // A trailing point (`5.`) or no digit at all is left to decimal.js.
  if (wholeDigits === 0 || (afterPoint && scale === 0)) return Number.NaN;
  parsedScale = scale;
  return negative ? -mantissa : mantissa;
}

/** The mantissa moved to a larger scale, or NaN when it would leave the range of exact addition. */
function aligned(mantissa: number, from: number, to: number): number {
  const moved = mantissa * (POW10[to - from] ?? Number.NaN);
  return Math.abs(moved) < ADD_LIMIT ? moved : Number.NaN;
}

/** decimal.js's `toFixed()` of mantissa × 10^-scale: no trailing zeros in the fraction, no `-0`. */
function spell(mantissa: number, scale: number): string {
  if (mantissa === 0) return '0';
  let value = mantissa;
  let places = scale;
  while (places > 0 && value % 10 === 0) {
    value /= 10;
    places -= 1;
  }
  const sign = value < 0 ? '-' : '';
  const digits = String(Math.abs(value));
  if (places === 0) return sign + digits;
  if (digits.length > places) return `${sign}${digits.slice(0, -places)}.${digits.slice(-places)}`;
  return `${sign}0.${'0'.repeat(places - digits.length)}${digits}`;
}

/*
 * The two operands of the last `aligned` call at one scale: module fields rather than an object, which
 * every sum, difference and comparison of a renewal (a dozen) allocated.
 */
let alignedX = 0;
let alignedY = 0;
let alignedScale = 0;

/** Whether both operands are in the fast range, with them at one scale in `alignedX`, `alignedY`. */
function alignBoth(a: string, b: string): boolean {
  const x = mantissaOf(a);
  const xScale = parsedScale;
  const y = mantissaOf(b);
  const yScale = parsedScale;
  if (Number.isNaN(x) || Number.isNaN(y)) return false;
  const scale = Math.max(xScale, yScale);
  alignedX = aligned(x, xScale, scale);
  alignedY = aligned(y, yScale, scale);
  alignedScale = scale;
  return !(Number.isNaN(alignedX) || Number.isNaN(alignedY));
}

/** `a + b`, or undefined outside the fast path. */
export function smallAdd(a: string, b: string): string | undefined {
  return alignBoth(a, b) ? spell(alignedX + alignedY, alignedScale) : undefined;
}

/** `a − b`, or undefined outside the fast path. */
export function smallSub(a: string, b: string): string | undefined {
  return alignBoth(a, b) ? spell(alignedX - alignedY, alignedScale) : undefined;
}

/** `a × b`, or undefined outside the fast path. */
export function smallMul(a: string, b: string): string | undefined {
  const x = mantissaOf(a);
  const xScale = parsedScale;
  const y = mantissaOf(b);
  if (Number.isNaN(x) || Number.isNaN(y)) return undefined;
  const product = x * y;
  // Rounding is monotonic: an exact product at or past 2^53 never rounds below it.
  return Math.abs(product) < EXACT_LIMIT ? spell(product, xScale + parsedScale) : undefined;
}

/** -1, 0 or 1, or undefined outside the fast path. */
export function smallCmp(a: string, b: string): -1 | 0 | 1 | undefined {
  if (!alignBoth(a, b)) return undefined;
  return alignedX < alignedY ? -1 : alignedX > alignedY ? 1 : 0;
}

/** The sign of a value (-1, 0 or 1), or undefined outside the fast path. */
export function smallSign(a: string): -1 | 0 | 1 | undefined {
  const x = mantissaOf(a);
  if (Number.isNaN(x)) return undefined;
  return x < 0 ? -1 : x > 0 ? 1 : 0;
}

/** The value in units of 10^-places when it has at most `places` decimals (no rounding needed), or undefined. */
export function smallScaled(a: string, places: number): number | undefined {
  const x = mantissaOf(a);
  if (Number.isNaN(x) || parsedScale > places) return undefined;
  const scaled = x * (POW10[places - parsedScale] ?? Number.NaN);
  // `+ 0` turns a negative zero into 0, as decimal.js's answer reads once presented.
  return Math.abs(scaled) < EXACT_LIMIT ? scaled + 0 : undefined;
}
