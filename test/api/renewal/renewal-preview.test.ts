/** The renewal preview (SPEC 4.8, api-notes 4.1): the next renewal, at current or custom quantities. */
import { describe, expect, it } from 'vitest';
import { errorsOf, get, num, type Site, show, site } from '../../helpers/api.js';
import { paths, TRIAL } from '../../helpers/lifecycle.js';

const cents = (amount: unknown): number => Math.round(Number(amount) * 100);

/**
 * A site with an 8.25% tax; a taxable $19.99 monthly product, a recurring 10% coupon, a taxable seat
 * component at $3.33 and an untaxed one at $0.50; a subscription with the coupon, signed up at T0.
 */
function taxedSite(): { s: Site; id: number; seats: number; extras: number } {
  const s = site({ taxes: [{ name: 'Sales tax', percentage: '8.25' }] });
  const family = s.family();
  const product = s.product({ price_in_cents: 1999, taxable: true }, family);
  const component = (handle: string, price: string, taxable: boolean) =>
    num(
      s.ok('POST', `/product_families/${family}/quantity_based_components.json`, {
        quantity_based_component: {
          name: handle,
          handle,
          unit_name: 'unit',
          pricing_scheme: 'per_unit',
          unit_price: price,
          taxable,
        },
      }),
      'component',
      'id',
    );
  const seats = component('seats', '3.33', true);
  const extras = component('extras', '0.50', false);
  s.ok('POST', `/product_families/${family}/coupons.json`, {
    coupon: { name: 'Ten', code: 'TEN', percentage: '10', recurring: true },
  });
  const customer = s.customer();
  const profile = s.card(customer);
  const body = s.subscribe({
    product_id: product,
    customer_id: customer,
    payment_profile_id: profile,
    coupon_code: 'TEN',
  });
  return { s, id: num(body, 'subscription', 'id'), seats, extras };
}

/** A preview that must answer 200 and leave the very same state; returns `renewal_preview`. */
function preview(s: Site, id: number, body?: unknown): unknown {
  const before = s.state;
  const called = s.request('POST', paths(id).renewalPreview, body);
  expect(called.status, show(called.body)).toBe(200);
  expect(called.state).toBe(before);
  expect(called.events).toEqual([]);
  return get(called.body, 'renewal_preview');
}

const allocate = (s: Site, id: number, component: number, quantity: number) =>
  s.ok('POST', `/subscriptions/${id}/components/${component}/allocations.json`, { allocation: { quantity } });

/** Lets the first renewal (15 February at noon) happen; returns its invoice. */
function renewal(s: Site, id: number): unknown {
  s.advance('2026-02-16T00:00:00Z');
  const invoice = s.invoices(id).at(-1);
  expect(get(invoice, 'role')).toBe('renewal');
  return invoice;
}

function expectSameAmounts(previewed: unknown, invoice: unknown): void {
  expect({
    subtotal: get(previewed, 'subtotal_in_cents'),
    discount: get(previewed, 'total_discount_in_cents'),
    tax: get(previewed, 'total_tax_in_cents'),
    total: get(previewed, 'total_in_cents'),
  }).toEqual({
    subtotal: cents(get(invoice, 'subtotal_amount')),
    discount: cents(get(invoice, 'discount_amount')),
    tax: cents(get(invoice, 'tax_amount')),
    total: cents(get(invoice, 'total_amount')),
  });
  const lines = (get(previewed, 'line_items') as unknown[]).map((line) => get(line, 'amount_in_cents'));
  const invoiced = (get(invoice, 'line_items') as unknown[]).map((line) =>
    cents(get(line, 'subtotal_amount')),
  );
  expect(lines).toEqual(invoiced);
}

