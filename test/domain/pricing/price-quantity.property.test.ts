import { fc, test } from '@fast-check/vitest';
import { describe, expect } from 'vitest';
import { type PriceBracket, priceQuantity } from '../../../src/domain/pricing/index.js';
import { add, cmp, type Dec, mul } from '../../../src/kernel/money.js';

/** Prices are whole ten-thousandths ("the cost per unit can go up to 4 decimal points"). */
const PRICE_SCALE = 4;

/** A scaled integer as a canonical decimal string, computed without money.ts (an independent reference). */
function fromScaled(value: bigint, scale: number): Dec {
  const negative = value < 0n;
  const digits = (negative ? -value : value).toString().padStart(scale + 1, '0');
  const whole = digits.slice(0, digits.length - scale);
  const fraction = digits.slice(digits.length - scale).replace(/0+$/, '');
  const text = fraction.length > 0 ? `${whole}.${fraction}` : whole;
  return negative && text !== '0' ? `-${text}` : text;
}

interface Model {
  readonly brackets: readonly PriceBracket[];
  /** Whole bounds and prices in ten-thousandths, for the brute-force references. */
  readonly ranges: readonly { readonly start: number; readonly end: number | null; readonly price: bigint }[];
}

const modelArbitrary: fc.Arbitrary<Model> = fc
  .record({
    firstStart: fc.constantFrom(0, 1),
    widths: fc.array(fc.integer({ min: 1, max: 40 }), { minLength: 1, maxLength: 6 }),
    prices: fc.array(fc.bigInt({ min: 0n, max: 2_000_000n }), { minLength: 6, maxLength: 6 }),
    lastOpen: fc.boolean(),
  })
  .map(({ firstStart, widths, prices, lastOpen }) => {
    const ranges: { start: number; end: number | null; price: bigint }[] = [];
    let start = firstStart;
    for (const [index, width] of widths.entries()) {
      const end = start + width - 1;
      const isLast = index === widths.length - 1;
      ranges.push({ start, end: isLast && lastOpen ? null : end, price: prices[index] ?? 0n });
      start = end + 1;
    }
    const brackets = ranges.map((r) => ({
      startingQuantity: String(r.start),
      endingQuantity: r.end === null ? null : String(r.end),
      unitPrice: fromScaled(r.price, PRICE_SCALE),
    }));
    return { brackets, ranges };
  });

/** The range holding a whole quantity, by scanning: the last range when the quantity is past them all. */
function rangeHolding(model: Model, wholeQuantity: number) {
  const found = model.ranges.find(
    (r) => r.start <= wholeQuantity && (r.end === null || wholeQuantity <= r.end),
  );
  const last = model.ranges[model.ranges.length - 1];
  const firstRange = model.ranges[0];
  if (found) return found;
  if (firstRange && wholeQuantity < firstRange.start) return firstRange;
  if (!last) throw new Error('a model has ranges');
  return last;
}

const amountOf = (...args: Parameters<typeof priceQuantity>): Dec => {
  const result = priceQuantity(...args);
  if (!result.ok) throw new Error(`unexpected error ${result.error.code}`);
  return result.value.amount;
};

/** Quantities in hundredths, 0 to 400 units. */
const centiQuantity = fc.integer({ min: 0, max: 40_000 });
const wholeQuantity = fc.integer({ min: 0, max: 400 });

describe('pricing scheme laws', () => {
  test.prop([modelArbitrary, centiQuantity, centiQuantity])(
    'tiered cost is monotone non-decreasing in the quantity',
    (model, a, b) => {
      const [low, high] = a <= b ? [a, b] : [b, a];
      const lowCost = amountOf('tiered', fromScaled(BigInt(low), 2), model.brackets);
      const highCost = amountOf('tiered', fromScaled(BigInt(high), 2), model.brackets);
      expect(cmp(lowCost, highCost)).toBeLessThanOrEqual(0);
    },
  );

  test.prop([modelArbitrary, wholeQuantity])(
    'tiered cost of whole units equals the sum of each unit priced by its own tier',
    (model, quantity) => {
      let total = 0n;
      for (let unit = 1; unit <= quantity; unit += 1) total += rangeHolding(model, unit).price;
      expect(amountOf('tiered', String(quantity), model.brackets)).toBe(fromScaled(total, PRICE_SCALE));
    },
  );

  test.prop([modelArbitrary, wholeQuantity, fc.integer({ min: 1, max: 99 })])(
    'tiered cost of a fractional quantity adds the fraction at the next unit tier price',
    (model, whole, hundredths) => {
      const quantity = fromScaled(BigInt(whole * 100 + hundredths), 2);
      const fractionCost = mul(
        fromScaled(BigInt(hundredths), 2),
        fromScaled(rangeHolding(model, whole + 1).price, 4),
      );
      const expected = add(amountOf('tiered', String(whole), model.brackets), fractionCost);
      expect(amountOf('tiered', quantity, model.brackets)).toBe(expected);
    },
  );

  test.prop([modelArbitrary, centiQuantity])(
    'volume agrees with a brute-force scan: every unit at the price of the range holding ⌈q⌉',
    (model, hundredths) => {
      const price = hundredths === 0 ? 0n : rangeHolding(model, Math.ceil(hundredths / 100)).price;
      const expected = fromScaled(BigInt(hundredths) * price, 2 + PRICE_SCALE);
      expect(amountOf('volume', fromScaled(BigInt(hundredths), 2), model.brackets)).toBe(expected);
    },
  );

  test.prop([modelArbitrary, centiQuantity])(
    'stairstep agrees with a brute-force scan: the price of the range holding ⌈q⌉, once',
    (model, hundredths) => {
      const expected =
        hundredths === 0 ? '0' : fromScaled(rangeHolding(model, Math.ceil(hundredths / 100)).price, 4);
      expect(amountOf('stairstep', fromScaled(BigInt(hundredths), 2), model.brackets)).toBe(expected);
    },
  );

  test.prop([fc.bigInt({ min: 0n, max: 10n ** 9n }), centiQuantity, centiQuantity])(
    'per_unit is linear: cost(a + b) = cost(a) + cost(b) = (a + b) × price',
    (scaledPrice, a, b) => {
      const price = fromScaled(scaledPrice, PRICE_SCALE);
      const [qa, qb] = [fromScaled(BigInt(a), 2), fromScaled(BigInt(b), 2)];
      const together = amountOf('per_unit', fromScaled(BigInt(a + b), 2), [], price);
      expect(together).toBe(add(amountOf('per_unit', qa, [], price), amountOf('per_unit', qb, [], price)));
      expect(together).toBe(fromScaled(BigInt(a + b) * scaledPrice, 2 + PRICE_SCALE));
    },
  );

  test.prop([modelArbitrary, centiQuantity])(
    'the tiered breakdown adds up to the amount and its quantities to the quantity',
    (model, hundredths) => {
      const quantity = fromScaled(BigInt(hundredths), 2);
      const result = priceQuantity('tiered', quantity, model.brackets);
      if (!result.ok) throw new Error(result.error.code);
      const parts = result.value.breakdown;
      expect(parts.reduce((acc, part) => add(acc, part.amount), '0')).toBe(result.value.amount);
      expect(parts.reduce((acc, part) => add(acc, part.quantity), '0')).toBe(quantity);
    },
  );
});
