/**
 * `GET /subscriptions_components.json`: every subscription's components across the site, in the order
 * the subscriptions took them, with the SDK's filters, `include=subscription`, sorting, paging and
 * direction; a bad parameter answers 422 and changes nothing.
 */
import { describe, expect, it } from 'vitest';
import { arr, errorsOf, get, num, type Site } from '../../helpers/api.js';
import { allocate, component, fixture, subscribe } from './allocation-fixtures.js';

const DAY1 = '2026-01-15T12:00:00Z';
const DAY2 = '2026-01-16T12:00:00Z';
const DAY3 = '2026-01-17T12:00:00Z';
const DAY4 = '2026-01-18T12:00:00Z';

/** The rows of a listing as `subscription/component` pairs. */
const pairs = (s: Site, query = ''): string[] =>
  arr(s.ok('GET', `/subscriptions_components.json${query}`), 'subscriptions_components').map(
    (row) => `${num(row, 'subscription_id')}/${num(row, 'component_id')}`,
  );

/**
 * Day 1: subscriptions one and two, and three to a product of another family; one takes 3 seats. Day 2:
 * two takes 5 seats, three the other family's add-on. Day 3: one reports 7 API calls; two is canceled.
 * Day 4: one goes to 4 seats.
 */
function setup() {
  const f = fixture({}, DAY1);
  const { s } = f;
  const seats = component(f, 'quantity_based_component', { name: 'Seats', handle: 'seats' });
  const calls = component(f, 'metered_component', { name: 'API calls', handle: 'calls' });
  const otherFamily = s.family();
  const addOn = num(
    s.ok('POST', `/product_families/${otherFamily}/on_off_components.json`, {
      on_off_component: { name: 'Add-on', handle: 'add-on', unit_price: '1' },
    }),
    'component',
    'id',
  );
  const one = subscribe(f);
  const two = subscribe(f);
  const three = s.subscribed(s.product({}, otherFamily)).id;
  allocate(s, one, seats, { quantity: 3 });
  s.at(DAY2);
  allocate(s, two, seats, { quantity: 5 });
  allocate(s, three, addOn, { quantity: 1 });
  s.at(DAY3);
  s.ok('POST', `/subscriptions/${one}/components/${calls}/usages.json`, { usage: { quantity: 7 } });
  s.ok('DELETE', `/subscriptions/${two}.json`);
  s.at(DAY4);
  allocate(s, one, seats, { quantity: 4 });
  const rows = {
    oneSeats: `${one}/${seats}`,
    twoSeats: `${two}/${seats}`,
    threeAddOn: `${three}/${addOn}`,
    oneCalls: `${one}/${calls}`,
  };
  return { s, f, seats, calls, addOn, otherFamily, one, two, three, rows };
}

