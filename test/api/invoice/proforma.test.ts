import { describe, expect, it } from 'vitest';
import { arr, get, num, type Site, site, str } from '../../helpers/api.js';

const TAXES = [{ name: 'Sales', percentage: '8.875', country: 'US' }];

/** A site with US sales tax and a remittance subscription to a taxable $10.00 monthly product. */
function subscribedSite(fields: Record<string, unknown> = {}) {
  const s = site({ taxes: TAXES });
  const product = s.product({ price_in_cents: 1000, taxable: true, ...fields });
  const customer = s.customer({ country: 'US' });
  const body = s.subscribe({
    product_id: product,
    customer_id: customer,
    payment_collection_method: 'remittance',
  });
  return { s, product, customer, id: num(body, 'subscription', 'id') };
}

const create = (s: Site, id: number) => s.ok('POST', `/subscriptions/${id}/proforma_invoices.json`);

describe('proforma invoices: create', () => {
  it('documents the next renewal as a bare draft ProformaInvoice, priced with the customer taxes', () => {
    const { s, id, customer } = subscribedSite();
    const body = create(s, id);
    expect(body).toMatchObject({
      uid: 'pro_0000000000001',
      site_id: 1,
      customer_id: customer,
      subscription_id: id,
      number: 1,
      sequence_number: 1,
      status: 'draft',
      role: 'proforma',
      collection_method: 'remittance',
      currency: 'USD',
      consolidation_level: 'none',
      created_at: '2026-01-15T12:00:00Z',
      delivery_date: '2026-02-15',
      subtotal_amount: '10.00',
      discount_amount: '0.00',
      tax_amount: '0.89',
      total_amount: '10.89',
      credit_amount: '0.00',
      paid_amount: '0.00',
      due_amount: '10.89',
      line_items: [
        {
          quantity: '1',
          subtotal_amount: '10.00',
          tax_amount: '0.89',
          period_range_start: '2026-02-15',
          period_range_end: '2026-03-15',
          kind: 'baseline',
        },
      ],
      taxes: [
        {
          title: 'Sales',
          source_type: 'Tax',
          percentage: '8.875',
          taxable_amount: '10.00',
          tax_amount: '0.89',
        },
      ],
      discounts: [],
      credits: [],
      payments: [],
    });
  });

  it('changes no invoice and no balance, and records proforma_invoice_issued', () => {
    const { s, id } = subscribedSite();
    const invoices = s.invoices(id);
    const subscription = s.subscription(id);
    const called = s.request('POST', `/subscriptions/${id}/proforma_invoices.json`);
    expect(called.status).toBe(201);
    expect(s.invoices(id)).toEqual(invoices);
    expect(s.subscription(id)).toEqual(subscription);
    expect(called.events.map((event) => event.key)).toEqual(['proforma_invoice_issued']);
    expect(called.events[0]?.event_specific_data).toMatchObject({
      uid: 'pro_0000000000001',
      number: '1',
      role: 'proforma',
      delivery_date: '2026-02-15',
      total_amount: '10.89',
      tax_amount: '0.89',
      line_items: [{ quantity: 1, amount: '10.00' }],
    });
  });

  it('numbers proforma invoices in their own sequence, apart from invoice numbers', () => {
    const { s, id, product } = subscribedSite();
    const other = s.subscribed(product).id;
    expect([create(s, id), create(s, other), create(s, id)].map((body) => get(body, 'number'))).toEqual([
      1, 2, 3,
    ]);
    expect(s.invoices(other).map((invoice) => get(invoice, 'number'))).toEqual(['2']);
  });

  it('charges what the renewal then charges', () => {
    const { s, id } = subscribedSite({ price_in_cents: 1999 });
    const proforma = create(s, id);
    s.at('2026-02-15T12:00:00Z');
    const renewal = s.invoices(id).find((invoice) => get(invoice, 'role') === 'renewal');
    for (const field of ['subtotal_amount', 'discount_amount', 'tax_amount', 'total_amount'])
      expect(get(renewal, field), field).toBe(get(proforma, field));
    expect(get(renewal, 'line_items', 0, 'period_range_start')).toBe(
      get(proforma, 'line_items', 0, 'period_range_start'),
    );
    expect(get(renewal, 'line_items', 0, 'period_range_end')).toBe(
      get(proforma, 'line_items', 0, 'period_range_end'),
    );
  });

  it('covers the first paid period after a trial, starting when the trial ends', () => {
    const { s, id } = subscribedSite({
      trial_interval: 7,
      trial_interval_unit: 'day',
      trial_price_in_cents: 0,
    });
    expect(get(s.subscription(id), 'state')).toBe('trialing');
    expect(create(s, id)).toMatchObject({
      delivery_date: '2026-01-22',
      total_amount: '10.89',
      line_items: [{ period_range_start: '2026-01-22', period_range_end: '2026-02-22' }],
    });
  });

  it('applies the recurring coupons stored on the subscription', () => {
    const { s, id, product } = subscribedSite();
    const familyId = num(s.ok('GET', `/products/${product}.json`), 'product', 'product_family', 'id');
    s.ok('POST', `/product_families/${familyId}/coupons.json`, {
      coupon: { name: 'Ten', code: 'TEN', percentage: '10', recurring: true },
    });
    s.ok('POST', `/product_families/${familyId}/coupons.json`, {
      coupon: { name: 'Once', code: 'ONCE', percentage: '50', recurring: false },
    });
    // Signup takes no coupon codes yet: store them on the subscription row (state is plain JSON).
    const state = structuredClone(s.state);
    const chunk = state.tables.subscriptions.rows.chunks[0] as ({
      id: number;
      couponCodes: string[];
    } | null)[];
    const row = chunk.find((candidate) => candidate?.id === id);
    if (!row) throw new Error('no subscription row');
    row.couponCodes = ['TEN', 'ONCE', 'UNKNOWN'];
    s.state = state;
    expect(create(s, id)).toMatchObject({
      subtotal_amount: '10.00',
      discount_amount: '1.00',
      tax_amount: '0.80',
      total_amount: '9.80',
      discounts: [{ code: 'TEN', source_type: 'Coupon', discount_amount: '1.00' }],
    });
  });

  it('refuses subscriptions that will not renew, and unknown ones', () => {
    const canceled = subscribedSite();
    canceled.s.ok('DELETE', `/subscriptions/${canceled.id}.json`);
    for (const path of ['proforma_invoices.json', 'proforma_invoices/preview.json'])
      canceled.s.fail('POST', `/subscriptions/${canceled.id}/${path}`, undefined, 422);

    const expiring = subscribedSite({ expiration_interval: 1, expiration_interval_unit: 'month' });
    expect(
      str(
        expiring.s.fail('POST', `/subscriptions/${expiring.id}/proforma_invoices.json`, undefined, 422),
        'errors',
        0,
      ),
    ).toMatch(/expires/);
    expiring.s.at('2026-02-16T00:00:00Z');
    expect(get(expiring.s.subscription(expiring.id), 'state')).toBe('expired');
    expiring.s.fail('POST', `/subscriptions/${expiring.id}/proforma_invoices.json`, undefined, 422);

    for (const ref of ['999', 'nope', 'handle:x']) {
      canceled.s.fail('POST', `/subscriptions/${ref}/proforma_invoices.json`, undefined, 404);
      canceled.s.fail('POST', `/subscriptions/${ref}/proforma_invoices/preview.json`, undefined, 404);
      canceled.s.fail('GET', `/subscriptions/${ref}/proforma_invoices.json`, undefined, 404);
    }
  });
});

