/**
 * The lines as columns: each line's rounded subtotal in minor units and its class, plus each class's
 * subtotal sum. Parsing happens once per line here; everything after works on integers.
 */
import { roundedMinor, roundedProductMinor, SCALED_LIMIT } from '../../../kernel/scaled.js';
import { EXEMPT_CLASS, type LineClassifier, TAXABLE_CLASS } from './line-classes.js';
import type { CalcLine } from './types.js';

/** The parsed lines. Mutable on purpose: the incremental calculator edits it in place. */
export interface LineTable {
  readonly digits: number;
  readonly classifier: LineClassifier;
  /** Per line: subtotal in minor units. */
  readonly subtotal: Float64Array;
  /** Per line: class id. */
  readonly classOf: Uint32Array;
  /** Per class id: Σ subtotals of its lines, in minor units. */
  readonly classSubtotals: number[];
}

/**
 * A line's subtotal in minor units: quantity × unit price (or the given subtotal) rounded half up;
 * NaN when beyond the fast range.
 * @example lineSubtotalMinor({ uid: 'a', quantity: '3', unitPrice: '0.335', taxable: true }, 2) // 101
 */
export function lineSubtotalMinor(line: CalcLine, digits: number): number {
  return line.subtotal === undefined
    ? roundedProductMinor(line.quantity, line.unitPrice, digits)
    : roundedMinor(line.subtotal, digits);
}

/**
 * Parses every line; undefined when an amount or a sum leaves the fast range (the caller then takes the
 * exact path).
 * @example buildLineTable([{ uid: 'a', quantity: '2', unitPrice: '1.5', taxable: true }], 2, createLineClassifier([]))?.subtotal // Float64Array [300]
 */
export function buildLineTable(
  lines: readonly CalcLine[],
  digits: number,
  classifier: LineClassifier,
): LineTable | undefined {
  const count = lines.length;
  const subtotal = new Float64Array(count);
  const classOf = new Uint32Array(count);
  const classSubtotals: number[] = classifier.classes.map(() => 0);
  if (classifier.byTaxableOnly) {
    // The common case, kept tight: a million lines go through here.
    // Imported bindings are read through getters once transpiled to CommonJS (tsx, vitest): one call per
    // line in this loop. Local copies are plain reads.
    const limit = SCALED_LIMIT;
    const taxableClass = TAXABLE_CLASS;
    const exemptClass = EXEMPT_CLASS;
    const product = roundedProductMinor;
    const rounded = roundedMinor;
    let taxableSum = 0;
    let exemptSum = 0;
    for (let index = 0; index < count; index += 1) {
      const line = lines[index]!;
      const amount =
        line.subtotal === undefined
          ? product(line.quantity, line.unitPrice, digits)
          : rounded(line.subtotal, digits);
      if (!(amount <= limit)) return undefined;
      subtotal[index] = amount;
      if (line.taxable) {
        classOf[index] = taxableClass;
        taxableSum += amount;
      } else {
        classOf[index] = exemptClass;
        exemptSum += amount;
      }
    }
    classSubtotals[TAXABLE_CLASS] = taxableSum;
    classSubtotals[EXEMPT_CLASS] = exemptSum;
  } else {
    for (let index = 0; index < count; index += 1) {
      const line = lines[index]!;
      const amount = lineSubtotalMinor(line, digits);
      if (!(amount <= SCALED_LIMIT)) return undefined;
      const id = classifier.classify(line.uid, line.taxable);
      subtotal[index] = amount;
      classOf[index] = id;
      classSubtotals[id] = (classSubtotals[id] ?? 0) + amount;
    }
  }
  const table = { digits, classifier, subtotal, classOf, classSubtotals };
  return withinRange(table) ? table : undefined;
}

/**
 * Replaces one line in place and moves its subtotal between class sums: O(1). False when the new state
 * is beyond the fast range (the table is then left as it is and must not be used).
 * @example replaceLine(table, 0, { uid: 'a', quantity: '1', unitPrice: '2', taxable: false }) // true
 */
export function replaceLine(table: LineTable, index: number, line: CalcLine): boolean {
  const amount = lineSubtotalMinor(line, table.digits);
  if (!(amount <= SCALED_LIMIT)) return false;
  const previousClass = table.classOf[index]!;
  const id = table.classifier.classify(line.uid, line.taxable);
  table.classSubtotals[previousClass] = table.classSubtotals[previousClass]! - table.subtotal[index]!;
  table.classSubtotals[id] = (table.classSubtotals[id] ?? 0) + amount;
  table.subtotal[index] = amount;
  table.classOf[index] = id;
  return withinRange(table);
}

/** Each sum stays exact (integers below 2^53) and within what the allocation arithmetic accepts. */
function withinRange(table: LineTable): boolean {
  let total = 0;
  for (let id = 0; id < table.classSubtotals.length; id += 1) {
    // Fill gaps left by classes that have not received a line yet (sparse arrays are slow and undefined).
    const sum = table.classSubtotals[id] ?? 0;
    table.classSubtotals[id] = sum;
    total += sum;
  }
  return total <= SCALED_LIMIT;
}
