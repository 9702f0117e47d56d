/**
 * The bridge from invoice records to the invoice calculation: it prices the lines of a new or changed
 * invoice and returns the amounts the record stores.
 */

import type { SiteTaxRate } from '../../domain/site/config.js';
import { add, allocate, type Dec, isZero, mul, percentOf, roundMoney, sub, sum } from '../../kernel/money.js';

export interface MathLine {
  readonly uid: string;
  readonly quantity: Dec;
  readonly unitPrice: Dec;
  readonly taxable: boolean;
  /** Already priced (tiered components): the subtotal before rounding. */
  readonly amount?: Dec;
}

export interface MathResult {
  readonly lines: readonly {
    readonly subtotal: Dec;
    readonly discount: Dec;
    readonly tax: Dec;
    readonly total: Dec;
  }[];
  readonly taxes: readonly {
    readonly name: string;
    readonly percentage: Dec;
    readonly taxableAmount: Dec;
    readonly taxAmount: Dec;
    readonly breakouts: readonly {
      readonly uid: string;
      readonly taxableAmount: Dec;
      readonly taxAmount: Dec;
    }[];
  }[];
  readonly subtotal: Dec;
  readonly discount: Dec;
  readonly tax: Dec;
  readonly total: Dec;
}

/** Prices lines and applies taxes (CONTRACT section 7). */
export function computeInvoiceAmounts(
  currency: string,
  lines: readonly MathLine[],
  taxes: readonly SiteTaxRate[],
): MathResult {
  const subtotals = lines.map((line) =>
    roundMoney(line.amount ?? mul(line.quantity, line.unitPrice), currency),
  );
  const lineTaxes = lines.map(() => '0');
  const taxResults = taxes.map((rate) => {
    const taxableIndexes = lines.flatMap((line, index) => (line.taxable ? [index] : []));
    const taxableAmounts = taxableIndexes.map((index) => subtotals[index] ?? '0');
    const taxableAmount = sum(taxableAmounts);
    const taxAmount = roundMoney(percentOf(taxableAmount, rate.percentage), currency);
    const parts = isZero(taxAmount)
      ? taxableAmounts.map(() => '0')
      : allocate(taxAmount, taxableAmounts, currency);
    const breakouts = taxableIndexes.map((index, position) => {
      const part = parts[position] ?? '0';
      lineTaxes[index] = add(lineTaxes[index] ?? '0', part);
      return {
        uid: lines[index]?.uid ?? '',
        taxableAmount: taxableAmounts[position] ?? '0',
        taxAmount: part,
      };
    });
    return { name: rate.name, percentage: rate.percentage, taxableAmount, taxAmount, breakouts };
  });
  const resultLines = subtotals.map((subtotal, index) => {
    const tax = lineTaxes[index] ?? '0';
    return { subtotal, discount: '0', tax, total: add(subtotal, tax) };
  });
  const subtotal = sum(subtotals);
  const tax = sum(taxResults.map((result) => result.taxAmount));
  return {
    lines: resultLines,
    taxes: taxResults,
    subtotal,
    discount: '0',
    tax,
    total: sub(add(subtotal, tax), '0'),
  };
}