describe('proforma invoices: preview', () => {
  it('answers the document create would store, and leaves the state object identical', () => {
    const { s, id } = subscribedSite();
    const before = s.state;
    const previewed = s.request('POST', `/subscriptions/${id}/proforma_invoices/preview.json`);
    expect(previewed.status).toBe(200);
    expect(previewed.state).toBe(before);
    expect(previewed.events).toEqual([]);
    expect(arr(s.ok('GET', `/subscriptions/${id}/proforma_invoices.json`), 'proforma_invoices')).toEqual([]);
    expect(create(s, id)).toEqual(previewed.body);
  });
});

describe('proforma invoices: list, read, void', () => {
  it('lists a subscription’s proforma invoices with paging, direction, status and meta', () => {
    const { s, id, product } = subscribedSite();
    const other = s.subscribed(product).id;
    for (const sub of [id, other, id, id]) create(s, sub);
    const list = (query = '') => s.ok('GET', `/subscriptions/${id}/proforma_invoices.json${query}`);
    const numbers = (body: unknown) =>
      arr(body, 'proforma_invoices').map((proforma) => get(proforma, 'number'));
    expect(numbers(list())).toEqual([1, 3, 4]);
    expect(get(list(), 'meta')).toEqual({
      total_count: 3,
      current_page: 1,
      total_pages: 1,
      status_code: 200,
    });
    expect(numbers(list('?direction=desc'))).toEqual([4, 3, 1]);
    const second = list('?per_page=2&page=2');
    expect(numbers(second)).toEqual([4]);
    expect(get(second, 'meta')).toEqual({
      total_count: 3,
      current_page: 2,
      total_pages: 2,
      status_code: 200,
    });
    expect(numbers(list('?per_page=2&page=3'))).toEqual([]);
    s.ok('POST', '/proforma_invoices/pro_0000000000003/void.json', { void: { reason: 'wrong' } }, 200);
    expect(numbers(list('?status=voided'))).toEqual([3]);
    expect(numbers(list('?status=draft'))).toEqual([1, 4]);
    s.fail('GET', `/subscriptions/${id}/proforma_invoices.json?page=0`, undefined, 422);
  });

  it('reads a proforma invoice by uid, and answers 404 for any other uid', () => {
    const { s, id } = subscribedSite();
    const created = create(s, id);
    const before = s.state;
    expect(s.ok('GET', `/proforma_invoices/${str(created, 'uid')}.json`)).toEqual(created);
    expect(s.state).toBe(before);
    const invoiceUid = str(s.invoices(id)[0], 'uid');
    for (const uid of ['pro_0000000000002', 'pro_1', invoiceUid, 'nope'])
      s.fail('GET', `/proforma_invoices/${uid}.json`, undefined, 404);
  });

  it('voids a draft with a reason; a voided one cannot be voided again', () => {
    const { s, id } = subscribedSite();
    const uid = str(create(s, id), 'uid');
    const path = `/proforma_invoices/${uid}/void.json`;
    s.fail('POST', path, {}, 422);
    s.fail('POST', path, { void: { reason: '' } }, 422);
    s.fail('POST', '/proforma_invoices/pro_0000000000009/void.json', { void: { reason: 'x' } }, 404);
    const voided = s.ok('POST', path, { void: { reason: 'Sent by mistake' } }, 200);
    expect(voided).toMatchObject({
      uid,
      status: 'voided',
      void_reason: 'Sent by mistake',
      total_amount: '10.89',
    });
    expect(s.ok('GET', `/proforma_invoices/${uid}.json`)).toEqual(voided);
    expect(str(s.fail('POST', path, { void: { reason: 'again' } }, 422), 'errors', 0)).toMatch(/draft/);
  });
});
