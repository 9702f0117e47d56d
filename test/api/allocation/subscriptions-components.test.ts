/**
 * Signup with `subscription.components` (CreateSubscriptionComponent): the components are allocated at
 * signup, charged for the whole first period on the signup invoice, billed on at renewal, and any bad
 * entry refuses the whole signup without writing anything.
 */
import { describe, expect, it } from 'vitest';
import { arr, errorsOf, get, num, type Site } from '../../helpers/api.js';
import { METRICS } from '../../helpers/components.js';
import { component, fixture, PERIOD_END } from './allocation-fixtures.js';

/** A $10 product with seats ($3.33), support (on/off, $5), API calls (metered, $0.01) and a prepaid pack. */
function setup(productFields: Record<string, unknown> = {}) {
  const f = fixture({ metrics: METRICS });
  const product = Object.keys(productFields).length === 0 ? f.product : f.s.product(productFields, f.family);
  const ids = {
    seats: component(f, 'quantity_based_component', { name: 'Seats', handle: 'seats', unit_price: '3.33' }),
    support: component(f, 'on_off_component', { name: 'Support', handle: 'support', unit_price: '5' }),
    calls: component(f, 'metered_component', { name: 'API calls', handle: 'calls', unit_price: '0.01' }),
    pack: component(f, 'prepaid_usage_component', { name: 'Pack', handle: 'pack', unit_price: '2' }),
    events: component(f, 'event_based_component', { name: 'Events', handle: 'events' }),
  };
  const customer = f.s.customer();
  const profile = f.s.card(customer);
  const base = { product_id: product, customer_id: customer, payment_profile_id: profile };
  return { f, s: f.s, ids, base };
}

const signup = (s: Site, fields: Record<string, unknown>) => num(s.subscribe(fields), 'subscription', 'id');

const lineSummary = (invoice: unknown) =>
  arr(invoice, 'line_items').map((line) => [
    get(line, 'title'),
    get(line, 'quantity'),
    get(line, 'subtotal_amount'),
  ]);

const held = (s: Site, id: number) =>
  arr(s.ok('GET', `/subscriptions/${id}/components.json`)).map((item) => [
    get(item, 'component', 'component_handle'),
    get(item, 'component', 'allocated_quantity'),
    get(item, 'component', 'enabled'),
    get(item, 'component', 'unit_balance'),
  ]);

