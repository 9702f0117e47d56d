/** Laws of draft updates: the same body sent twice gives the same invoice as once; identities hold after. */
import { test } from '@fast-check/vitest';
import fc from 'fast-check';
import { describe, expect } from 'vitest';
import {
  adHocCouponArbitrary,
  checkInvoice,
  customLineArbitrary,
  decimalString,
} from '../../../src/testing/index.js';
import { arr, get, site, str } from '../../helpers/api.js';
import {
  type Body,
  expectIdentities,
  invoicePath,
  invoicesPath,
  remittance,
  stored,
} from '../../helpers/invoices.js';

const lineUpdateArb = fc.record(
  {
    index: fc.nat(),
    quantity: decimalString(100, 4),
    unit_price: decimalString(1000, 4),
    title: fc.constantFrom('Renamed', 'Other'),
    taxable: fc.boolean(),
    description: fc.constantFrom('', 'Described'),
  },
  { requiredKeys: ['index'] },
);

const updateArb = fc.record(
  {
    line_items: fc.array(lineUpdateArb, { maxLength: 4 }),
    coupons: fc.array(adHocCouponArbitrary(), { maxLength: 3 }),
    memo: fc.constantFrom('Memo', ''),
    payment_instructions: fc.constantFrom('Wire', 'Check'),
    net_terms: fc.integer({ min: 0, max: 60 }),
    issue_date: fc.constantFrom('2025-12-01', '2026-01-01', '2026-01-15'),
    shipping_address: fc.record({ first_name: fc.constant('Ada'), country: fc.constantFrom('US', 'FR') }),
    billing_address: fc.record({ first_name: fc.constant('Bo'), country: fc.constantFrom('US', 'FR') }),
  },
  { requiredKeys: [] },
);

const caseArb = fc.record({
  lines: fc.array(customLineArbitrary(), { minLength: 1, maxLength: 5 }),
  coupons: fc.array(adHocCouponArbitrary(), { maxLength: 2 }),
  update: updateArb,
  taxes: fc.constantFrom(
    [],
    [{ name: 'VAT', percentage: '20' }],
    [
      { name: 'US', percentage: '7.25', country: 'US' },
      { name: 'City', percentage: '1.5' },
    ],
  ),
});

type Case = typeof caseArb extends fc.Arbitrary<infer T> ? T : never;

/** The request body with each line update pointed at an existing line's uid. */
function bodyFor(update: Body, uids: readonly string[]): Body {
  const lines = (update['line_items'] as { index: number }[] | undefined)?.map(({ index, ...patch }) => ({
    uid: uids[index % uids.length],
    ...patch,
  }));
  return { ...update, ...(lines === undefined ? {} : { line_items: lines }) };
}

const withoutUpdatedAt = (invoice: unknown): unknown => ({ ...(invoice as object), updated_at: null });

/** The invoice without updated_at and without the identities (uid, transaction_id) of its discounts. */
const withoutDiscountIds = (invoice: unknown): unknown => ({
  ...(withoutUpdatedAt(invoice) as object),
  discounts: arr(invoice, 'discounts').map((discount) => ({
    ...(discount as object),
    uid: null,
    transaction_id: null,
  })),
});

/** Creates a draft, sends the update twice; returns both answers. */
function updateTwice({ lines, coupons, update, taxes }: Case) {
  const s = site({ taxes });
  const { id } = remittance(s, { country: 'FR' });
  const created = get(
    s.ok('POST', invoicesPath(id), { invoice: { status: 'draft', line_items: lines, coupons } }),
    'invoice',
  );
  const uid = str(created, 'uid');
  const uids = arr(created, 'line_items').map((line) => str(line, 'uid'));
  const body = { invoice: bodyFor(update, uids) };
  const once = get(s.ok('PUT', invoicePath(id, uid), body, 200), 'invoice');
  expectIdentities(once);
  expect(checkInvoice(stored(s.state, uid))).toEqual([]);
  s.at('2026-01-15T12:30:00Z');
  const twice = get(s.ok('PUT', invoicePath(id, uid), body, 200), 'invoice');
  expect(get(s.ok('GET', `/invoices/${uid}.json`), 'total_amount')).toBe(get(once, 'total_amount'));
  return { once, twice };
}

describe('draft update laws', () => {
  test.prop([caseArb], { numRuns: 120 })(
    'law: the same update body sent twice gives the same invoice as once (except updated_at), and the identities hold',
    (sample) => {
      const { once, twice } = updateTwice(sample);
      expect(withoutUpdatedAt(twice)).toEqual(withoutUpdatedAt(once));
    },
  );

  test.prop([caseArb], { numRuns: Number(process.env['RUNS'] ?? 120) })(
    'law: sent twice, an update body gives the same amounts, lines, taxes, dates and addresses as once',
    (sample) => {
      const { once, twice } = updateTwice(sample);
      expect(withoutDiscountIds(twice)).toEqual(withoutDiscountIds(once));
    },
  );
});