describe('renewal preview', () => {
  it('at current quantities equals the renewal invoice that time then produces (with taxes and a coupon)', () => {
    const { s, id, seats, extras } = taxedSite();
    allocate(s, id, seats, 4);
    allocate(s, id, extras, 3);
    const previewed = preview(s, id);
    expect(previewed).toMatchObject({
      next_assessment_at: '2026-02-15T12:00:00Z',
      existing_balance_in_cents: 0,
      uncalculated_taxes: false,
    });
    // 19.99 + 4 × 3.33 + 3 × 0.50 = 34.81
    expect(get(previewed, 'subtotal_in_cents')).toBe(3481);
    expect(get(previewed, 'total_amount_due_in_cents')).toBe(get(previewed, 'total_in_cents'));
    expect(get(previewed, 'line_items')).toEqual([
      expect.objectContaining({ kind: 'baseline', amount_in_cents: 1999, component_id: 0 }),
      expect.objectContaining({ component_id: seats, component_handle: 'seats', amount_in_cents: 1332 }),
      expect.objectContaining({ component_id: extras, amount_in_cents: 150, taxable_amount_in_cents: 0 }),
    ]);
    expectSameAmounts(previewed, renewal(s, id));
  });

  it('with an empty body, with no body and with an empty components list: the same answer', () => {
    const { s, id, seats } = taxedSite();
    allocate(s, id, seats, 2);
    const plain = preview(s, id);
    expect(preview(s, id, {})).toEqual(plain);
    expect(preview(s, id, { components: [] })).toEqual(plain);
  });

  it('with custom quantities: the renewal as it would be at those quantities, and nothing changes', () => {
    const { s, id, seats } = taxedSite();
    allocate(s, id, seats, 4);
    const custom = preview(s, id, { components: [{ component_id: seats, quantity: 7 }] });
    expect(get(custom, 'line_items', 1, 'amount_in_cents')).toBe(7 * 333);
    expect(preview(s, id, { components: [{ component_id: 'handle:seats', quantity: 7 }] })).toEqual(custom);
    // The allocation is still 4: the preview at current quantities did not move.
    expect(get(preview(s, id), 'line_items', 1, 'amount_in_cents')).toBe(4 * 333);
    // Allocating 7 for real, the renewal equals the custom preview.
    s.at('2026-02-15T11:00:00Z');
    allocate(s, id, seats, 7);
    expectSameAmounts(custom, renewal(s, id));
  });

  it('with a custom quantity for a component the subscription has never allocated', () => {
    const { s, id, seats, extras } = taxedSite();
    const custom = preview(s, id, { components: [{ component_id: extras, quantity: 10 }] });
    expect(get(custom, 'line_items')).toEqual([
      expect.objectContaining({ kind: 'baseline' }),
      expect.objectContaining({ component_id: extras, amount_in_cents: 500 }),
    ]);
    expect(get(custom, 'subtotal_in_cents')).toBe(1999 + 500);
    const both = preview(s, id, {
      components: [
        { component_id: extras, quantity: 10 },
        { component_id: seats, quantity: 2 },
      ],
    });
    expect(get(both, 'subtotal_in_cents')).toBe(1999 + 500 + 666);
  });

  it('refuses an unknown component or price point and a negative quantity (422, the same state)', () => {
    const { s, id, seats } = taxedSite();
    expect(
      errorsOf(
        s.fail('POST', paths(id).renewalPreview, { components: [{ component_id: 999, quantity: 1 }] }, 422),
      ),
    ).toMatch(/not found/);
    s.fail(
      'POST',
      paths(id).renewalPreview,
      { components: [{ component_id: seats, quantity: 1, price_point_id: 999 }] },
      422,
    );
    s.fail('POST', paths(id).renewalPreview, { components: [{ component_id: seats, quantity: -1 }] }, 422);
    s.fail('POST', paths(99).renewalPreview, {}, 404);
  });

  it('of a trial: the renewal that ends the trial, initial charge after the trial included', () => {
    const s = site();
    const product = s.product({ ...TRIAL, initial_charge_in_cents: 500, initial_charge_after_trial: true });
    const { id } = s.subscribed(product);
    const previewed = preview(s, id);
    expect(get(previewed, 'next_assessment_at')).toBe('2026-01-22T12:00:00Z');
    s.advance('2026-01-23T00:00:00Z');
    const invoice = s.invoices(id).at(-1);
    expect(get(invoice, 'total_amount')).toBe('25.00');
    expectSameAmounts(previewed, invoice);
  });

  it('of a canceled subscription: refused (422), there is no next renewal', () => {
    const s = site();
    const { id } = s.subscribed(s.product());
    s.ok('DELETE', paths(id).subscription);
    s.fail('POST', paths(id).renewalPreview, {}, 422);
  });
});