describe('signup with components', () => {
  it('allocates them and charges quantity-based and on/off components for the whole first period', () => {
    const { s, ids, base } = setup();
    const id = signup(s, {
      ...base,
      components: [
        { component_id: 'handle:seats', allocated_quantity: 5 },
        { component_id: ids.support, enabled: true },
        { component_id: 'handle:calls', unit_balance: 40 },
      ],
    });
    const [invoice, ...others] = s.invoices(id);
    expect(others).toEqual([]);
    expect(invoice).toMatchObject({ role: 'signup', status: 'paid', total_amount: '31.65' });
    expect(lineSummary(invoice)).toEqual([
      [expect.stringMatching(/^product-/), '1', '10.00'],
      ['Seats', '5', '16.65'],
      ['Support', '1', '5.00'],
    ]);
    for (const line of arr(invoice, 'line_items').slice(1))
      expect(line).toMatchObject({ period_range_start: '2026-01-15', period_range_end: '2026-02-15' });
    expect(held(s, id)).toEqual(
      expect.arrayContaining([
        ['seats', 5, false, 0],
        ['support', 1, true, 0],
        ['calls', 0, false, 40],
      ]),
    );
    const allocations = arr(s.ok('GET', `/subscriptions/${id}/components/${ids.seats}/allocations.json`));
    expect(allocations).toMatchObject([{ allocation: { quantity: 5, previous_quantity: 0 } }]);
    const usages = arr(s.ok('GET', `/subscriptions/${id}/components/${ids.calls}/usages.json`));
    expect(usages).toMatchObject([{ usage: { quantity: 40 } }]);
  });

  it('renews them: the renewal preview and the renewal bill the same quantities and the metered balance', () => {
    const { s, base } = setup();
    const id = signup(s, {
      ...base,
      components: [
        { component_id: 'handle:seats', allocated_quantity: '5' },
        { component_id: 'handle:support', allocated_quantity: 1 },
        { component_id: 'handle:calls', unit_balance: '40' },
      ],
    });
    const previewed = get(
      s.ok('POST', `/subscriptions/${id}/renewals/preview.json`, undefined, 200),
      'renewal_preview',
    );
    expect(get(previewed, 'subtotal_in_cents')).toBe(1000 + 1665 + 500 + 40);
    s.advance(PERIOD_END);
    const renewal = s.invoices(id).at(-1);
    expect(lineSummary(renewal)).toEqual([
      [expect.stringMatching(/^product-/), '1', '10.00'],
      ['Seats', '5', '16.65'],
      ['Support', '1', '5.00'],
      ['API calls', '40', '0.40'],
    ]);
  });

  it('takes the deprecated quantity, numeric ids, a price point, and a prepaid purchase charged in full', () => {
    const { s, ids, base } = setup();
    const cheaper = num(
      s.ok('POST', `/components/${ids.seats}/price_points.json`, {
        price_point: { name: 'Cheaper', handle: 'cheaper', pricing_scheme: 'per_unit', unit_price: '2' },
      }),
      'price_point',
      'id',
    );
    const id = signup(s, {
      ...base,
      components: [
        { component_id: ids.seats, quantity: 3, price_point_id: 'handle:cheaper' },
        { component_id: String(ids.pack), allocated_quantity: 10 },
      ],
    });
    const [invoice] = s.invoices(id);
    expect(lineSummary(invoice).slice(1)).toEqual([
      ['Seats', '3', '6.00'],
      ['Pack', '10', '20.00'],
    ]);
    expect(get(arr(invoice, 'line_items')[1], 'price_point_id')).toBe(cheaper);
  });

  it('discounts the component charges with the signup coupon', () => {
    const { s, f, base } = setup();
    s.ok('POST', `/product_families/${f.family}/coupons.json`, {
      coupon: { name: 'Ten', code: 'TEN', percentage: '10' },
    });
    const id = signup(s, {
      ...base,
      coupon_code: 'TEN',
      components: [{ component_id: 'handle:seats', allocated_quantity: 10 }],
    });
    expect(s.invoices(id)[0]).toMatchObject({
      subtotal_amount: '43.30',
      discount_amount: '4.33',
      total_amount: '38.97',
    });
  });
});

describe('signup with components: trials', () => {
  const TRIAL = {
    trial_interval: 7,
    trial_interval_unit: 'day',
    trial_price_in_cents: 0,
    price_in_cents: 1000,
  };

  it('charges quantity components nothing during the trial and bills the quantity held at its end; a prepaid purchase is charged at once', () => {
    const { s, base } = setup(TRIAL);
    const id = signup(s, {
      ...base,
      components: [
        { component_id: 'handle:seats', allocated_quantity: 2 },
        { component_id: 'handle:pack', allocated_quantity: 1 },
      ],
    });
    const [atSignup] = s.invoices(id);
    expect(lineSummary(atSignup)).toEqual([['Pack', '1', '2.00']]);
    s.advance('2026-01-22T12:00:00Z');
    const firstPeriod = s.invoices(id).at(-1);
    expect(lineSummary(firstPeriod)).toEqual([
      [expect.stringMatching(/^product-/), '1', '10.00'],
      ['Seats', '2', '6.66'],
    ]);
    expect(arr(firstPeriod, 'line_items')[1]).toMatchObject({
      period_range_start: '2026-01-22',
      period_range_end: '2026-02-22',
    });
  });
});

