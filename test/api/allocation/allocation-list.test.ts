/** Listing allocations, their events, and allocations during a trial. */
import { describe, expect, it } from 'vitest';
import { arr, get, num } from '../../helpers/api.js';
import {
  allocate,
  allocationPath,
  component,
  componentLines,
  creditCents,
  fixture,
  invoicesOf,
  subscribe,
  subtotalOf,
} from './allocation-fixtures.js';

describe('listing allocations', () => {
  it('lists the 50 most recent, newest first; page 2 holds the rest', () => {
    const f = fixture();
    const seats = component(f, 'quantity_based_component', { unit_price: '1' });
    const id = subscribe(f);
    for (let quantity = 1; quantity <= 55; quantity += 1)
      allocate(f.s, id, seats, { quantity, memo: `#${quantity}` });
    const before = f.s.state;
    const first = f.s.request('GET', allocationPath(id, seats));
    expect(first.state).toBe(before);
    const quantities = arr(first.body).map((item) => get(item, 'allocation', 'quantity'));
    expect(quantities).toHaveLength(50);
    expect(quantities[0]).toBe(55);
    expect(quantities[49]).toBe(6);
    const ids = arr(first.body).map((item) => num(item, 'allocation', 'allocation_id'));
    expect([...ids].sort((a, b) => b - a)).toEqual(ids);
    const second = arr(f.s.ok('GET', `${allocationPath(id, seats)}?page=2`));
    expect(second.map((item) => get(item, 'allocation', 'memo'))).toEqual(['#5', '#4', '#3', '#2', '#1']);
  });

  it('lists nothing for a component the subscription never allocated', () => {
    const f = fixture();
    const seats = component(f, 'quantity_based_component');
    const id = subscribe(f);
    expect(f.s.ok('GET', allocationPath(id, seats))).toEqual([]);
    expect(f.s.ok('GET', allocationPath(id, `handle:${'nope'}`), undefined, 404)).toBeDefined();
  });

  it('keeps each subscription and component apart', () => {
    const f = fixture();
    const seats = component(f, 'quantity_based_component');
    const disks = component(f, 'quantity_based_component');
    const first = subscribe(f);
    const second = subscribe(f);
    allocate(f.s, first, seats, { quantity: 1 });
    allocate(f.s, second, seats, { quantity: 2 });
    allocate(f.s, first, disks, { quantity: 3 });
    const quantities = (sub: number, comp: number) =>
      arr(f.s.ok('GET', allocationPath(sub, comp))).map((item) => get(item, 'allocation', 'quantity'));
    expect([quantities(first, seats), quantities(second, seats), quantities(first, disks)]).toEqual([
      [1],
      [2],
      [3],
    ]);
  });
});

describe('allocation events', () => {
  it('records component_allocation_change with the allocation data', () => {
    const f = fixture();
    const seats = component(f, 'quantity_based_component', { handle: 'seats' });
    const id = subscribe(f);
    const called = f.s.request('POST', allocationPath(id, 'handle:seats'), {
      allocation: { quantity: 4, memo: 'hi' },
    });
    const event = called.events.find((candidate) => candidate.key === 'component_allocation_change');
    expect(event?.event_specific_data).toMatchObject({
      allocation_id: num(called.body, 'allocation', 'allocation_id'),
      component_id: seats,
      component_handle: 'seats',
      memo: 'hi',
      previous_allocation: 0,
      new_allocation: 4,
      timestamp: '2026-01-15T12:00:00Z',
    });
    expect(event?.subscription_id).toBe(id);
  });

  it('gives a component without a handle and an allocation without a memo as empty strings', () => {
    const f = fixture();
    const seats = component(f, 'quantity_based_component');
    const id = subscribe(f);
    const called = f.s.request('POST', allocationPath(id, seats), { allocation: { quantity: 2 } });
    const event = called.events.find((candidate) => candidate.key === 'component_allocation_change');
    // The official ComponentAllocationChange requires both as strings (null fails the SDK's validation).
    expect(event?.event_specific_data).toMatchObject({ component_handle: '', memo: '' });
  });

  it('uses the key allocation_change under the new catalog experience', () => {
    const f = fixture({ newCatalogExperience: true });
    const seats = component(f, 'quantity_based_component', { tax_code: 'X' });
    const id = subscribe(f);
    const called = f.s.request('POST', allocationPath(id, seats), { allocation: { quantity: 1 } });
    expect(called.events.map((event) => event.key)).toContain('allocation_change');
    expect(called.events.map((event) => event.key)).not.toContain('component_allocation_change');
  });
});

describe('allocations during a trial', () => {
  it('charge and credit nothing; the trial end bills the quantity held', () => {
    const f = fixture();
    const trial = f.s.product(
      { price_in_cents: 1000, trial_price_in_cents: 0, trial_interval: 7, trial_interval_unit: 'day' },
      f.family,
    );
    const seats = component(f, 'quantity_based_component', { unit_price: '5' });
    const id = f.s.subscribed(trial).id;
    expect(allocate(f.s, id, seats, { quantity: 4 })['payment']).toBeNull();
    allocate(f.s, id, seats, { quantity: 3, downgrade_credit: 'full' });
    expect(creditCents(f.s, id)).toBe(0);
    expect(invoicesOf(f.s, id, 'proration')).toEqual([]);
    f.s.advance('2026-01-22T12:00:00Z');
    const [first] = invoicesOf(f.s, id, 'renewal');
    expect(componentLines(first, seats).map(subtotalOf)).toEqual(['15.00']);
    expect(get(first, 'status')).toBe('paid');
  });

  it('charge a prepaid purchase at once all the same', () => {
    const f = fixture();
    const trial = f.s.product(
      { price_in_cents: 1000, trial_price_in_cents: 0, trial_interval: 7, trial_interval_unit: 'day' },
      f.family,
    );
    const prepaid = component(f, 'prepaid_usage_component', { unit_price: '2' });
    const id = f.s.subscribed(trial).id;
    expect(allocate(f.s, id, prepaid, { quantity: 4 })['payment']).toMatchObject({
      amount_in_cents: 800,
      success: true,
    });
  });
});
