/** Allocations through `handle()`: direction by cost, roll-ups, component kinds. */
import { describe, expect, it } from 'vitest';
import { arr, errorsOf, get, num } from '../../helpers/api.js';
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
  subscribe,
  subtotalOf,
} from './allocation-fixtures.js';

const volume = {
  pricing_scheme: 'volume',
  prices: [
    { starting_quantity: 1, ending_quantity: 5, unit_price: '10' },
    { starting_quantity: 6, unit_price: '8' },
  ],
};

describe('upgrade or downgrade is decided by cost', () => {
  it('a volume move from 5 to 6 units costs less (50 → 48): a downgrade that credits', () => {
    const f = fixture();
    const seats = component(f, 'quantity_based_component', volume);
    const id = subscribe(f);
    allocate(f.s, id, seats, { quantity: 5 });
    const allocation = allocate(f.s, id, seats, { quantity: 6, downgrade_credit: 'full' });
    expect(allocation).toMatchObject({ quantity: 6, previous_quantity: 5, payment: null });
    expect(creditCents(f.s, id)).toBe(200);
    expect(invoicesOf(f.s, id, 'proration')).toHaveLength(1);
  });

  it('a cheaper price point at a higher quantity is a downgrade; a dearer one at a lower quantity an upgrade', () => {
    const f = fixture();
    const seats = component(f, 'quantity_based_component', { unit_price: '10' });
    f.s.ok('POST', `/components/${seats}/price_points.json`, {
      price_point: { name: 'Cheap', handle: 'cheap', pricing_scheme: 'per_unit', unit_price: '2' },
    });
    const standard = num(f.s.ok('GET', `/components/${seats}.json`), 'component', 'default_price_point_id');
    const id = subscribe(f);
    allocate(f.s, id, seats, { quantity: 10 });
    const cheaper = allocate(f.s, id, seats, {
      quantity: 20,
      price_point_id: 'handle:cheap',
      downgrade_credit: 'full',
    });
    expect(creditCents(f.s, id)).toBe(6000);
    expect(cheaper).toMatchObject({ previous_price_point_id: standard, price_point_name: 'Cheap' });
    const dearer = allocate(f.s, id, seats, {
      quantity: 5,
      price_point_id: standard,
      upgrade_charge: 'full',
    });
    // 5 × 10 − 20 × 2 = 10, paid by the service credit the invoice consumes first: nothing to collect.
    expect(dearer['payment']).toBeNull();
    const invoice = invoicesOf(f.s, id, 'proration').at(-1);
    expect(get(invoice, 'total_amount')).toBe('10.00');
    expect(get(invoice, 'credit_amount')).toBe('10.00');
    expect(creditCents(f.s, id)).toBe(5000);
  });
});

describe('allocating several components in one call', () => {
  it('rolls charges and credits into one total: the credit pays part of the charge invoice', () => {
    const f = fixture();
    const seats = component(f, 'quantity_based_component', { unit_price: '10' });
    const disks = component(f, 'quantity_based_component', { unit_price: '3' });
    const id = subscribe(f);
    allocateMany(f.s, id, {
      allocations: [
        { component_id: seats, quantity: 2 },
        { component_id: disks, quantity: 10 },
      ],
    });
    const allocations = allocateMany(f.s, id, {
      upgrade_charge: 'full',
      downgrade_credit: 'full',
      allocations: [
        { component_id: seats, quantity: 5, memo: 'more seats' },
        { component_id: disks, quantity: 4 },
      ],
    });
    expect(allocations.map((allocation) => allocation['quantity'])).toEqual([5, 4]);
    const invoice = invoicesOf(f.s, id, 'proration').at(-1);
    expect(componentLines(invoice, seats).map(subtotalOf)).toEqual(['30.00']);
    expect(get(invoice, 'credit_amount')).toBe('18.00');
    expect(allocations[0]?.['payment']).toMatchObject({ amount_in_cents: 1200, success: true });
    expect(allocations[1]?.['payment']).toBeNull();
    expect(allocations[0]?.['memo']).toBe('more seats');
    expect(creditCents(f.s, id)).toBe(0);
  });

  it('refuses a component twice, an unknown one, a missing component_id, and an empty list', () => {
    const f = fixture();
    const seats = component(f, 'quantity_based_component');
    const id = subscribe(f);
    const path = `/subscriptions/${id}/allocations.json`;
    const twice = {
      allocations: [
        { component_id: seats, quantity: 1 },
        { component_id: seats, quantity: 2 },
      ],
    };
    expect(errorsOf(f.s.fail('POST', path, twice, 422))).toMatch(/more than once/);
    expect(
      errorsOf(f.s.fail('POST', path, { allocations: [{ component_id: 999, quantity: 1 }] }, 422)),
    ).toMatch(/not found/);
    expect(errorsOf(f.s.fail('POST', path, { allocations: [{ quantity: 1 }] }, 422))).toMatch(/component_id/);
    expect(errorsOf(f.s.fail('POST', path, { allocations: [] }, 422))).toMatch(/at least one/);
  });
});

