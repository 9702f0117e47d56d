/** fast-check arbitraries for the invoice calculation: decimals, lines, coupons, taxes, invoices. */
import { fc } from '@fast-check/vitest';
import type {
  CalcCoupon,
  CalcLine,
  CalcTax,
  InvoiceCalculationInput,
} from '../../../../src/domain/invoice/calculation/index.js';
import type { Dec } from '../../../../src/kernel/money.js';

/** A scaled integer as a canonical decimal string (written without money.ts or scaled.ts). */
export function fromScaled(value: bigint, scale: number): Dec {
  const negative = value < 0n;
  const digits = (negative ? -value : value).toString().padStart(scale + 1, '0');
  const whole = digits.slice(0, digits.length - scale);
  const fraction = digits.slice(digits.length - scale).replace(/0+$/, '');
  const text = fraction.length > 0 ? `${whole}.${fraction}` : whole;
  return negative && text !== '0' ? `-${text}` : text;
}

/** A canonical decimal string as a scaled integer. */
export function parseScaled(text: Dec): { readonly value: bigint; readonly scale: number } {
  const [whole = '', fraction = ''] = text.split('.');
  return { value: BigInt(whole + fraction), scale: fraction.length };
}

/** A non-negative decimal with up to `places` decimals and at most `max` (in units of the last place). */
const scaledDecimal = (max: bigint, places: number): fc.Arbitrary<Dec> =>
  fc.bigInt({ min: 0n, max }).map((value) => fromScaled(value, places));

/** Decimals of every shape the calculation meets: small, 4-decimal, long, huge, zero. */
export const decimalArbitrary: fc.Arbitrary<Dec> = fc.oneof(
  fc.constantFrom('0', '1', '0.5', '0.005', '0.0001', '100', '99999999.9999'),
  fc.integer({ min: 0, max: 4 }).chain((places) => scaledDecimal(10n ** BigInt(places + 4), places)),
  fc.integer({ min: 0, max: 10 }).chain((places) => scaledDecimal(10n ** 18n, places)),
  scaledDecimal(10n ** 30n, 6),
);

/** Quantities: mostly 1–1000, some with up to 4 decimals, zero, and a few huge (beyond the fast parse). */
export const quantityArbitrary: fc.Arbitrary<Dec> = fc.oneof(
  { weight: 6, arbitrary: fc.integer({ min: 1, max: 1000 }).map(String) },
  {
    weight: 3,
    arbitrary: fc
      .integer({ min: 1, max: 4 })
      .chain((places) => scaledDecimal(10n ** BigInt(places + 3), places)),
  },
  { weight: 1, arbitrary: fc.constant('0') },
  { weight: 1, arbitrary: fc.constantFrom('1000000', '123456789.1234', '0.0001') },
);

/** Unit prices: up to 4 decimals mostly, some with 8, a few huge. */
export const priceArbitrary: fc.Arbitrary<Dec> = fc.oneof(
  {
    weight: 6,
    arbitrary: fc
      .integer({ min: 0, max: 4 })
      .chain((places) => scaledDecimal(10n ** BigInt(places + 4), places)),
  },
  { weight: 2, arbitrary: scaledDecimal(10n ** 10n, 8) },
  { weight: 1, arbitrary: fc.constantFrom('0', '99999999.9999', '12345678901.5', '0.005', '0.335') },
);

/** Percentages 0–100 with up to 4 decimals, biased to the ends. */
export const percentageArbitrary: fc.Arbitrary<Dec> = fc.oneof(
  { weight: 2, arbitrary: fc.constantFrom('0', '100', '50', '10', '8.875', '33.3333', '99.9999') },
  { weight: 5, arbitrary: scaledDecimal(1_000_000n, 4) },
);

/** The size and shape of a generated invoice. */
export interface InvoiceShape {
  readonly minLines?: number;
  readonly maxLines?: number;
  readonly maxCoupons?: number;
  readonly maxTaxes?: number;
  /** Allow restricted coupons (eligibleLineUids). */
  readonly restrictions?: boolean;
  /** Allow the line shapes that force the per-line BigInt path or the exact fallback. */
  readonly huge?: boolean;
}

const lineArbitrary = (index: number, huge: boolean): fc.Arbitrary<CalcLine> =>
  fc
    .record({
      quantity: huge ? quantityArbitrary : quantityArbitrary.filter((q) => q.length < 9),
      unitPrice: huge ? priceArbitrary : priceArbitrary.filter((p) => p.length < 12),
      taxable: fc.boolean(),
      subtotal: fc.option(scaledDecimal(10n ** 9n, 4), { nil: undefined, freq: 8 }),
    })
    .map(({ subtotal, ...line }) => ({
      uid: `li_${index}`,
      ...line,
      ...(subtotal === undefined ? {} : { subtotal }),
    }));

