/** Laws of generated ad hoc invoices: the totals identities, exact breakouts, and refusals that change nothing. */
import { test } from '@fast-check/vitest';
import fc from 'fast-check';
import { describe, expect } from 'vitest';
import {
  adHocCouponArbitrary,
  checkInvoice,
  customLineArbitrary,
  decimalString,
  siteConfigArbitrary,
} from '../../../src/testing/index.js';
import { arr, call, get, site, str } from '../../helpers/api.js';
import {
  type Body,
  expectIdentities,
  invoicesPath,
  prepay,
  remittance,
  serviceCredit,
  stored,
  units,
} from '../../helpers/invoices.js';

const DECIMALS: Readonly<Record<string, number>> = { USD: 2, EUR: 2, JPY: 0, KWD: 3 };

const invoiceArb = fc.record({
  line_items: fc.array(customLineArbitrary(), { minLength: 1, maxLength: 8 }),
  coupons: fc.array(adHocCouponArbitrary(), { maxLength: 3 }),
});

const caseArb = fc.record({
  config: siteConfigArbitrary(),
  invoice: invoiceArb,
  credit: fc.option(decimalString(200, 0), { nil: undefined }),
  prepayment: fc.option(decimalString(200, 0), { nil: undefined }),
});

describe('ad hoc invoice laws', () => {
  test.prop([caseArb], { numRuns: Number(process.env['RUNS'] ?? 150) })(
    'law: discount and tax breakouts add up exactly; no line is negative; total = subtotal − discount + tax; due = total − credit − paid',
    ({ config, invoice, credit, prepayment }) => {
      const s = site(config);
      const { id } = remittance(s);
      if (credit !== undefined && credit !== '0') serviceCredit(s, id, credit);
      if (prepayment !== undefined && prepayment !== '0') prepay(s, id, prepayment);
      const created = s.request('POST', invoicesPath(id), { invoice: { ...invoice, status: 'draft' } });
      expect(created.status, JSON.stringify(created.body)).toBe(201);
      const draft = get(created.body, 'invoice');
      expectIdentities(draft);
      const uid = str(draft, 'uid');
      expect(checkInvoice(stored(s.state, uid))).toEqual([]);
      // The discounts never exceed the subtotal, and each tax is its taxable amount times its rate, rounded once.
      expect(units(get(draft, 'discount_amount')) <= units(get(draft, 'subtotal_amount'))).toBe(true);
      const halfUnit = 0.5 * 10 ** -(DECIMALS[config.currency ?? 'USD'] ?? 2);
      for (const tax of arr(draft, 'taxes')) {
        const exact = (Number(get(tax, 'taxable_amount')) * Number(get(tax, 'percentage'))) / 100;
        expect(Math.abs(Number(get(tax, 'tax_amount')) - exact)).toBeLessThanOrEqual(halfUnit + 1e-6);
      }
      const issued = s.ok('POST', `/invoices/${uid}/issue.json`, undefined, 200);
      expectIdentities(issued);
      expect(checkInvoice(stored(s.state, uid))).toEqual([]);
      for (const field of ['subtotal_amount', 'discount_amount', 'tax_amount', 'total_amount'])
        expect(get(issued, field), field).toBe(get(draft, field));
    },
  );

  /** One way to spoil a valid request, and the field it must be reported under (`i` = the spoiled line). */
  const faults: readonly ((invoice: Body, i: number) => Body)[] = [
    (invoice, i) => withLine(invoice, i, { quantity: '-1' }),
    (invoice, i) => withLine(invoice, i, { product_id: 'gold' }),
    (invoice, i) => withLine(invoice, i, { unit_price: '1.00001' }),
    (invoice, i) =>
      withLine(invoice, i, { period_range_start: '2026-01-02', period_range_end: '2026-01-01' }),
    (invoice, i) => withLine(invoice, i, { price_point_id: 1 }),
    (invoice, i) => withLine(invoice, i, { uid: 'li_1' }),
    (invoice, i) => withLine(invoice, i, { unit_price: undefined }),
    (invoice) => ({ ...invoice, coupons: [{ code: 'X', percentage: '100.01' }] }),
    (invoice) => ({ ...invoice, coupons: [{ code: 'X', percentage: '1.00001' }] }),
    (invoice) => ({ ...invoice, coupons: [{ code: 'X', subcode: 'Y' }] }),
    (invoice) => ({ ...invoice, coupons: [{ code: 'X', percentage: '1', amount: '1' }] }),
    (invoice) => ({ ...invoice, coupons: [{ code: 'NOSUCH' }] }),
    (invoice) => ({ ...invoice, issue_date: '2026-01-17' }),
    (invoice) => ({ ...invoice, billing_address: { city: 'Nowhere' } }),
    (invoice) => ({ ...invoice, status: 'paid' }),
    (invoice) => ({ ...invoice, net_terms: -3 }),
    (invoice) => ({ ...invoice, line_items: [] }),
  ];

  function withLine(invoice: Body, index: number, patch: Body): Body {
    const lines = (invoice['line_items'] as Body[]).map((line, i) =>
      i === index ? { ...line, ...patch } : line,
    );
    return { ...invoice, line_items: lines };
  }

  const base = site();
  base.product({ handle: 'gold' });
  const { id } = remittance(base);

  test.prop([invoiceArb, fc.nat(), fc.nat({ max: faults.length - 1 })], { numRuns: 150 })(
    'law: a rejected create answers 422 {errors: {field: [...]}} and leaves the state object identical',
    (invoice, lineSeed, faultIndex) => {
      const spoil = faults[faultIndex];
      if (spoil === undefined) throw new Error('no fault');
      const body = { invoice: spoil(invoice, lineSeed % invoice.line_items.length) };
      const before = base.state;
      const refused = call(before, 'POST', invoicesPath(id), body);
      expect(refused.status, JSON.stringify(refused.body)).toBe(422);
      const errors = get(refused.body, 'errors');
      expect(errors !== null && typeof errors === 'object' && !Array.isArray(errors)).toBe(true);
      expect(refused.state).toBe(before);
      expect(refused.events).toEqual([]);
    },
  );
});
