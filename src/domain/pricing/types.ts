/**
 * The vocabulary of pricing: schemes, price brackets, what a quantity costs, and why it cannot be priced.
 */
import type { Dec } from '../../kernel/money.js';
import type { DomainError } from '../errors.js';

/** The pricing schemes of a price point, as the API spells them. */
export const PRICING_SCHEMES = ['per_unit', 'volume', 'tiered', 'stairstep'] as const;

/** How a price point turns a quantity into an amount. */
export type PricingScheme = (typeof PRICING_SCHEMES)[number];

/**
 * Whether a value names a pricing scheme; for decoding untrusted input.
 * @example isPricingScheme('tiered') // true
 * @example isPricingScheme('flat') // false
 */
export const isPricingScheme = (value: unknown): value is PricingScheme =>
  typeof value === 'string' && (PRICING_SCHEMES as readonly string[]).includes(value);

/**
 * One price of a price point: the whole quantities `startingQuantity..endingQuantity` (inclusive), or from
 * `startingQuantity` up when `endingQuantity` is null, at `unitPrice` each (or flat, for stairstep).
 */
export interface PriceBracket {
  /** The bracket's first quantity (whole). */
  readonly startingQuantity: Dec;
  /** Its last quantity (whole), or null for no upper bound. */
  readonly endingQuantity: Dec | null;
  /** The price of each unit in it (the whole amount, once, for stairstep). */
  readonly unitPrice: Dec;
}

/** The part of a cost that one bracket contributes (an invoice line's `component_cost_data` tier). */
export interface BracketCharge {
  readonly startingQuantity: Dec;
  readonly endingQuantity: Dec | null;
  /** The units of the quantity this bracket priced. */
  readonly quantity: Dec;
  readonly unitPrice: Dec;
  /** Unrounded. */
  readonly amount: Dec;
}

/** What a quantity costs under a price point. Nothing here is rounded: rounding happens on the invoice line. */
export interface QuantityCost {
  /** The exact cost. */
  readonly amount: Dec;
  /**
   * The unit price an invoice line shows: the applicable price (per_unit, volume), the flat bracket price
   * (stairstep), or the blended `amount / quantity` (tiered, to 8 decimal places, as the official API).
   */
  readonly unitPrice: Dec;
  /** True for the tiered scheme, whose unit price is a blend (`tiered_unit_price` on the line). */
  readonly tiered: boolean;
  /** The brackets that priced some of the quantity, in bracket order; empty for a zero quantity. */
  readonly breakdown: readonly BracketCharge[];
}

/** Stable codes of the pricing errors. */
export type PricingErrorCode =
  | 'quantity_negative'
  | 'prices_missing'
  | 'price_negative'
  | 'bracket_bound_invalid'
  | 'bracket_first_start_invalid'
  | 'bracket_end_before_start'
  | 'bracket_open_ended_not_last'
  | 'brackets_not_contiguous'
  | 'per_unit_price_ambiguous';

/** Why a quantity cannot be priced: a domain error value (422), never thrown. */
export interface PricingError extends DomainError {
  readonly code: PricingErrorCode;
  readonly status: 422;
  /** The request field at fault. */
  readonly field: 'quantity' | 'prices' | 'unit_price';
  readonly message: string;
  /** The position of the offending bracket in `prices`, when one is at fault. */
  readonly index?: number;
}

/**
 * Builds a pricing error value.
 * @example pricingError('prices_missing', 'prices', 'a tiered price point needs at least one price')
 */
export function pricingError(
  code: PricingErrorCode,
  field: PricingError['field'],
  message: string,
  index?: number,
): PricingError {
  return index === undefined
    ? { code, status: 422, field, message }
    : { code, status: 422, field, message, index };
}
