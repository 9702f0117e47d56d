/** Update and delete a draft ad hoc invoice (SPEC 4.1, 7). */
import { describe, expect, it } from 'vitest';
import type { SiteConfig } from '../../../src/index.js';
import { arr, get, site, str } from '../../helpers/api.js';
import { componentSite, createComponent } from '../../helpers/components.js';
import {
  createAdHoc,
  custom,
  expectIdentities,
  fields,
  invoicePath,
  refused,
  remittance,
  updateAdHoc,
} from '../../helpers/invoices.js';

const A = custom('A', 2, '10', { taxable: true });
const B = custom('B', 1, '5');

function draft(config: SiteConfig = {}, extra: Record<string, unknown> = {}) {
  const s = site(config);
  const { id, customer } = remittance(s, { country: 'FR' });
  const invoice = createAdHoc(s, id, { status: 'draft', line_items: [A, B], ...extra });
  const uid = str(invoice, 'uid');
  const lineUids = arr(invoice, 'line_items').map((line) => str(line, 'uid'));
  return { s, id, customer, invoice, uid, lineUids, path: invoicePath(id, uid) };
}

const withoutUpdatedAt = (invoice: unknown) => ({ ...(invoice as object), updated_at: null });

describe('update a draft ad hoc invoice', () => {
  it('changes only the attributes sent', () => {
    const { s, id, uid, invoice } = draft();
    s.at('2026-01-15T13:00:00Z');
    const updated = updateAdHoc(s, id, uid, { memo: 'New memo' });
    expect(withoutUpdatedAt(updated)).toEqual({ ...withoutUpdatedAt(invoice), memo: 'New memo' });
    expect(get(updated, 'updated_at')).toBe('2026-01-15T13:00:00Z');
    expect(withoutUpdatedAt(updateAdHoc(s, id, uid, {}))).toEqual(withoutUpdatedAt(updated));
  });

  it('adds a line without uid, updates a line with uid (amounts recalculated), removes one with _destroy', () => {
    const { s, id, uid, lineUids } = draft({ taxes: [{ name: 'VAT', percentage: '10' }] });
    const [a, b] = lineUids;
    const updated = updateAdHoc(s, id, uid, {
      line_items: [{ uid: a, quantity: 3 }, { uid: b, _destroy: true }, custom('C', 1, '7')],
    });
    expect(updated).toMatchObject({
      subtotal_amount: '37.00',
      tax_amount: '3.00',
      total_amount: '40.00',
      line_items: [
        { uid: a, title: 'A', quantity: '3', subtotal_amount: '30.00', tax_amount: '3.00' },
        { title: 'C', subtotal_amount: '7.00', tax_amount: '0.00' },
      ],
      taxes: [{ taxable_amount: '30.00', tax_amount: '3.00' }],
    });
    expect(arr(updated, 'line_items')).toHaveLength(2);
    expectIdentities(updated);
    const renamed = updateAdHoc(s, id, uid, {
      line_items: [{ uid: a, title: 'A2', unit_price: '1', taxable: false }],
    });
    expect(renamed).toMatchObject({
      tax_amount: '0.00',
      line_items: [{ title: 'A2', subtotal_amount: '3.00' }, { title: 'C' }],
    });
  });

  it('prices an updated component quantity through the line price point again', () => {
    const s = componentSite();
    const seats = createComponent(s, 'quantity_based_component', { handle: 'seats' });
    const prices = [
      { starting_quantity: 1, ending_quantity: 10, unit_price: '5' },
      { starting_quantity: 11, unit_price: '4' },
    ];
    for (const scheme of ['volume', 'tiered'])
      s.ok('POST', `/components/${seats}/price_points.json`, {
        price_point: { name: scheme, handle: scheme, pricing_scheme: scheme, prices },
      });
    const { id } = remittance(s);
    const line = (handle: string) => ({ component_id: 'seats', price_point_id: handle, quantity: 12 });
    const invoice = createAdHoc(s, id, { status: 'draft', line_items: [line('volume'), line('tiered')] });
    expect(arr(invoice, 'line_items').map((item) => get(item, 'subtotal_amount'))).toEqual([
      '48.00',
      '58.00',
    ]);
    const uids = arr(invoice, 'line_items').map((item) => str(item, 'uid'));
    const updated = updateAdHoc(s, id, str(invoice, 'uid'), {
      line_items: uids.map((uid) => ({ uid, quantity: 3 })),
    });
    // 3 units: volume 3 × $5; tiered 3 × $5 (all in the first bracket).
    expect(arr(updated, 'line_items').map((item) => get(item, 'subtotal_amount'))).toEqual([
      '15.00',
      '15.00',
    ]);
  });

  it('refuses an unknown line uid (422 under line_items[i].uid) and a bad new line', () => {
    const { s, path, lineUids } = draft();
    const errors = refused(s, 'PUT', path, {
      line_items: [
        { uid: lineUids[0], quantity: 2 },
        { uid: 'li_nope', quantity: 1 },
      ],
    });
    expect(errors).toEqual({ 'line_items[1].uid': [expect.any(String)] });
    expect(fields(refused(s, 'PUT', path, { line_items: [{ title: 'New', quantity: 1 }] }))).toEqual([
      'line_items[0].unit_price',
    ]);
    expect(fields(refused(s, 'PUT', path, { issue_date: '2026-01-16' }))).toEqual(['issue_date']);
  });

  it('coupons replace every discount; an empty array removes them all; absent keeps them', () => {
    const { s, id, uid } = draft({}, { coupons: [{ code: 'TEN', percentage: '10' }] });
    expect(updateAdHoc(s, id, uid, { memo: 'x' })).toMatchObject({
      discount_amount: '2.50',
      discounts: [{ code: 'TEN' }],
    });
    const replaced = updateAdHoc(s, id, uid, {
      coupons: [
        { code: 'FLAT', amount: '1' },
        { code: 'HALF', percentage: '50' },
      ],
    });
    expect(replaced).toMatchObject({
      discount_amount: '13.00',
      discounts: [{ code: 'FLAT' }, { code: 'HALF' }],
    });
    expect(arr(replaced, 'discounts')).toHaveLength(2);
    expectIdentities(replaced);
    expect(updateAdHoc(s, id, uid, { coupons: [] })).toMatchObject({
      discount_amount: '0.00',
      discounts: [],
      total_amount: '25.00',
    });
  });

  it('a restricted catalog coupon also discounts an eligible line added later', () => {
    const s = site();
    const family = s.family('plans');
    const gold = s.product({ handle: 'gold', price_in_cents: 1000 }, family);
    s.ok('POST', `/product_families/${family}/coupons.json`, {
      coupon: { name: 'Gold', code: 'GOLD', percentage: '50' },
      restricted_products: { [gold]: true },
    });
    const { id } = remittance(s);
    const invoice = createAdHoc(s, id, { status: 'draft', line_items: [A], coupons: [{ code: 'GOLD' }] });
    expect(get(invoice, 'discount_amount')).toBe('0.00');
    const updated = updateAdHoc(s, id, str(invoice, 'uid'), {
      line_items: [{ product_id: 'gold', quantity: 1 }],
    });
    expect(updated).toMatchObject({
      discount_amount: '5.00',
      line_items: [{ discount_amount: '0.00' }, { discount_amount: '5.00' }],
    });
  });

  it('recalculates the due date from the issue date and the net terms', () => {
    const { s, id, uid } = draft();
    expect(updateAdHoc(s, id, uid, { net_terms: 10 })).toMatchObject({
      issue_date: '2026-01-15',
      due_date: '2026-01-25',
      net_terms: 10,
    });
    expect(updateAdHoc(s, id, uid, { issue_date: '2026-01-01' })).toMatchObject({
      issue_date: '2026-01-01',
      due_date: '2026-01-11',
    });
    expect(updateAdHoc(s, id, uid, { issue_date: '2026-01-05', net_terms: 0 })).toMatchObject({
      due_date: '2026-01-05',
    });
  });

  it('recalculates taxes after a shipping or billing address change', () => {
    const { s, id, uid, invoice } = draft({ taxes: [{ name: 'US tax', percentage: '10', country: 'US' }] });
    expect(invoice).toMatchObject({ tax_amount: '0.00', taxes: [] });
    const shipped = updateAdHoc(s, id, uid, { shipping_address: { first_name: 'Ada', country: 'US' } });
    expect(shipped).toMatchObject({
      tax_amount: '2.00',
      total_amount: '27.00',
      taxes: [{ title: 'US tax', tax_amount: '2.00' }],
    });
    expectIdentities(shipped);
    const back = updateAdHoc(s, id, uid, { shipping_address: { first_name: 'Ada', country: 'FR' } });
    expect(back).toMatchObject({ tax_amount: '0.00', taxes: [] });
    const billed = updateAdHoc(s, id, uid, {
      shipping_address: { first_name: 'Ada' },
      billing_address: { first_name: 'Ada', country: 'US' },
    });
    expect(billed).toMatchObject({ tax_amount: '2.00', billing_address: { country: 'US' } });
    expect(fields(refused(s, 'PUT', invoicePath(id, uid), { billing_address: { country: 'US' } }))).toEqual([
      'billing_address.first_name',
    ]);
  });

  it('refuses an issued (open) ad hoc invoice and an invoice that is not ad hoc (422)', () => {
    const s = site();
    const product = s.product();
    const { id: paid } = s.subscribed(product);
    const signupUid = str(s.invoices(paid)[0], 'uid');
    expect(refused(s, 'PUT', invoicePath(paid, signupUid), { memo: 'x' })).toEqual({
      base: [expect.any(String)],
    });
    s.fail('DELETE', invoicePath(paid, signupUid), undefined, 422);
    const open = str(createAdHoc(s, paid, { line_items: [B] }), 'uid');
    expect(fields(refused(s, 'PUT', invoicePath(paid, open), { memo: 'x' }))).toEqual(['base']);
    s.fail('DELETE', invoicePath(paid, open), undefined, 422);
  });

  it('answers 404 for the invoice of another subscription, an unknown uid or subscription', () => {
    const { s, uid } = draft();
    const other = remittance(s).id;
    s.fail('PUT', invoicePath(other, uid), { invoice: { memo: 'x' } }, 404);
    s.fail('DELETE', invoicePath(other, uid), undefined, 404);
    s.fail('PUT', invoicePath(other, 'inv_00000000000zz'), { invoice: { memo: 'x' } }, 404);
    s.fail('PUT', invoicePath(99, uid), { invoice: { memo: 'x' } }, 404);
  });
});

describe('delete a draft ad hoc invoice', () => {
  it('answers 204 with no body; the invoice is gone (404 afterwards)', () => {
    const { s, path, uid } = draft();
    const deleted = s.request('DELETE', path);
    expect(deleted.status).toBe(204);
    expect(deleted.body).toBeUndefined();
    s.fail('GET', `/invoices/${uid}.json`, undefined, 404);
    s.fail('DELETE', path, undefined, 404);
    s.fail('PUT', path, { invoice: { memo: 'x' } }, 404);
    s.fail('POST', `/invoices/${uid}/issue.json`, {}, 404);
  });
});
