/** Create Invoice (SPEC 2.2, 4.1): custom and product lines, and every line refusal. */
import { describe, expect, it } from 'vitest';
import { get, num, site, str } from '../../helpers/api.js';
import { componentSite, createComponent } from '../../helpers/components.js';
import {
  type Body,
  createAdHoc,
  custom,
  expectIdentities,
  fields,
  invoicesPath,
  refused,
  remittance,
} from '../../helpers/invoices.js';

describe('create ad hoc invoice: custom lines', () => {
  it('answers 201 {invoice}: open by default, role adhoc, lines priced quantity × unit price', () => {
    const s = site();
    const { id, customer } = remittance(s);
    const created = s.request('POST', invoicesPath(id), {
      invoice: {
        line_items: [
          custom('Consulting', 3, '12.5', { description: 'Three hours' }),
          custom('Kit', '0.5', '3.333'),
        ],
      },
    });
    expect(created.status).toBe(201);
    const invoice = get(created.body, 'invoice');
    expect(invoice).toMatchObject({
      status: 'open',
      role: 'adhoc',
      subscription_id: id,
      customer_id: customer,
      collection_method: 'remittance',
      subtotal_amount: '39.17',
      total_amount: '39.17',
      due_amount: '39.17',
      line_items: [
        {
          title: 'Consulting',
          description: 'Three hours',
          quantity: '3',
          unit_price: '12.5',
          subtotal_amount: '37.50',
          custom_item: true,
          kind: 'custom',
          product_id: null,
          component_id: null,
        },
        { title: 'Kit', quantity: '0.5', unit_price: '3.333', subtotal_amount: '1.67' },
      ],
    });
    expectIdentities(invoice);
    expect(created.events.map((event) => event.key)).toEqual(['invoice_issued']);
    expect(get(s.ok('GET', `/invoices/${str(invoice, 'uid')}.json`), 'total_amount')).toBe('39.17');
  });

  it('creates a draft when asked, without an issued event', () => {
    const s = site();
    const { id } = remittance(s);
    const created = s.request('POST', invoicesPath(id), {
      invoice: { status: 'draft', line_items: [custom('A', 1, '5')] },
    });
    expect(created.status).toBe(201);
    expect(get(created.body, 'invoice', 'status')).toBe('draft');
    expect(created.events).toEqual([]);
  });

  it('answers 404 for an unknown subscription', () => {
    const s = site();
    remittance(s);
    s.fail('POST', invoicesPath(99), { invoice: { line_items: [custom('A', 1, '1')] } }, 404);
  });
});

describe('create ad hoc invoice: catalog product lines', () => {
  function catalog() {
    const s = site();
    const family = s.family('plans');
    const product = s.product({ handle: 'gold', name: 'Gold', price_in_cents: 2500, taxable: true }, family);
    const pricePoint = num(
      s.ok('POST', `/products/${product}/price_points.json`, {
        price_point: {
          name: 'Gold yearly',
          handle: 'gold-yearly',
          price_in_cents: 24000,
          interval: 12,
          interval_unit: 'month',
        },
      }),
      'price_point',
      'id',
    );
    return { s, product, pricePoint, sub: remittance(s).id };
  }

  it('prices a product line at its default price point, found by id, handle or handle:', () => {
    const { s, product, sub } = catalog();
    for (const ref of [product, String(product), 'gold', 'handle:gold']) {
      const invoice = createAdHoc(s, sub, { line_items: [{ product_id: ref, quantity: 2 }] });
      expect(get(invoice, 'line_items', 0), String(ref)).toMatchObject({
        title: 'Gold',
        product_id: product,
        product_version: 1,
        product_price_point_id: expect.any(Number),
        unit_price: '25',
        subtotal_amount: '50.00',
        custom_item: false,
        kind: 'baseline',
      });
    }
  });

  it('prices a product line at a given price point by id or handle, or at a given unit price', () => {
    const { s, pricePoint, sub } = catalog();
    for (const ref of [pricePoint, 'gold-yearly', 'handle:gold-yearly']) {
      const invoice = createAdHoc(s, sub, {
        line_items: [{ product_id: 'gold', product_price_point_id: ref, quantity: 1 }],
      });
      expect(get(invoice, 'line_items', 0), String(ref)).toMatchObject({
        product_price_point_id: pricePoint,
        unit_price: '240',
        subtotal_amount: '240.00',
      });
    }
    const priced = createAdHoc(s, sub, {
      line_items: [{ product_id: 'gold', quantity: 1, unit_price: '7' }],
    });
    expect(get(priced, 'line_items', 0)).toMatchObject({ unit_price: '7', subtotal_amount: '7.00' });
  });

  it('refuses an unknown product or price point under the line field (422)', () => {
    const { s, sub } = catalog();
    const other = s.product({ handle: 'other' });
    const otherPoint = num(s.ok('GET', `/products/${other}/price_points.json`), 'price_points', 0, 'id');
    expect(
      fields(refused(s, 'POST', invoicesPath(sub), { line_items: [{ product_id: 'nope', quantity: 1 }] })),
    ).toEqual(['line_items[0].product_id']);
    const wrongPoint = {
      line_items: [{ product_id: 'gold', product_price_point_id: otherPoint, quantity: 1 }],
    };
    expect(fields(refused(s, 'POST', invoicesPath(sub), wrongPoint))).toEqual([
      'line_items[0].product_price_point_id',
    ]);
  });
});