describe('signup with components: refusals write nothing', () => {
  const refusals = (ids: ReturnType<typeof setup>['ids'], other: number, archived: number) =>
    [
      [[{ component_id: 999 }], 'components.0.component_id'],
      [[{ component_id: 'handle:nope', allocated_quantity: 1 }], 'components.0.component_id'],
      [[{ allocated_quantity: 1 }], 'components.0.component_id'],
      [[{ component_id: other, allocated_quantity: 1 }], 'components.0.component_id'],
      [[{ component_id: archived, allocated_quantity: 1 }], 'components.0.component_id'],
      [
        [{ component_id: ids.seats }, { component_id: 'handle:seats', allocated_quantity: 2 }],
        'components.1.component_id',
      ],
      [[{ component_id: ids.seats, allocated_quantity: -1 }], 'components.0.allocated_quantity'],
      [[{ component_id: ids.seats, allocated_quantity: 1.5 }], 'components.0.allocated_quantity'],
      [[{ component_id: ids.seats, allocated_quantity: 2, quantity: 3 }], 'components.0.quantity'],
      [[{ component_id: ids.seats, unit_balance: 3 }], 'components.0.unit_balance'],
      [[{ component_id: ids.seats, enabled: true }], 'components.0.enabled'],
      [[{ component_id: ids.support, allocated_quantity: 2 }], 'components.0.allocated_quantity'],
      [[{ component_id: ids.support, enabled: false, allocated_quantity: 1 }], 'components.0.enabled'],
      [[{ component_id: ids.calls, allocated_quantity: 3 }], 'components.0.allocated_quantity'],
      [[{ component_id: ids.calls, unit_balance: -3 }], 'components.0.unit_balance'],
      [[{ component_id: ids.events, unit_balance: 3 }], 'components.0.unit_balance'],
      [[{ component_id: ids.seats, price_point_id: 'handle:nope' }], 'components.0.price_point_id'],
      [
        [{ component_id: ids.seats, custom_price: { pricing_scheme: 'per_unit', unit_price: 1 } }],
        'components.0.custom_price',
      ],
      [[{ component_id: ids.seats, allocated_quantity: 'many' }], 'components.0.allocated_quantity'],
    ] as const satisfies readonly (readonly [readonly Record<string, unknown>[], string])[];

  it('answers 422 naming the field for each bad entry, with the state object untouched', () => {
    const { s, f, ids, base } = setup();
    const other = component({ ...f, family: f.s.family() }, 'quantity_based_component');
    const archived = component(f, 'quantity_based_component', { name: 'Old seats' });
    s.ok('DELETE', `/product_families/${f.family}/components/${archived}.json`);
    for (const [components, field] of refusals(ids, other, archived)) {
      const body = s.fail('POST', '/subscriptions.json', { subscription: { ...base, components } }, 422);
      expect(errorsOf(body), JSON.stringify(components)).toContain(field);
    }
  });

  it('creates no customer either when a new customer signs up with a bad component', () => {
    const { s, base } = setup();
    const customers = arr(s.ok('GET', '/customers.json')).length;
    s.fail(
      'POST',
      '/subscriptions.json',
      {
        subscription: {
          product_id: base.product_id,
          customer_attributes: { first_name: 'Grace', last_name: 'Hopper', email: 'grace@example.com' },
          components: [{ component_id: 'handle:nope', allocated_quantity: 1 }],
        },
      },
      422,
    );
    expect(arr(s.ok('GET', '/customers.json'))).toHaveLength(customers);
  });

  it('a refused payment of the component charges refuses the signup', () => {
    const { s, f } = setup();
    const customer = s.customer();
    const declining = s.card(customer, 2);
    s.fail(
      'POST',
      '/subscriptions.json',
      {
        subscription: {
          product_id: f.product,
          customer_id: customer,
          payment_profile_id: declining,
          components: [{ component_id: 'handle:seats', allocated_quantity: 1 }],
        },
      },
      422,
    );
  });
});