describe('component kinds', () => {
  it('charges a prepaid component at once and in full, whatever the proration and accrual fields say', () => {
    const f = fixture();
    const prepaid = component(f, 'prepaid_usage_component', { unit_price: '2' });
    const id = subscribe(f);
    f.s.at(MIDDLE);
    const bought = allocate(f.s, id, prepaid, { quantity: 10, upgrade_charge: 'none', accrue_charge: true });
    expect(bought).toMatchObject({
      upgrade_charge: 'full',
      accrue_charge: false,
      payment: { amount_in_cents: 2000 },
    });
    const downgraded = allocate(f.s, id, prepaid, { quantity: 4, downgrade_credit: 'full' });
    expect(downgraded).toMatchObject({ downgrade_credit: 'none', payment: null });
    expect(creditCents(f.s, id)).toBe(0);
  });

  it('renews a prepaid allocation only when its price point says so', () => {
    const f = fixture();
    const renewing = component(f, 'prepaid_usage_component', {
      unit_price: '2',
      renew_prepaid_allocation: true,
    });
    const once = component(f, 'prepaid_usage_component', { unit_price: '3' });
    const id = subscribe(f);
    allocateMany(f.s, id, {
      allocations: [
        { component_id: renewing, quantity: 5 },
        { component_id: once, quantity: 5 },
      ],
    });
    f.s.advance(PERIOD_END);
    const [renewal] = invoicesOf(f.s, id, 'renewal');
    expect(componentLines(renewal, renewing).map(subtotalOf)).toEqual(['10.00']);
    expect(componentLines(renewal, once)).toEqual([]);
  });

  it('refuses metered and event-based components', () => {
    const f = fixture({ metrics: [{ id: 7, name: 'Calls', streamHandle: 'calls', aggregation: 'count' }] });
    const metered = component(f, 'metered_component');
    const events = component(f, 'event_based_component', { event_based_billing_metric_id: 7 });
    const id = subscribe(f);
    for (const target of [metered, events]) {
      const body = f.s.fail('POST', allocationPath(id, target), { allocation: { quantity: 1 } }, 422);
      expect(errorsOf(body)).toMatch(/quantity-based, on\/off and prepaid/);
    }
  });

  it('turns an on/off component on and off (1 and 0 only), and lists the toggles newest first', () => {
    const f = fixture();
    const support = component(f, 'on_off_component', { unit_price: '31' });
    const id = subscribe(f);
    f.s.at(MIDDLE);
    expect(allocate(f.s, id, support, { quantity: 1 })['payment']).toMatchObject({ amount_in_cents: 2100 });
    expect(get(f.s.ok('GET', `/subscriptions/${id}/components/${support}.json`), 'component')).toMatchObject({
      enabled: true,
      allocated_quantity: 1,
    });
    allocate(f.s, id, support, { quantity: 0 });
    expect(
      errorsOf(f.s.fail('POST', allocationPath(id, support), { allocation: { quantity: 2 } }, 422)),
    ).toMatch(/0 \(off\) or 1/);
    const listed = arr(f.s.ok('GET', allocationPath(id, support)));
    expect(listed.map((item) => get(item, 'allocation', 'quantity'))).toEqual([0, 1]);
  });

  it('takes decimal quantities only where the component allows fractions', () => {
    const f = fixture();
    const whole = component(f, 'quantity_based_component', { unit_price: '10' });
    const fractional = component(f, 'quantity_based_component', {
      unit_price: '10',
      allow_fractional_quantities: true,
    });
    const id = subscribe(f);
    const refused = f.s.fail(
      'POST',
      allocationPath(id, whole),
      { allocation: { decimal_quantity: '1.5' } },
      422,
    );
    expect(errorsOf(refused)).toMatch(/fractional/);
    const allocation = allocate(f.s, id, fractional, { decimal_quantity: '2.5', upgrade_charge: 'full' });
    expect(allocation).toMatchObject({ quantity: '2.5', payment: { amount_in_cents: 2500 } });
    const disagree = { allocation: { quantity: 3, decimal_quantity: '3.5' } };
    expect(errorsOf(f.s.fail('POST', allocationPath(id, fractional), disagree, 422))).toMatch(/disagree/);
    expect(errorsOf(f.s.fail('POST', allocationPath(id, fractional), { allocation: {} }, 422))).toMatch(
      /required/,
    );
  });
});
