/**
 * The invoice calculation's input and output: plain data, amounts as canonical decimal strings (`Dec`).
 * Formatting to the currency's decimals (`"10.50"`) is the API layer's job.
 */
import type { Dec } from '../../../kernel/money.js';

/** One invoice line as the calculation sees it. Other fields (title, period, ...) may ride along. */
export interface CalcLine {
  /** The line's id, which its breakouts repeat. */
  readonly uid: string;
  /** Non-negative. */
  readonly quantity: Dec;
  /** Non-negative. For a line the caller priced itself (tiered component), the blended unit price. */
  readonly unitPrice: Dec;
  /** Whether the invoice's taxes apply to this line. */
  readonly taxable: boolean;
  /** The amount the caller already priced (e.g. tiered): used instead of quantity × unit price, rounded. */
  readonly subtotal?: Dec;
}

/** A coupon applied to the invoice, already resolved from the catalog by the caller. */
export interface CalcCoupon {
  /** The coupon's code, as the discount shows it. */
  readonly code: string;
  /** A percentage of what it applies to, or a fixed amount. */
  readonly kind: 'percentage' | 'amount';
  /** Percentage coupons: 0 to 100 (more is treated as "everything that is left"). */
  readonly percentage?: Dec;
  /** Amount coupons: the nominal amount, in currency units. */
  readonly amount?: Dec;
  /** Percentage coupons only; an amount coupon always works on the original subtotal. */
  readonly compoundingStrategy: 'compound' | 'full-price';
  /** The uids of the lines the coupon applies to; undefined means every line. */
  readonly eligibleLineUids?: readonly string[];
  /** The catalog coupon's id, if any; carried into the discount. */
  readonly sourceId?: number;
  /** The discount's title; carried into it. */
  readonly title?: string;
  /** The discount's description; carried into it. */
  readonly description?: string;
}

/** A tax rate that applies to this invoice's customer (already filtered by the caller). */
export interface CalcTax {
  /** The tax's name, as the invoice shows it. */
  readonly name: string;
  /** Non-negative, e.g. `"8.875"`. */
  readonly percentage: Dec;
  /** The site tax rate's id, if any; carried into the tax. */
  readonly sourceId?: number;
}

/** What the calculation needs: lines, coupons in request order, taxes. */
export interface InvoiceCalculationInput {
  /** ISO 4217 code; amounts round half up to its minor unit. */
  readonly currency: string;
  /** The invoice's lines, in order. */
  readonly lines: readonly CalcLine[];
  /**
   * The coupons, in the order they apply (each percentage coupon compounds on what the earlier ones left
   * unless `full-price`).
   */
  readonly coupons: readonly CalcCoupon[];
  /** The tax rates that apply to the invoice. */
  readonly taxes: readonly CalcTax[];
}

/** A line's amounts after discounts and taxes. */
export interface CalculatedLine {
  readonly uid: string;
  readonly subtotal: Dec;
  readonly discount: Dec;
  readonly tax: Dec;
  /** subtotal − discount + tax */
  readonly total: Dec;
}

/** One line's part of a discount. */
export interface DiscountBreakout {
  readonly uid: string;
  /** What the coupon computed on for this line: what was left (compound) or the original subtotal. */
  readonly eligibleAmount: Dec;
  readonly discountAmount: Dec;
}

/** A coupon's invoice-level figures (no breakouts). */
export interface DiscountSummary {
  readonly code: string;
  readonly kind: 'percentage' | 'amount';
  readonly compoundingStrategy: 'compound' | 'full-price';
  readonly percentage?: Dec;
  readonly amount?: Dec;
  readonly sourceId?: number;
  readonly title?: string;
  readonly description?: string;
  /** Σ of the eligible lines' amounts the coupon computed on. */
  readonly eligibleAmount: Dec;
  /** The discount, rounded once at invoice level and capped at what was left. */
  readonly discountAmount: Dec;
}

/** A coupon's figures with the split over its eligible lines (in line order). */
export interface CalculatedDiscount extends DiscountSummary {
  readonly breakouts: readonly DiscountBreakout[];
}

/** One line's part of a tax. A line outside the tax shows its net amount as exempt. */
export interface TaxBreakout {
  readonly uid: string;
  readonly taxableAmount: Dec;
  readonly taxAmount: Dec;
  readonly taxExemptAmount: Dec;
}

