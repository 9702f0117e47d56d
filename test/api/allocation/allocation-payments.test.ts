/** Allocations through `handle()`: prices, settings and legacy schemes, payments, refusals. */
import { describe, expect, it } from 'vitest';
import { errorsOf, get, num } from '../../helpers/api.js';
import {
  allocate,
  allocateMany,
  allocationPath,
  component,
  componentLines,
  creditCents,
  fixture,
  invoicesOf,
  MIDDLE,
  PERIOD_END,
  preview,
  subscribe,
  subtotalOf,
} from './allocation-fixtures.js';

describe('prices', () => {
  it('charges a custom price, and a price point chosen later replaces it', () => {
    const f = fixture();
    const seats = component(f, 'quantity_based_component', { unit_price: '10' });
    const id = subscribe(f);
    const custom = allocate(f.s, id, seats, {
      quantity: 3,
      custom_price: { pricing_scheme: 'per_unit', prices: [{ starting_quantity: 1, unit_price: '7' }] },
    });
    expect(custom).toMatchObject({ price_point_name: 'Custom', payment: { amount_in_cents: 2100 } });
    expect(
      get(f.s.ok('GET', `/subscriptions/${id}/components/${seats}.json`), 'component', 'price_point_type'),
    ).toBe('custom');
    const bad = { allocation: { quantity: 3, custom_price: { pricing_scheme: 'tiered', prices: [] } } };
    expect(f.s.fail('POST', allocationPath(id, seats), bad, 422)).toBeDefined();
    const back = allocate(f.s, id, seats, { quantity: 3, price_point_id: custom['price_point_id'] });
    expect(back).toMatchObject({ price_point_name: 'Default', payment: { amount_in_cents: 900 } });
  });

  it('refuses a price point of another component and an unknown handle', () => {
    const f = fixture();
    const seats = component(f, 'quantity_based_component');
    const other = component(f, 'quantity_based_component');
    const id = subscribe(f);
    const foreign = num(
      get(f.s.ok('GET', `/components/${other}.json`), 'component'),
      'default_price_point_id',
    );
    for (const ref of [foreign, 'handle:nope']) {
      const body = f.s.fail(
        'POST',
        allocationPath(id, seats),
        { allocation: { quantity: 1, price_point_id: ref } },
        422,
      );
      expect(errorsOf(body)).toMatch(/Price point/);
    }
  });
});

describe('settings and legacy schemes', () => {
  it('uses the site defaults: prorated upgrades charged now, no downgrade credit', () => {
    const f = fixture();
    const seats = component(f, 'quantity_based_component', { unit_price: '31' });
    const id = subscribe(f);
    f.s.at(MIDDLE);
    expect(allocate(f.s, id, seats, { quantity: 1 })).toMatchObject({
      upgrade_charge: 'prorated',
      downgrade_credit: 'none',
      accrue_charge: false,
      proration_upgrade_scheme: 'prorate-attempt-capture',
      proration_downgrade_scheme: 'no-prorate',
      payment: { amount_in_cents: 2100 },
    });
    allocate(f.s, id, seats, { quantity: 0 });
    expect(creditCents(f.s, id)).toBe(0);
  });

  it('accepts and echoes the legacy scheme names, and follows them', () => {
    const f = fixture();
    const seats = component(f, 'quantity_based_component', { unit_price: '31' });
    const id = subscribe(f);
    f.s.at(MIDDLE);
    const delayed = allocate(f.s, id, seats, {
      quantity: 2,
      proration_upgrade_scheme: 'full-price-delay-capture',
    });
    expect(delayed).toMatchObject({
      proration_upgrade_scheme: 'full-price-delay-capture',
      upgrade_charge: 'full',
      accrue_charge: true,
      payment: null,
    });
    const credited = allocate(f.s, id, seats, { quantity: 1, proration_downgrade_scheme: 'prorate' });
    expect(credited).toMatchObject({ proration_downgrade_scheme: 'prorate', downgrade_credit: 'prorated' });
    // The delayed charge is not paid yet (it accrues to the renewal), so the downgrade credits nothing:
    // only what was paid for the component this period comes back (issue 20, the books).
    expect(creditCents(f.s, id)).toBe(0);
    const unknown = { allocation: { quantity: 3, proration_upgrade_scheme: 'prorate-sometimes' } };
    expect(f.s.fail('POST', allocationPath(id, seats), unknown, 422)).toBeDefined();
    f.s.advance(PERIOD_END);
    const [renewal] = invoicesOf(f.s, id, 'renewal');
    expect(componentLines(renewal, seats).map(subtotalOf)).toEqual(['31.00', '62.00']);
  });
});

