/**
 * Component pricings for allocation laws: the request fields of each scheme and the same brackets for
 * the reference `priceQuantity`, so a test can say what a quantity costs without the engine.
 */
import { type PriceBracket, type PricingScheme, priceQuantity } from '../../../src/domain/pricing/index.js';
import { roundMoney, sub } from '../../../src/kernel/money.js';

export interface Pricing {
  readonly scheme: PricingScheme;
  readonly fields: Record<string, unknown>;
  readonly brackets: readonly PriceBracket[];
  /** Whether cost never falls as the quantity grows. */
  readonly monotone: boolean;
}

const bracketsOf = (prices: readonly [number, number | null, string][]): PriceBracket[] =>
  prices.map(([start, end, price]) => ({
    startingQuantity: String(start),
    endingQuantity: end === null ? null : String(end),
    unitPrice: price,
  }));

const wire = (prices: readonly [number, number | null, string][]) =>
  prices.map(([starting_quantity, ending_quantity, unit_price]) => ({
    starting_quantity,
    ending_quantity,
    unit_price,
  }));

const STEPS: readonly [number, number | null, string][] = [
  [1, 5, '10.25'],
  [6, 10, '8.4'],
  [11, null, '7.05'],
];
const STAIRS: readonly [number, number | null, string][] = [
  [1, 5, '30.5'],
  [6, 10, '55'],
  [11, null, '70.75'],
];

export const PRICINGS: Readonly<Record<PricingScheme, Pricing>> = {
  per_unit: {
    scheme: 'per_unit',
    fields: { pricing_scheme: 'per_unit', unit_price: '12.35' },
    brackets: bracketsOf([[1, null, '12.35']]),
    monotone: true,
  },
  volume: {
    scheme: 'volume',
    fields: { pricing_scheme: 'volume', prices: wire(STEPS) },
    brackets: bracketsOf(STEPS),
    monotone: false,
  },
  tiered: {
    scheme: 'tiered',
    fields: { pricing_scheme: 'tiered', prices: wire(STEPS) },
    brackets: bracketsOf(STEPS),
    monotone: true,
  },
  stairstep: {
    scheme: 'stairstep',
    fields: { pricing_scheme: 'stairstep', prices: wire(STAIRS) },
    brackets: bracketsOf(STAIRS),
    monotone: true,
  },
};

/** The exact cost of a quantity under a pricing. */
export function costOf(pricing: Pricing, quantity: number): string {
  const cost = priceQuantity(pricing.scheme, String(quantity), pricing.brackets);
  if (!cost.ok) throw new Error(cost.error.message);
  return cost.value.amount;
}

/** Cents of the full price difference from one quantity to another, rounded half-up once. */
export const fullDifferenceCents = (pricing: Pricing, from: number, to: number): number =>
  Math.round(Number(roundMoney(sub(costOf(pricing, to), costOf(pricing, from)), 'USD')) * 100);

/** The instant `seconds` after another. */
export const plusSeconds = (instant: string, seconds: number): string =>
  new Date(Date.parse(instant) + seconds * 1000).toISOString();