/** A tax's invoice-level figures (no breakouts). */
export interface TaxSummary {
  readonly name: string;
  readonly percentage: Dec;
  readonly sourceId?: number;
  /** Σ over taxable lines of (subtotal − discount). */
  readonly taxableAmount: Dec;
  /** taxable amount × rate / 100, rounded once. */
  readonly taxAmount: Dec;
  /** Σ over the other lines of (subtotal − discount). */
  readonly taxExemptAmount: Dec;
}

/** A tax's figures with the split over every line (in line order). */
export interface CalculatedTax extends TaxSummary {
  readonly breakouts: readonly TaxBreakout[];
}

/** The invoice-level figures: what a preview's summary or a list needs, without per-line detail. */
export interface InvoiceTotals {
  /** The ISO 4217 currency of the amounts. */
  readonly currency: string;
  /** Σ of the lines' subtotals. */
  readonly subtotal: Dec;
  /** Σ of the discounts. */
  readonly discount: Dec;
  /** Σ of the taxes. */
  readonly tax: Dec;
  /** subtotal − discount + tax */
  readonly total: Dec;
  /** Each coupon's figures, in the order applied. */
  readonly discounts: readonly DiscountSummary[];
  /** Each tax's figures. */
  readonly taxes: readonly TaxSummary[];
}

/** The whole calculation: totals, lines, discounts and taxes with their breakouts. */
export interface InvoiceCalculation {
  /** The ISO 4217 currency of the amounts. */
  readonly currency: string;
  /** Σ of the lines' subtotals. */
  readonly subtotal: Dec;
  /** Σ of the discounts. */
  readonly discount: Dec;
  /** Σ of the taxes. */
  readonly tax: Dec;
  /** Subtotal − discount + tax. */
  readonly total: Dec;
  /** Each line's amounts, in line order. */
  readonly lines: readonly CalculatedLine[];
  /** Each coupon's figures and split over its lines, in the order applied. */
  readonly discounts: readonly CalculatedDiscount[];
  /** Each tax's figures and split over the lines. */
  readonly taxes: readonly CalculatedTax[];
}

/**
 * Builders of a calculation's breakout objects (`InvoiceCalculator.calculationWith`): a caller that
 * stores or sends the breakouts in a shape of its own builds them once, in that shape, instead of
 * copying a million plain ones. The amounts they receive are already written by `formatMinor` (from
 * the integer fast path) or `formatDecimal` (from the exact reference).
 */
export interface BreakoutBuilders<D, T> {
  /** Minor units as the breakouts' text, for instance `formatMinor` of kernel/scaled.ts. */
  readonly formatMinor: (minor: number, digits: number) => Dec;
  /** A canonical decimal amount as the breakouts' text. */
  readonly formatDecimal: (value: Dec) => Dec;
  /** Builds one line's part of a discount. */
  readonly discount: (uid: string, eligibleAmount: Dec, discountAmount: Dec) => D;
  /** Builds one line's part of a tax. */
  readonly tax: (uid: string, taxableAmount: Dec, taxAmount: Dec, taxExemptAmount: Dec) => T;
}

/** `InvoiceCalculation` with breakouts built by `BreakoutBuilders`. */
export interface InvoiceCalculationWith<D, T> extends Omit<InvoiceCalculation, 'discounts' | 'taxes'> {
  /** Each coupon's figures, in the order applied, with its breakouts in the caller's shape. */
  readonly discounts: readonly (DiscountSummary & {
    /** The coupon's split over its eligible lines, in line order, as `BreakoutBuilders.discount` built it. */
    readonly breakouts: readonly D[];
  })[];
  /** Each tax's figures, with its breakouts in the caller's shape. */
  readonly taxes: readonly (TaxSummary & {
    /** The tax's split over every line, in line order, as `BreakoutBuilders.tax` built it. */
    readonly breakouts: readonly T[];
  })[];
}

/**
 * The per-line results as integer minor units in typed arrays (index = line index), for hosts that
 * handle many lines: no string is built until asked for. Treat the arrays as read-only. Breakouts are in
 * `InvoiceCalculation`.
 */
export interface InvoiceColumns {
  /** Decimal places of the currency's minor unit: an amount is `column[i] / 10^minorDigits`. */
  readonly minorDigits: number;
  readonly subtotal: Float64Array;
  readonly discount: Float64Array;
  readonly tax: Float64Array;
  readonly total: Float64Array;
}
