/** Event keys and `event_specific_data` shapes (SPEC 6, CONTRACT 6), including the new catalog renames. */
import { describe, expect, it } from 'vitest';
import type { SiteConfig, SiteEvent } from '../../../src/index.js';
import { allocate, component, fixture, PERIOD_END, subscribe } from '../allocation/allocation-fixtures.js';

const keysOf = (events: readonly SiteEvent[]) => events.map((event) => event.key);
const find = (events: readonly SiteEvent[], key: string) => events.find((event) => event.key === key);

function migrated(config: SiteConfig) {
  const f = fixture(config);
  const other = f.s.product({ name: 'Pro', price_in_cents: 2000 }, f.family);
  const id = subscribe(f);
  const called = f.s.request('POST', `/subscriptions/${id}/migrations.json`, {
    migration: { product_id: other },
  });
  expect(called.status).toBe(200);
  return { f, id, other, events: called.events };
}

describe('event keys under the new catalog experience', () => {
  it('records subscription_plan_change with a plan message', () => {
    const { f, other, events } = migrated({ newCatalogExperience: true });
    const change = find(events, 'subscription_plan_change');
    expect(change?.message).toMatch(/^Plan changed on subscription \d+ from product-\d+ to Pro$/);
    expect(change?.event_specific_data).toEqual({ previous_product_id: f.product, new_product_id: other });
    expect(keysOf(events)).not.toContain('subscription_product_change');
  });

  it('keeps subscription_product_change by default', () => {
    const { events } = migrated({});
    expect(keysOf(events)).toContain('subscription_product_change');
    expect(keysOf(events)).not.toContain('subscription_plan_change');
  });

  it('records allocation_change with the payment outcome in the message', () => {
    const f = fixture({ newCatalogExperience: true });
    const seats = component(f, 'quantity_based_component', { unit_price: '3' });
    const id = subscribe(f);
    allocate(f.s, id, seats, { quantity: 2 });
    const events = f.s.state.events;
    expect(events.length).toBeGreaterThan(0);
    const listed = f.s.ok('GET', '/events.json?filter=allocation_change') as unknown[];
    expect(listed).toHaveLength(1);
    expect(JSON.stringify(listed[0])).toMatch(/: successful payment/);
    expect(JSON.stringify(f.s.ok('GET', '/events.json?filter=component_allocation_change'))).toBe('[]');
  });

  it('names allocation changes component_allocation_change by default, without a payment note', () => {
    const f = fixture();
    const seats = component(f, 'quantity_based_component', { unit_price: '3' });
    const id = subscribe(f);
    const called = f.s.request('POST', `/subscriptions/${id}/components/${seats}/allocations.json`, {
      allocation: { quantity: 2 },
    });
    const change = find(called.events, 'component_allocation_change');
    expect(change?.message).not.toMatch(/payment/);
    expect(change?.event_specific_data).toMatchObject({
      component_id: seats,
      previous_allocation: 0,
      new_allocation: 2,
    });
  });
});

describe('event_specific_data shapes', () => {
  it('signup and renewal carry PaymentRelatedEvents; statement_closed and customer keys carry null', () => {
    const f = fixture();
    const before = f.s.state.events.length;
    const id = subscribe(f);
    const renewal = f.s.advance(PERIOD_END);
    const all = [...(f.s.ok('GET', '/events.json?direction=asc&per_page=200') as { event: SiteEvent }[])].map(
      (item) => item.event,
    );
    expect(all.length).toBeGreaterThan(before);
    const numbers = { product_id: f.product, account_transaction_id: expect.any(Number) };
    expect(find(all, 'signup_success')?.event_specific_data).toEqual(numbers);
    expect(find(all, 'customer_create')?.event_specific_data).toBeNull();
    expect(keysOf(renewal)[0]).toBe('statement_closed');
    expect(find(renewal, 'statement_closed')).toMatchObject({
      subscription_id: id,
      event_specific_data: null,
    });
    expect(find(renewal, 'renewal_success')?.event_specific_data).toEqual(numbers);
    for (const event of [...all, ...renewal]) {
      if (
        event.key.startsWith('payment_') ||
        event.key.startsWith('renewal_') ||
        event.key === 'signup_success'
      )
        expect(event.event_specific_data).toEqual(numbers);
      expect(event.event_specific_data).not.toEqual({});
    }
  });

  it('a state change carries the previous and new states', () => {
    const f = fixture();
    const id = subscribe(f);
    const called = f.s.request('POST', `/subscriptions/${id}/hold.json`, {});
    expect(called.status).toBe(200);
    expect(find(called.events, 'subscription_state_change')).toMatchObject({
      subscription_id: id,
      event_specific_data: { previous_subscription_state: 'active', new_subscription_state: 'on_hold' },
    });
  });
});