describe('payments', () => {
  it('a failed payment voids the proration invoice and accrues the charge to the renewal', () => {
    const f = fixture();
    const seats = component(f, 'quantity_based_component', { unit_price: '10' });
    const free = f.s.product({ price_in_cents: 0 }, f.family);
    const id = f.s.subscribed(free, 2).id;
    const allocation = allocate(f.s, id, seats, { quantity: 3 });
    expect(allocation['payment']).toMatchObject({ amount_in_cents: 3000, success: false });
    expect(typeof get(allocation, 'payment', 'id')).toBe('number');
    expect(invoicesOf(f.s, id, 'proration').map((invoice) => get(invoice, 'status'))).toEqual(['voided']);
    f.s.advance(PERIOD_END);
    const [renewal] = invoicesOf(f.s, id, 'renewal');
    expect(componentLines(renewal, seats).map(subtotalOf)).toEqual(['30.00', '30.00']);
  });

  it('a remittance subscription gets an open proration invoice and no payment', () => {
    const f = fixture();
    const seats = component(f, 'quantity_based_component', { unit_price: '10' });
    const customer = f.s.customer();
    const id = num(
      f.s.subscribe({
        product_id: f.product,
        customer_id: customer,
        payment_collection_method: 'remittance',
      }),
      'subscription',
      'id',
    );
    expect(allocate(f.s, id, seats, { quantity: 2 })['payment']).toBeNull();
    expect(invoicesOf(f.s, id, 'proration').map((invoice) => get(invoice, 'status'))).toEqual(['open']);
  });

  it('taxes the proration invoice at the current rates', () => {
    const f = fixture({ taxes: [{ name: 'Sales tax', percentage: '8.875' }] });
    const seats = component(f, 'quantity_based_component', { unit_price: '31', taxable: true });
    const id = subscribe(f);
    f.s.at(MIDDLE);
    const allocation = allocate(f.s, id, seats, { quantity: 2 });
    const invoice = invoicesOf(f.s, id, 'proration').at(-1);
    expect(invoice).toMatchObject({ subtotal_amount: '42.00', tax_amount: '3.73', total_amount: '45.73' });
    expect(allocation['payment']).toMatchObject({ amount_in_cents: 4573 });
  });
});

describe('refusals', () => {
  it('404 for an unknown subscription or component; 422 for a closed subscription, a stale previous_quantity, a foreign family', () => {
    const f = fixture();
    const seats = component(f, 'quantity_based_component');
    const elsewhere = component({ ...f, family: f.s.family() }, 'quantity_based_component');
    const id = subscribe(f);
    f.s.fail('POST', allocationPath(999, seats), { allocation: { quantity: 1 } }, 404);
    f.s.fail('POST', allocationPath(id, 999), { allocation: { quantity: 1 } }, 404);
    f.s.fail('GET', allocationPath(id, 999), undefined, 404);
    const stale = f.s.fail(
      'POST',
      allocationPath(id, seats),
      { allocation: { quantity: 2, previous_quantity: 5 } },
      422,
    );
    expect(errorsOf(stale)).toMatch(/previous_quantity/);
    expect(
      errorsOf(f.s.fail('POST', allocationPath(id, elsewhere), { allocation: { quantity: 1 } }, 422)),
    ).toMatch(/product family/);
    expect(
      errorsOf(f.s.fail('POST', allocationPath(id, seats), { allocation: { quantity: -1 } }, 422)),
    ).toMatch(/negative/);
    f.s.ok('DELETE', `/subscriptions/${id}.json`);
    expect(
      errorsOf(f.s.fail('POST', allocationPath(id, seats), { allocation: { quantity: 1 } }, 422)),
    ).toMatch(/canceled/);
  });
});

describe('allocation preview', () => {
  it('shows the charges, credits and taxes the allocation then makes, and changes nothing', () => {
    const f = fixture({ taxes: [{ name: 'Sales tax', percentage: '10' }] });
    const seats = component(f, 'quantity_based_component', {
      unit_price: '31',
      taxable: true,
      handle: 'seats',
    });
    const disks = component(f, 'quantity_based_component', { unit_price: '3.1' });
    const id = subscribe(f);
    allocateMany(f.s, id, {
      allocations: [
        { component_id: seats, quantity: 1 },
        { component_id: disks, quantity: 10 },
      ],
    });
    f.s.at(MIDDLE);
    const body = {
      downgrade_credit: 'prorated',
      allocations: [
        { component_id: 'seats', quantity: 3 },
        { component_id: disks, quantity: 5 },
      ],
    };
    const shown = preview(f.s, id, body);
    // Seats: 2 × 31 × 21/31 = 42 (+ 4.20 tax); disks: −5 × 3.1 × 21/31 = −10.50 of credit.
    expect(shown).toMatchObject({
      start_date: '2026-01-25T12:00:00Z',
      end_date: '2026-02-15T12:00:00Z',
      direction: 'upgrade',
      proration_scheme: 'prorated',
      subtotal_in_cents: 3150,
      total_tax_in_cents: 420,
      total_discount_in_cents: 0,
      total_in_cents: 3570,
      line_items: [
        {
          transaction_type: 'charge',
          kind: 'quantity_based_component',
          amount_in_cents: 4200,
          component_id: seats,
        },
        { transaction_type: 'credit', amount_in_cents: -1050, component_id: disks, direction: 'downgrade' },
        { transaction_type: 'charge', kind: 'tax', amount_in_cents: 420 },
      ],
      allocations: [
        { component_id: seats, quantity: 3, previous_quantity: 1 },
        { component_id: disks, quantity: 5, previous_quantity: 10 },
      ],
    });
    const [charged] = allocateMany(f.s, id, body);
    expect(charged?.['payment']).toMatchObject({ amount_in_cents: 4620 - 1050 });
    const invoice = invoicesOf(f.s, id, 'proration').at(-1);
    expect(invoice).toMatchObject({ subtotal_amount: '42.00', tax_amount: '4.20', credit_amount: '10.50' });
  });

  it('refuses what the allocation would refuse, with the same status', () => {
    const f = fixture();
    const seats = component(f, 'quantity_based_component');
    const id = subscribe(f);
    const path = `/subscriptions/${id}/allocations/preview.json`;
    f.s.fail('POST', path, { allocations: [{ component_id: seats, quantity: -1 }] }, 422);
    f.s.fail('POST', `/subscriptions/999/allocations/preview.json`, { allocations: [] }, 404);
    const early = {
      effective_proration_date: '2025-01-01',
      allocations: [{ component_id: seats, quantity: 2 }],
    };
    expect(get(preview(f.s, id, early), 'start_date')).toBe('2026-01-15T12:00:00Z');
  });
});
