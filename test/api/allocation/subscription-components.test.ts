/** A subscription's components: list and read, with allocated quantity, on/off state, usage balance. */
import { describe, expect, it } from 'vitest';
import { arr, get } from '../../helpers/api.js';
import { allocate, component, fixture, subscribe } from './allocation-fixtures.js';

describe('subscription components', () => {
  it('lists the components a subscription holds, in component order, and reads one', () => {
    const f = fixture();
    const support = component(f, 'on_off_component', { unit_price: '5' });
    const seats = component(f, 'quantity_based_component', {
      unit_price: '2',
      handle: 'seats',
      unit_name: 'seat',
    });
    const calls = component(f, 'metered_component', { unit_price: '0.01' });
    const id = subscribe(f);
    allocate(f.s, id, seats, { quantity: 7 });
    allocate(f.s, id, support, { quantity: 1 });
    f.s.ok('POST', `/subscriptions/${id}/components/${calls}/usages.json`, { usage: { quantity: 120 } });
    const listed = arr(f.s.ok('GET', `/subscriptions/${id}/components.json`));
    expect(listed.map((item) => get(item, 'component', 'component_id'))).toEqual([support, seats, calls]);
    expect(listed.map((item) => get(item, 'component'))).toMatchObject([
      { kind: 'on_off_component', enabled: true, allocated_quantity: 1 },
      {
        kind: 'quantity_based_component',
        enabled: false,
        allocated_quantity: 7,
        unit_name: 'seat',
        component_handle: 'seats',
        subscription_id: id,
        pricing_scheme: 'per_unit',
        price_point_type: 'default',
        currency: 'USD',
      },
      { kind: 'metered_component', unit_balance: 120, allocated_quantity: 0 },
    ]);
    const read = get(f.s.ok('GET', `/subscriptions/${id}/components/handle:seats.json`), 'component');
    expect(read).toMatchObject({ id: seats, allocated_quantity: 7, price_point_id: expect.any(Number) });
  });

  it('reads a component the subscription never used as nothing allocated; 404 for unknown ids', () => {
    const f = fixture();
    const seats = component(f, 'quantity_based_component');
    const id = subscribe(f);
    expect(f.s.ok('GET', `/subscriptions/${id}/components.json`)).toEqual([]);
    expect(get(f.s.ok('GET', `/subscriptions/${id}/components/${seats}.json`), 'component')).toMatchObject({
      allocated_quantity: 0,
      enabled: false,
      unit_balance: 0,
    });
    f.s.fail('GET', `/subscriptions/${id}/components/999.json`, undefined, 404);
    f.s.fail('GET', `/subscriptions/999/components.json`, undefined, 404);
  });
});
