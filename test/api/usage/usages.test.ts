/** Metered usage: recording, listing, and billing at renewal by the price point's scheme. */
import { describe, expect, it } from 'vitest';
import { arr, errorsOf, get } from '../../helpers/api.js';
import {
  component,
  componentLines,
  fixture,
  invoicesOf,
  PERIOD_END,
  subscribe,
} from '../allocation/allocation-fixtures.js';

const tiered = {
  pricing_scheme: 'tiered',
  prices: [
    { starting_quantity: 1, ending_quantity: 100, unit_price: '0' },
    { starting_quantity: 101, unit_price: '0.5' },
  ],
};

const usagePath = (subscription: number, componentId: number | string) =>
  `/subscriptions/${subscription}/components/${componentId}/usages.json`;

describe('metered usage', () => {
  it('adds to the period balance; the renewal bills it by scheme and starts again from 0', () => {
    const f = fixture();
    const calls = component(f, 'metered_component', { ...tiered, unit_name: 'call' });
    const id = subscribe(f);
    const recorded = f.s.request('POST', usagePath(id, calls), { usage: { quantity: 150, memo: 'batch 1' } });
    expect(recorded.status).toBe(201);
    expect(get(recorded.body, 'usage')).toMatchObject({
      quantity: 150,
      memo: 'batch 1',
      component_id: calls,
      subscription_id: id,
    });
    expect(recorded.events.map((event) => [event.key, event.event_specific_data])).toEqual([
      [
        'metered_usage',
        {
          previous_unit_balance: '0',
          new_unit_balance: 150,
          usage_quantity: 150,
          component_id: calls,
          // Required strings in the official MeteredUsage: a component without a handle gives ''.
          component_handle: '',
          memo: 'batch 1',
        },
      ],
    ]);
    f.s.ok('POST', usagePath(id, calls), { usage: { quantity: '44' } });
    f.s.advance(PERIOD_END);
    const [renewal] = invoicesOf(f.s, id, 'renewal');
    expect(componentLines(renewal, calls)).toMatchObject([
      {
        quantity: '194',
        subtotal_amount: '47.00',
        // The official Read Invoice example's blended price: 47 / 194 to 8 decimal places.
        unit_price: '0.24226804',
        tiered_unit_price: true,
        period_range_start: '2026-01-15',
        period_range_end: '2026-02-15',
        kind: 'metered_component',
      },
    ]);
    expect(
      get(f.s.ok('GET', `/subscriptions/${id}/components/${calls}.json`), 'component', 'unit_balance'),
    ).toBe(0);
    f.s.ok('POST', usagePath(id, calls), { usage: { quantity: 110 } });
    f.s.advance('2026-03-15T12:00:00Z');
    const second = invoicesOf(f.s, id, 'renewal')[1];
    expect(componentLines(second, calls)).toMatchObject([{ quantity: '110', subtotal_amount: '5.00' }]);
  });

  it('bills nothing for a period without usage', () => {
    const f = fixture();
    const calls = component(f, 'metered_component', tiered);
    const id = subscribe(f);
    f.s.ok('POST', usagePath(id, calls), { usage: { quantity: 1 } });
    f.s.ok('POST', usagePath(id, calls), { usage: { quantity: -1 } });
    f.s.advance(PERIOD_END);
    expect(componentLines(invoicesOf(f.s, id, 'renewal')[0], calls)).toEqual([]);
  });

  it('lists usages newest first, with id bounds and paging', () => {
    const f = fixture();
    const calls = component(f, 'metered_component');
    const id = subscribe(f);
    const ids = [1, 2, 3, 4].map((quantity) =>
      Number(get(f.s.ok('POST', usagePath(id, calls), { usage: { quantity } }), 'usage', 'id')),
    );
    const quantities = (query: string) =>
      arr(f.s.ok('GET', `${usagePath(id, calls)}${query}`)).map((item) => get(item, 'usage', 'quantity'));
    expect(quantities('')).toEqual([4, 3, 2, 1]);
    expect(quantities(`?since_id=${ids[1]}&max_id=${ids[2]}`)).toEqual([3, 2]);
    expect(quantities('?per_page=3&page=2')).toEqual([1]);
    expect(quantities('?since_date=2026-01-16')).toEqual([]);
    f.s.fail('GET', `${usagePath(id, calls)}?since_date=yesterday`, undefined, 422);
  });

  it('refuses other kinds, zero, fractions where not allowed, and a balance below 0', () => {
    const f = fixture();
    const seats = component(f, 'quantity_based_component');
    const calls = component(f, 'metered_component');
    const id = subscribe(f);
    expect(errorsOf(f.s.fail('POST', usagePath(id, seats), { usage: { quantity: 1 } }, 422))).toMatch(
      /metered/,
    );
    f.s.fail('POST', usagePath(id, calls), { usage: { quantity: 0 } }, 422);
    expect(errorsOf(f.s.fail('POST', usagePath(id, calls), { usage: { quantity: '1.5' } }, 422))).toMatch(
      /fractional/,
    );
    expect(errorsOf(f.s.fail('POST', usagePath(id, calls), { usage: { quantity: -2 } }, 422))).toMatch(
      /below 0/,
    );
    f.s.fail('POST', usagePath(id, calls), { usage: {} }, 422);
    f.s.fail('POST', usagePath(999, calls), { usage: { quantity: 1 } }, 404);
  });

  it('bills the usage at a price point named by the usage', () => {
    const f = fixture();
    const calls = component(f, 'metered_component', { unit_price: '1' });
    f.s.ok('POST', `/components/${calls}/price_points.json`, {
      price_point: { name: 'Bulk', handle: 'bulk', pricing_scheme: 'per_unit', unit_price: '0.25' },
    });
    const id = subscribe(f);
    f.s.ok('POST', usagePath(id, calls), { usage: { quantity: 8, price_point_id: 'handle:bulk' } });
    f.s.advance(PERIOD_END);
    expect(componentLines(invoicesOf(f.s, id, 'renewal')[0], calls)).toMatchObject([
      { subtotal_amount: '2.00' },
    ]);
  });
});
