/**
 * The fast path for the lines of an ad hoc invoice request (src/api/invoice/invoice-request-lines.ts)
 * against the reference decoding, zod over every field of every line: same accepted set, same decoded
 * request, same errors under the same fields in the same order.
 */
import { test } from '@fast-check/vitest';
import fc from 'fast-check';
import { describe, expect } from 'vitest';
import {
  decodeInvoiceRequest,
  decodeInvoiceRequestReference,
} from '../../../src/api/invoice/invoice-request.js';
import { isRequestLine } from '../../../src/api/invoice/invoice-request-lines.js';

/** Text around a bound: within, at, and just beyond it. */
const textNear = (max: number) =>
  fc.oneof(
    fc.string({ maxLength: 12 }),
    fc.constantFrom('2026-01-31', '2026-02-30', 'x'.repeat(max), 'x'.repeat(max + 1), ' ', ''),
  );

/** Anything a JSON body (or a host calling `handle` directly) might put in a field. */
const hostile = fc.oneof(
  fc.constantFrom(null, true, false, 0, 1, -1, '1', '0', 'true', 'false', 'yes', [], {}, [1]),
  fc.constantFrom(Number.NaN, Number.POSITIVE_INFINITY, 1e21, -0.5, 12.345678),
  fc.string({ maxLength: 8 }),
);

const amount = fc.oneof(
  fc.constantFrom('10', '0.5', '-1', '1.23456', '1e3', 'abc', '', ' 1', '0012.50', '9'.repeat(13)),
  fc.integer({ min: -5, max: 100_000 }),
  fc.double({ min: 0, max: 1e6, noNaN: true }),
  fc.string({ maxLength: 4 }),
  fc.constant('1'.repeat(65)),
);

const optionalOf = <T>(arbitrary: fc.Arbitrary<T>) => fc.option(arbitrary, { nil: undefined, freq: 2 });

const lineArb = fc
  .record(
    {
      uid: optionalOf(fc.oneof(textNear(255), hostile)),
      _destroy: optionalOf(fc.oneof(fc.boolean(), hostile)),
      title: optionalOf(fc.oneof(textNear(255), hostile)),
      description: optionalOf(fc.oneof(textNear(10_000), hostile)),
      quantity: optionalOf(fc.oneof(amount, hostile)),
      unit_price: optionalOf(fc.oneof(amount, hostile)),
      product_id: optionalOf(fc.oneof(fc.integer({ min: 0, max: 9 }), textNear(300), hostile)),
      product_price_point_id: optionalOf(fc.oneof(fc.integer({ min: 0, max: 9 }), textNear(300))),
      component_id: optionalOf(fc.oneof(fc.integer({ min: 0, max: 9 }), textNear(300), hostile)),
      price_point_id: optionalOf(fc.oneof(fc.integer({ min: 0, max: 9 }), textNear(300))),
      period_range_start: optionalOf(fc.oneof(textNear(10), hostile)),
      period_range_end: optionalOf(fc.oneof(textNear(10), hostile)),
      taxable: optionalOf(fc.oneof(fc.boolean(), hostile)),
      tax_code: optionalOf(fc.oneof(textNear(255), hostile)),
      unknown_key: optionalOf(hostile),
    },
    { requiredKeys: [] },
  )
  .map((line) => Object.fromEntries(Object.entries(line).filter(([, value]) => value !== undefined)));

/** Mostly well-formed custom lines (the fast path's case), some hostile ones, some non-objects. */
const wellFormedLine = fc.record({
  title: fc.string({ minLength: 1, maxLength: 20 }),
  quantity: fc.oneof(fc.integer({ min: 0, max: 1000 }).map(String), fc.integer({ min: 0, max: 1000 })),
  unit_price: fc.oneof(fc.constantFrom('9.99', '0', '12.5', '1.2345', '1.23456')),
  taxable: fc.boolean(),
});
const anyLine = fc.oneof(
  { weight: 6, arbitrary: wellFormedLine },
  { weight: 3, arbitrary: lineArb },
  { weight: 1, arbitrary: hostile },
);

const bodyArb = fc.record(
  {
    invoice: fc.record(
      {
        line_items: fc.oneof(
          { weight: 8, arbitrary: fc.array(anyLine, { maxLength: 6 }) },
          { weight: 1, arbitrary: hostile },
        ),
        coupons: fc.array(fc.record({ code: fc.string({ maxLength: 6 }), percentage: amount }), {
          maxLength: 2,
        }),
        issue_date: fc.constantFrom('2026-01-01', '2026-13-01', 5),
        net_terms: fc.constantFrom(0, 30, -1, 'x'),
        status: fc.constantFrom('open', 'draft', 'paid'),
        memo: textNear(10_000),
      },
      { requiredKeys: ['line_items'] },
    ),
  },
  { requiredKeys: [] },
);

/** Order-sensitive: the error body lists fields in the order they were found. */
const wire = (value: unknown): string => JSON.stringify(value);

describe('ad hoc invoice request decoding', () => {
  test.prop([bodyArb], { numRuns: 300 })(
    'law: the fast line decoding answers exactly as zod over every line (accepted set, values, errors and their order)',
    (body) => {
      expect(wire(decodeInvoiceRequest(body))).toBe(wire(decodeInvoiceRequestReference(body)));
    },
  );

  test.prop([fc.array(wellFormedLine, { minLength: 1, maxLength: 4 })], { numRuns: 50 })(
    'law: well-formed custom lines take the fast path and decode as zod decodes them',
    (lines) => {
      expect(lines.every(isRequestLine)).toBe(true);
      const body = { invoice: { line_items: lines } };
      expect(decodeInvoiceRequest(body)).toEqual(decodeInvoiceRequestReference(body));
    },
  );

  test('a sparse line list, a line with a prototype and an over-long title go through zod', () => {
    const sparse: unknown[] = [];
    sparse[1] = { title: 'a', quantity: 1, unit_price: 1 };
    class Line {
      readonly title = 'a';
      readonly quantity = 1;
      readonly unit_price = 1;
    }
    for (const lineItems of [
      sparse,
      [new Line()],
      [{ title: 'x'.repeat(256), quantity: 1, unit_price: 1 }],
    ]) {
      const body = { invoice: { line_items: lineItems } };
      const decoded = decodeInvoiceRequest(body);
      expect(wire(decoded)).toBe(wire(decodeInvoiceRequestReference(body)));
    }
    expect(isRequestLine(new Line())).toBe(false);
    expect(wire(decodeInvoiceRequest({ invoice: { line_items: sparse } }))).toContain('line_items[0]');
  });
});