describe('create ad hoc invoice: refused lines name the field (422 {errors: {field: [...]}})', () => {
  const ok = custom('Fine', 1, '1');
  it.each<[string, Body, string]>([
    ['title with product_id', { title: 'X', product_id: 'gold', quantity: 1, unit_price: '1' }, 'title'],
    [
      'product_id with component_id',
      { product_id: 'gold', component_id: 'seats', quantity: 1 },
      'product_id',
    ],
    [
      'product_price_point_id without product_id',
      { component_id: 'seats', quantity: 1, product_price_point_id: 1 },
      'product_price_point_id',
    ],
    [
      'price_point_id without component_id',
      { product_id: 'gold', quantity: 1, price_point_id: 1 },
      'price_point_id',
    ],
    [
      'period end before start',
      { ...custom('X', 1, '1'), period_range_start: '2026-01-10', period_range_end: '2026-01-09' },
      'period_range_end',
    ],
    [
      'a malformed period date',
      { ...custom('X', 1, '1'), period_range_start: '2026-02-30' },
      'period_range_start',
    ],
    ['no quantity', { title: 'X', unit_price: '1' }, 'quantity'],
    ['a custom line without unit_price', { title: 'X', quantity: 1 }, 'unit_price'],
    ['a negative quantity', custom('X', -1, '1'), 'quantity'],
    ['a unit price with 5 decimals', custom('X', 1, '0.00001'), 'unit_price'],
    ['neither title, product nor component', { quantity: 1, unit_price: '1' }, 'title'],
    ['a uid on create', { ...custom('X', 1, '1'), uid: 'li_x' }, 'uid'],
  ])('%s', (_name, line, field) => {
    const s = componentSite();
    s.product({ handle: 'gold' });
    createComponent(s, 'quantity_based_component', { handle: 'seats' });
    const { id } = remittance(s);
    const errors = refused(s, 'POST', invoicesPath(id), { line_items: [ok, line] });
    expect(fields(errors)).toEqual([`line_items[1].${field}`]);
    expect(get(errors, `line_items[1].${field}`)).toEqual([expect.any(String)]);
  });

  it('accepts a period whose end equals its start', () => {
    const s = site();
    const { id } = remittance(s);
    const line = { ...custom('X', 1, '1'), period_range_start: '2026-01-10', period_range_end: '2026-01-10' };
    expect(get(createAdHoc(s, id, { line_items: [line] }), 'line_items', 0)).toMatchObject({
      period_range_start: '2026-01-10',
      period_range_end: '2026-01-10',
    });
  });

  it('refuses an invoice without lines and a body without the invoice key', () => {
    const s = site();
    const { id } = remittance(s);
    expect(fields(refused(s, 'POST', invoicesPath(id), { line_items: [] }))).toEqual(['line_items']);
    expect(get(s.fail('POST', invoicesPath(id), {}, 422), 'errors')).toEqual({
      invoice: [expect.any(String)],
    });
  });
});
