/** The invoice calculation: one pure function for previews and commits, and an incremental calculator. */
export { calculateInvoice } from './calculate.js';
export { createInvoiceCalculator, type InvoiceCalculator } from './calculator.js';
export { calculatePlain, type PlainCalculation } from './plain.js';
export { calculateInvoiceReference } from './reference.js';
export type {
  BreakoutBuilders,
  CalcCoupon,
  CalcLine,
  CalcTax,
  CalculatedDiscount,
  CalculatedLine,
  CalculatedTax,
  DiscountBreakout,
  DiscountSummary,
  InvoiceCalculation,
  InvoiceCalculationInput,
  InvoiceCalculationWith,
  InvoiceColumns,
  InvoiceTotals,
  TaxBreakout,
  TaxSummary,
} from './types.js';