describe('GET /subscriptions_components.json', () => {
  it('lists every subscription component of the site in the order they were taken; direction=desc reverses', () => {
    const { s, seats, one, rows } = setup();
    const all = [rows.oneSeats, rows.twoSeats, rows.threeAddOn, rows.oneCalls];
    expect(pairs(s)).toEqual(all);
    expect(pairs(s, '?direction=desc')).toEqual([...all].reverse());
    const first = get(s.ok('GET', '/subscriptions_components.json'), 'subscriptions_components', 0);
    expect(first).toMatchObject({
      id: seats,
      component_id: seats,
      subscription_id: one,
      name: 'Seats',
      kind: 'quantity_based_component',
      allocated_quantity: 4,
      currency: 'USD',
      price_point_type: 'default',
      created_at: '2026-01-15T12:00:00Z',
      updated_at: '2026-01-18T12:00:00Z',
    });
    expect(get(first, 'subscription')).toBeUndefined();
  });

  it('filters by subscription ids, product family ids and price point ids (every row has one)', () => {
    const { s, f, otherFamily, one, two, rows } = setup();
    expect(pairs(s, `?subscription_ids=${two}`)).toEqual([rows.twoSeats]);
    expect(pairs(s, `?subscription_ids=${two},${one}`)).toEqual([
      rows.oneSeats,
      rows.twoSeats,
      rows.oneCalls,
    ]);
    expect(pairs(s, `?subscription_ids=${two},${one}&direction=desc&per_page=2`)).toEqual([
      rows.oneCalls,
      rows.twoSeats,
    ]);
    expect(pairs(s, '?subscription_ids=999')).toEqual([]);
    expect(pairs(s, `?product_family_ids=${otherFamily}`)).toEqual([rows.threeAddOn]);
    expect(pairs(s, `?product_family_ids=${f.family}&subscription_ids=${two}`)).toEqual([rows.twoSeats]);
    expect(pairs(s, '?price_point_ids=not_null')).toHaveLength(4);
  });

  it("filters by the subscription's states and updated_at, and shows the subscription on include=subscription", () => {
    const { s, rows } = setup();
    expect(pairs(s, '?filter[subscription][states]=canceled')).toEqual([rows.twoSeats]);
    expect(pairs(s, '?filter[subscription][states]=active,past_due')).toEqual([
      rows.oneSeats,
      rows.threeAddOn,
      rows.oneCalls,
    ]);
    expect(pairs(s, '?filter[subscription][states]=expired_cards')).toEqual([]);
    expect(pairs(s, '?filter[subscription][states]=pending_cancellation')).toEqual([]);
    const body = s.ok(
      'GET',
      '/subscriptions_components.json?filter[subscription][states]=canceled&include=subscription',
    );
    expect(get(body, 'subscriptions_components', 0, 'subscription')).toEqual({
      state: 'canceled',
      updated_at: '2026-01-17T12:00:00Z',
    });
    const updated = '?filter[subscription][date_field]=updated_at&filter[subscription]';
    expect(pairs(s, `${updated}[start_date]=2026-01-18`)).toEqual([rows.oneSeats, rows.oneCalls]);
    expect(pairs(s, `${updated}[end_datetime]=2026-01-17 12:00:00`)).toEqual([
      rows.twoSeats,
      rows.threeAddOn,
    ]);
  });

  it('answers what the one-currency site has for currencies and exchange rates', () => {
    const { s } = setup();
    expect(pairs(s, '?filter[currencies]=EUR')).toEqual([]);
    expect(pairs(s, '?filter[currencies]=eur,usd')).toHaveLength(4);
    expect(pairs(s, '?filter[use_site_exchange_rate]=true')).toHaveLength(4);
    expect(pairs(s, '?filter[use_site_exchange_rate]=false')).toEqual([]);
  });

  it("filters by the row's updated_at range and sorts by updated_at (ties in id order)", () => {
    const { s, rows } = setup();
    expect(pairs(s, '?date_field=updated_at&start_date=2026-01-17')).toEqual([rows.oneSeats, rows.oneCalls]);
    expect(pairs(s, '?end_date=2026-01-16')).toEqual([rows.twoSeats, rows.threeAddOn]);
    expect(pairs(s, '?start_datetime=2026-01-16 12:00:00&end_datetime=2026-01-17 12:00:00')).toEqual([
      rows.twoSeats,
      rows.threeAddOn,
      rows.oneCalls,
    ]);
    expect(pairs(s, '?sort=updated_at')).toEqual([
      rows.twoSeats,
      rows.threeAddOn,
      rows.oneCalls,
      rows.oneSeats,
    ]);
    expect(pairs(s, '?sort=updated_at&direction=desc&per_page=2&page=2')).toEqual([
      rows.threeAddOn,
      rows.twoSeats,
    ]);
    expect(pairs(s, '?sort=id&per_page=3&page=2')).toEqual([rows.oneCalls]);
  });

  it('answers 422 for a bad parameter and changes nothing', () => {
    const { s } = setup();
    for (const query of [
      'sort=name',
      'direction=sideways',
      'date_field=created_at',
      'start_date=yesterday',
      'subscription_ids=1,two',
      `product_family_ids=${Array.from({ length: 201 }, (_, index) => index + 1).join(',')}`,
      'price_point_ids=null',
      'filter[currencies]=DOLLARS',
      'filter[use_site_exchange_rate]=maybe',
      'filter[subscription][states]=sleeping',
      'filter[subscription][date_field]=created_at',
      'filter[subscription][end_datetime]=later',
      'include=invoices',
      'per_page=0',
    ]) {
      const body = s.fail('GET', `/subscriptions_components.json?${query}`, undefined, 422);
      expect(errorsOf(body), query).not.toBe('');
    }
  });

  it('pending_cancellation finds the subscriptions with a delayed cancellation, with or beside states', () => {
    const { s, one, rows } = setup();
    s.ok('POST', `/subscriptions/${one}/delayed_cancel.json`, undefined, 200);
    expect(pairs(s, '?filter[subscription][states]=pending_cancellation')).toEqual([
      rows.oneSeats,
      rows.oneCalls,
    ]);
    expect(pairs(s, '?filter[subscription][states]=pending_cancellation,canceled&direction=desc')).toEqual([
      rows.oneCalls,
      rows.twoSeats,
      rows.oneSeats,
    ]);
    expect(pairs(s, `?filter[subscription][states]=active&subscription_ids=${one}`)).toEqual([
      rows.oneSeats,
      rows.oneCalls,
    ]);
  });
});
