/** The incremental calculator: after any sequence of edits it answers what a full recalculation answers. */
import { fc, test } from '@fast-check/vitest';
import { describe, expect } from 'vitest';
import {
  type CalcLine,
  calculateInvoice,
  createInvoiceCalculator,
  type InvoiceCalculationInput,
} from '../../../../src/domain/invoice/calculation/index.js';
import { invoiceArbitrary, priceArbitrary, quantityArbitrary } from './arbitraries.js';

interface Edit {
  readonly position: number;
  readonly line: Omit<CalcLine, 'uid'>;
  /** Give the line another line's uid (moves it between coupon restrictions). */
  readonly uidFrom: number;
  readonly check: boolean;
}

const editArbitrary = (huge: boolean): fc.Arbitrary<Edit> =>
  fc.record({
    position: fc.nat(),
    line: fc.record({
      quantity: huge ? quantityArbitrary : quantityArbitrary.filter((q) => q.length < 9),
      unitPrice: huge ? priceArbitrary : priceArbitrary.filter((p) => p.length < 12),
      taxable: fc.boolean(),
    }),
    uidFrom: fc.nat(),
    check: fc.boolean(),
  });

function replay(input: InvoiceCalculationInput, edits: readonly Edit[]): void {
  const calculator = createInvoiceCalculator(input);
  const lines = [...input.lines];
  calculator.totals();
  for (const edit of edits) {
    if (lines.length === 0) return;
    const index = edit.position % lines.length;
    const uid = lines[edit.uidFrom % lines.length]!.uid;
    const line: CalcLine = { uid, ...edit.line };
    lines[index] = line;
    calculator.updateLine(index, line);
    if (!edit.check) continue;
    const full = calculateInvoice({ ...input, lines });
    const { lines: fullLines, discounts, taxes, ...sums } = full;
    expect(calculator.totals()).toEqual({
      ...sums,
      discounts: discounts.map(({ breakouts: _breakouts, ...summary }) => summary),
      taxes: taxes.map(({ breakouts: _breakouts, ...summary }) => summary),
    });
    expect(calculator.line(index)).toEqual(fullLines[index]);
  }
  expect(calculator.calculation()).toEqual(calculateInvoice({ ...input, lines }));
  expect(calculator.lines()).toEqual(calculateInvoice({ ...input, lines }).lines);
}

describe('createInvoiceCalculator', () => {
  test.prop(
    [invoiceArbitrary({ minLines: 1, maxLines: 12 }), fc.array(editArbitrary(false), { maxLength: 12 })],
    {
      numRuns: 200,
    },
  )('the incremental calculator after any sequence of edits equals a full recalculation', (input, edits) => {
    replay(input, edits);
  });

  test.prop(
    [
      invoiceArbitrary({ minLines: 1, maxLines: 5, huge: true }),
      fc.array(editArbitrary(true), { maxLength: 8 }),
    ],
    {
      numRuns: 150,
    },
  )(
    'the incremental calculator equals a full recalculation across the exact fallback and back',
    (input, edits) => {
      replay(input, edits);
    },
  );
});