const couponArbitrary = (
  index: number,
  uids: readonly string[],
  restrictions: boolean,
): fc.Arbitrary<CalcCoupon> =>
  fc
    .record({
      kind: fc.constantFrom('percentage', 'percentage', 'amount'),
      percentage: percentageArbitrary,
      amount: fc.oneof(
        scaledDecimal(100_000n, 2),
        scaledDecimal(10n ** 12n, 2),
        fc.constant('100000000000000000000'),
      ),
      compoundingStrategy: fc.constantFrom('compound', 'full-price'),
      restricted: restrictions ? fc.boolean() : fc.constant(false),
      eligible: fc.array(fc.boolean(), { minLength: uids.length, maxLength: uids.length }),
    })
    .map(({ kind, percentage, amount, compoundingStrategy, restricted, eligible }) => ({
      code: `C${index}`,
      kind,
      ...(kind === 'percentage' ? { percentage } : { amount }),
      compoundingStrategy,
      ...(restricted ? { eligibleLineUids: uids.filter((_, line) => eligible[line]) } : {}),
      sourceId: 100 + index,
    }));

const taxArbitrary = (index: number): fc.Arbitrary<CalcTax> =>
  percentageArbitrary.map((percentage) => ({ name: `Tax ${index}`, percentage, sourceId: 200 + index }));

/** Invoices in USD, JPY or KWD with lines, stacked coupons and taxes. */
export function invoiceArbitrary(shape: InvoiceShape = {}): fc.Arbitrary<InvoiceCalculationInput> {
  const {
    minLines = 0,
    maxLines = 12,
    maxCoupons = 4,
    maxTaxes = 3,
    restrictions = true,
    huge = false,
  } = shape;
  return fc
    .record({
      currency: fc.constantFrom('USD', 'JPY', 'KWD'),
      lineCount: fc.integer({ min: minLines, max: maxLines }),
      couponCount: fc.integer({ min: 0, max: maxCoupons }),
      taxCount: fc.integer({ min: 0, max: maxTaxes }),
    })
    .chain(({ currency, lineCount, couponCount, taxCount }) => {
      const uids = Array.from({ length: lineCount }, (_, index) => `li_${index}`);
      return fc.record({
        currency: fc.constant(currency),
        lines: fc.tuple(...uids.map((_, index) => lineArbitrary(index, huge))),
        coupons: fc.tuple(
          ...Array.from({ length: couponCount }, (_, index) => couponArbitrary(index, uids, restrictions)),
        ),
        taxes: fc.tuple(...Array.from({ length: taxCount }, (_, index) => taxArbitrary(index))),
      });
    });
}

/** Decimal places of the minor unit of each currency the arbitraries use. */
const MINOR_DIGITS: Readonly<Record<string, number>> = { USD: 2, JPY: 0, KWD: 3 };

/**
 * Invoices whose amounts sit at the edge of the integer fast path: the line subtotals add up to within a
 * few thousand minor units of 2^50 (`SCALED_LIMIT`), on either side, so that sums, discounts or taxes cross
 * the limit in some cases and stay just inside it in others. Lines are priced either as quantity × unit
 * price (with sub-minor digits that round) or by a given subtotal.
 */
export function nearLimitInvoiceArbitrary(limit: bigint): fc.Arbitrary<InvoiceCalculationInput> {
  return fc
    .record({
      currency: fc.constantFrom('USD', 'JPY', 'KWD'),
      offset: fc.oneof(fc.bigInt({ min: -3000n, max: 3000n }), fc.constantFrom(-1n, 0n, 1n)),
      weights: fc.array(fc.integer({ min: 1, max: 1000 }), { minLength: 1, maxLength: 4 }),
      priced: fc.array(fc.constantFrom('quantity', 'double', 'subtotal', 'rounding'), {
        minLength: 4,
        maxLength: 4,
      }),
      taxable: fc.array(fc.boolean(), { minLength: 4, maxLength: 4 }),
      couponCount: fc.integer({ min: 0, max: 3 }),
      taxCount: fc.integer({ min: 0, max: 2 }),
    })
    .chain(({ currency, offset, weights, priced, taxable, couponCount, taxCount }) => {
      const digits = MINOR_DIGITS[currency] ?? 2;
      const target = limit + offset;
      const weightSum = BigInt(weights.reduce((sum, weight) => sum + weight, 0));
      let given = 0n;
      const lines: CalcLine[] = weights.map((weight, index) => {
        const part = index === weights.length - 1 ? target - given : (target * BigInt(weight)) / weightSum;
        given += part;
        const uid = `li_${index}`;
        const line = { uid, taxable: taxable[index] ?? true };
        switch (priced[index]) {
          case 'double':
            // Two units at half the price: the half may end in a sub-minor 5 that rounds up.
            return { ...line, quantity: '2', unitPrice: fromScaled(part * 5n, digits + 1) };
          case 'subtotal':
            return { ...line, quantity: '1', unitPrice: '0', subtotal: fromScaled(part, digits) };
          case 'rounding':
            // A sub-minor 4 that rounds down to the same part.
            return { ...line, quantity: '1', unitPrice: fromScaled(part * 10n + 4n, digits + 1) };
          default:
            return { ...line, quantity: '1', unitPrice: fromScaled(part, digits) };
        }
      });
      const uids = lines.map((line) => line.uid);
      return fc.record({
        currency: fc.constant(currency),
        lines: fc.constant(lines),
        coupons: fc.tuple(
          ...Array.from({ length: couponCount }, (_, index) => couponArbitrary(index, uids, true)),
        ),
        taxes: fc.tuple(...Array.from({ length: taxCount }, (_, index) => taxArbitrary(index))),
      });
    });
}
