/**
 * The documents that describe the next renewal agree with it, over random quantities of every component
 * kind, coupons, and periods with or without an advance invoice (and allocations changed after it).
 */
import { test } from '@fast-check/vitest';
import fc from 'fast-check';
import { describe, expect } from 'vitest';
import {
  allocate,
  BEFORE_RENEWAL,
  billedLines,
  createProforma,
  invoiceTotals,
  issueAdvance,
  MIDDLE,
  previewSite,
  previewTotals,
  proformaPreview,
  renew,
  renewalPreview,
  summed,
  use,
} from './proforma-fixtures.js';

const usageArb = fc.record({
  seats: fc.integer({ min: 0, max: 12 }),
  support: fc.boolean(),
  calls: fc.integer({ min: 0, max: 2000 }),
  credits: fc.integer({ min: 0, max: 6 }),
  requests: fc.integer({ min: 0, max: 4 }),
});

const couponArb = fc.oneof(
  fc.constant(undefined),
  fc.integer({ min: 1, max: 100 }).map((percentage) => ({ percentage: String(percentage) })),
  fc.integer({ min: 1, max: 8000 }).map((cents) => ({ amount_in_cents: cents })),
);

/** No advance invoice, or one issued at MIDDLE, perhaps followed by a new seat count. */
const advanceArb = fc.oneof(
  fc.constant({ issued: false as const }),
  fc.record({ issued: fc.constant(true as const), seatsAfter: fc.option(fc.integer({ min: 0, max: 12 })) }),
);

describe('proforma and renewal preview laws', () => {
  test.prop([usageArb, couponArb, advanceArb], { numRuns: 25 })(
    'proforma preview totals = renewal preview totals = what the renewal then bills (no changes in between)',
    (usage, coupon, advance) => {
      const f = previewSite(coupon === undefined ? {} : { coupon });
      f.s.at(MIDDLE);
      use(f, usage);
      if (advance.issued) {
        issueAdvance(f);
        f.s.at(BEFORE_RENEWAL);
        if (advance.seatsAfter !== null) allocate(f, f.seats, advance.seatsAfter);
      }
      const proforma = proformaPreview(f);
      const previewed = renewalPreview(f);
      expect(previewTotals(previewed)).toEqual(invoiceTotals(proforma));
      expect(createProforma(f)).toEqual(proforma);
      const billed = renew(f);
      expect(summed(billed)).toEqual(invoiceTotals(proforma));
      expect(billedLines(billed)).toEqual(billedLines([proforma]));
    },
  );
});
