/**
 * Offers through the public API: create (every reference checked against the catalog, names and prices
 * shown from its rows), list with paging and archived ones on request, read by id or handle, archive and
 * unarchive, and every refusal answering the official error shape while changing nothing.
 */
import { describe, expect, it } from 'vitest';
import { arr, get, num, type Site, site, str } from '../../helpers/api.js';

type Body = Record<string, unknown>;

/** Family `plans`: product `gold` ($49) with a $39 `annual` price point, components, coupons. */
function catalog() {
  const s = site({ id: 7, timeZone: 'America/New_York' }, '2026-03-02T15:00:00Z');
  const family = s.family('plans');
  const gold = s.product({ name: 'Gold', handle: 'gold', price_in_cents: 4900 }, family);
  const annual = num(
    s.ok('POST', `/products/${gold}/price_points.json`, {
      price_point: {
        name: 'Annual',
        handle: 'annual',
        price_in_cents: 3900,
        interval: 12,
        interval_unit: 'month',
      },
    }),
    'price_point',
    'id',
  );
  const component = (kind: string, fields: Body) =>
    num(
      s.ok('POST', `/product_families/${family}/${kind}s.json`, {
        [kind]: { unit_name: 'unit', pricing_scheme: 'per_unit', ...fields },
      }),
      'component',
      'id',
    );
  const seats = component('quantity_based_component', { name: 'Seats', handle: 'seats', unit_price: '2.5' });
  const support = component('on_off_component', { name: 'Support', handle: 'support', unit_price: 20 });
  const calls = component('metered_component', { name: 'Calls', handle: 'calls', unit_price: '0.01' });
  s.ok('POST', `/product_families/${family}/coupons.json`, {
    coupon: { name: 'Ten off', code: 'TEN', percentage: '10' },
  });
  return { s, family, gold, annual, seats, support, calls };
}

const offerBody = (fields: Body) => ({ offer: { name: 'Starter', handle: 'starter', ...fields } });
const create = (s: Site, fields: Body) => get(s.ok('POST', '/offers.json', offerBody(fields)), 'offer');
const listed = (s: Site, query = '') =>
  arr(s.ok('GET', `/offers.json${query}`), 'offers').map((o) => str(o, 'handle'));

describe('offers', () => {
  it('creates an offer with the names and prices of the catalog rows it names', () => {
    const { s, family, gold, annual, seats, support } = catalog();
    const offer = create(s, {
      description: ' Gold, yearly, with seats ',
      product_id: gold,
      product_price_point_id: annual,
      components: [
        { component_id: seats, starting_quantity: 5 },
        { component_id: 'support', starting_quantity: '1' },
      ],
      coupons: ['ten'],
    });
    expect(offer).toEqual({
      id: 1,
      site_id: 7,
      product_family_id: family,
      product_id: gold,
      product_price_point_id: annual,
      product_revisable_number: 1,
      name: 'Starter',
      handle: 'starter',
      description: 'Gold, yearly, with seats',
      created_at: '2026-03-02T10:00:00-05:00',
      updated_at: '2026-03-02T10:00:00-05:00',
      archived_at: null,
      offer_items: [
        {
          component_id: seats,
          price_point_id: expect.any(Number),
          starting_quantity: '5',
          editable: false,
          component_unit_price: '2.5',
          component_name: 'Seats',
          price_point_name: 'Default',
          currency_prices: [],
          interval_unit: null,
        },
        {
          component_id: support,
          price_point_id: expect.any(Number),
          starting_quantity: '1',
          editable: false,
          component_unit_price: '20',
          component_name: 'Support',
          price_point_name: 'Default',
          currency_prices: [],
          interval_unit: null,
        },
      ],
      offer_discounts: [{ coupon_code: 'TEN', coupon_id: 1, coupon_name: 'Ten off' }],
      product_family_name: 'plans',
      product_name: 'Gold',
      product_price_point_name: 'Annual',
      product_price_in_cents: 3900,
      offer_signup_pages: [],
    });
    const defaultPoint = num(s.ok('GET', `/components/${seats}.json`), 'component', 'default_price_point_id');
    expect(get(offer, 'offer_items', 0, 'price_point_id')).toBe(defaultPoint);
  });

  it("uses the product's default price point, starts components at 0, and reads by id or handle", () => {
    const { s, gold, calls } = catalog();
    const offer = create(s, { product_id: gold, components: [{ component_id: calls }] });
    expect(get(offer, 'product_price_point_name')).toBe('Default');
    expect(get(offer, 'product_price_in_cents')).toBe(4900);
    expect(get(offer, 'offer_items', 0, 'starting_quantity')).toBe('0');
    expect(get(offer, 'offer_items', 0, 'component_unit_price')).toBe('0.01');
    expect(get(offer, 'offer_discounts')).toEqual([]);
    expect(get(offer, 'description')).toBeNull();
    expect(s.ok('GET', '/offers/1.json')).toEqual({ offer });
    expect(s.ok('GET', '/offers/handle:starter.json')).toEqual({ offer });
  });

  it('shows the catalog as it is now: a repriced price point shows its new price', () => {
    const { s, gold, annual } = catalog();
    create(s, { product_id: gold, product_price_point_id: annual });
    s.ok('PUT', `/products/${gold}/price_points/${annual}.json`, { price_point: { price_in_cents: 3500 } });
    expect(num(s.ok('GET', '/offers/1.json'), 'offer', 'product_price_in_cents')).toBe(3500);
  });

  it("shows a tiered price point's first bracket and its own interval; a renamed coupon by its new name", () => {
    const { s, family, seats } = catalog();
    s.ok('POST', `/components/${seats}/price_points.json`, {
      price_point: {
        name: 'Quarterly tiers',
        handle: 'quarterly',
        pricing_scheme: 'tiered',
        interval: 3,
        interval_unit: 'month',
        prices: [
          { starting_quantity: 1, ending_quantity: 10, unit_price: '4' },
          { starting_quantity: 11, unit_price: '3' },
        ],
      },
    });
    const offer = create(s, {
      product_id: 'handle:gold',
      components: [{ component_id: seats, price_point_id: 'handle:quarterly', starting_quantity: 12 }],
      coupons: ['TEN'],
    });
    expect(get(offer, 'offer_items', 0)).toMatchObject({
      price_point_name: 'Quarterly tiers',
      component_unit_price: '4',
      interval: 3,
      interval_unit: 'month',
      starting_quantity: '12',
    });
    s.ok('PUT', `/product_families/${family}/coupons/1.json`, { coupon: { name: 'Ten percent' } });
    expect(get(s.ok('GET', '/offers/1.json'), 'offer', 'offer_discounts', 0, 'coupon_name')).toBe(
      'Ten percent',
    );
  });

  it('lists in id order with paging; archived offers only with include_archived', () => {
    const { s, gold } = catalog();
    for (const handle of ['a', 'b', 'c']) create(s, { handle, product_id: gold });
    s.at('2026-03-03T15:00:00Z');
    const archived = get(s.ok('PUT', '/offers/2/archive.json'), 'offer');
    expect(get(archived, 'archived_at')).toBe('2026-03-03T10:00:00-05:00');
    expect(get(archived, 'updated_at')).toBe('2026-03-03T10:00:00-05:00');
    expect(listed(s)).toEqual(['a', 'c']);
    expect(listed(s, '?include_archived=true')).toEqual(['a', 'b', 'c']);
    expect(listed(s, '?include_archived=true&per_page=2&page=2')).toEqual(['c']);
    expect(listed(s, '?per_page=1&page=2')).toEqual(['c']);
    expect(listed(s, '?page=3')).toEqual([]);
    const unarchived = get(s.ok('PUT', '/offers/handle:b/unarchive.json'), 'offer');
    expect(get(unarchived, 'archived_at')).toBeNull();
    expect(listed(s)).toEqual(['a', 'b', 'c']);
  });

  it('archiving an archived offer (or unarchiving an offered one) changes nothing', () => {
    const { s, gold } = catalog();
    create(s, { product_id: gold });
    const before = s.state;
    expect(s.request('PUT', '/offers/1/unarchive.json').state).toBe(before);
    s.ok('PUT', '/offers/1/archive.json');
    const archived = s.state;
    s.at('2026-03-05T15:00:00Z');
    const again = s.request('PUT', '/offers/1/archive.json');
    expect(again.status).toBe(200);
    expect(again.state).toBe(archived);
  });

  it('answers 404 for an unknown offer, and 422 for a bad list query', () => {
    const { s } = catalog();
    for (const path of ['/offers/1.json', '/offers/handle:x.json', '/offers/0.json', '/offers/abc.json'])
      expect(s.fail('GET', path, undefined, 404)).toEqual({ errors: ['Offer not found.'] });
    s.fail('PUT', '/offers/9/archive.json', undefined, 404);
    s.fail('PUT', '/offers/9/unarchive.json', undefined, 404);
    expect(arr(s.fail('GET', '/offers.json?include_archived=maybe', undefined, 422), 'errors')).toHaveLength(
      1,
    );
    s.fail('GET', '/offers.json?per_page=0', undefined, 422);
  });

  it('refuses a body without its required fields, in the official {errors: {field: [...]}} shape', () => {
    const { s } = catalog();
    const body = s.fail('POST', '/offers.json', {}, 422);
    expect(Object.keys(get(body, 'errors') as object)).toEqual(['offer']);
    const fields = get(s.fail('POST', '/offers.json', { offer: { name: ' ' } }, 422), 'errors');
    expect(Object.keys(fields as object).sort()).toEqual(['offer.handle', 'offer.name', 'offer.product_id']);
  });

  it('checks every reference against the catalog and names each field at fault', () => {
    const { s, gold, seats } = catalog();
    const other = s.family('other');
    const stranger = s.product({ handle: 'stranger' }, other);
    const foreignSeats = num(
      s.ok('POST', `/product_families/${other}/quantity_based_components.json`, {
        quantity_based_component: { name: 'X', unit_name: 'x', pricing_scheme: 'per_unit', unit_price: 1 },
      }),
      'component',
      'id',
    );
    s.ok('POST', `/product_families/${other}/coupons.json`, {
      coupon: { name: 'F', code: 'FOREIGN', amount_in_cents: 100 },
    });
    const errorsOf = (fields: Body) => get(s.fail('POST', '/offers.json', offerBody(fields), 422), 'errors');
    expect(errorsOf({ product_id: 999 })).toEqual({ 'offer.product_id': ['product 999 not found'] });
    expect(errorsOf({ product_id: gold, product_price_point_id: 999 })).toEqual({
      'offer.product_price_point_id': ['price point 999 not found for the product'],
    });
    const strangerPoint = num(s.ok('GET', `/products/${stranger}.json`), 'product', 'product_price_point_id');
    expect(
      Object.keys(errorsOf({ product_id: gold, product_price_point_id: strangerPoint }) as object),
    ).toEqual(['offer.product_price_point_id']);
    expect(
      errorsOf({
        product_id: gold,
        components: [
          { component_id: 999 },
          { component_id: foreignSeats },
          { starting_quantity: 1 },
          { component_id: seats, price_point_id: 999 },
          { component_id: seats, starting_quantity: '1.5' },
          { component_id: 'support', starting_quantity: 2 },
          { component_id: 'calls', starting_quantity: 3 },
        ],
        coupons: ['NOPE', 'FOREIGN'],
      }),
    ).toEqual({
      'offer.components.0.component_id': ['component 999 not found'],
      'offer.components.1.component_id': ["the component is not in the product's family"],
      'offer.components.2.component_id': ['is required'],
      'offer.components.3.price_point_id': ['price point 999 not found for the component'],
      'offer.components.4.starting_quantity': ['the component does not allow fractional quantities'],
      'offer.components.5.starting_quantity': ['an on/off component starts at 0 (off) or 1 (on)'],
      'offer.components.6.starting_quantity': ['a metered_component bills its usage, so it starts at 0'],
      'offer.coupons.0': ['coupon NOPE not found'],
      'offer.coupons.1': ["coupon FOREIGN is not in the product's family"],
    });
    expect(
      errorsOf({
        product_id: gold,
        components: [{ component_id: seats }, { component_id: 'seats' }],
        coupons: ['TEN', 'ten'],
      }),
    ).toEqual({
      'offer.components.1.component_id': ['the component appears more than once'],
      'offer.coupons.1': ['coupon ten appears more than once'],
    });
    expect(
      errorsOf({ product_id: gold, components: [{ component_id: seats, starting_quantity: -1 }] }),
    ).toEqual({
      'offer.components.0.starting_quantity': ['must not be negative'],
    });
  });

  it('refuses archived rows, expired coupons, a taken or malformed handle', () => {
    const { s, family, gold, seats } = catalog();
    create(s, { product_id: gold });
    const errorsOf = (fields: Body) => get(s.fail('POST', '/offers.json', offerBody(fields), 422), 'errors');
    expect(Object.keys(errorsOf({ product_id: gold }) as object)).toEqual(['offer.handle']);
    expect(Object.keys(errorsOf({ handle: 'Not A Handle', product_id: gold }) as object)).toEqual([
      'offer.handle',
    ]);
    s.ok('POST', `/product_families/${family}/coupons.json`, {
      coupon: { name: 'Old', code: 'OLD', percentage: '5', end_date: '2026-03-01' },
    });
    expect(errorsOf({ handle: 'x', product_id: gold, coupons: ['OLD'] })).toEqual({
      'offer.coupons.0': ['coupon OLD is expired'],
    });
    s.ok('DELETE', `/product_families/${family}/components/${seats}.json`);
    expect(errorsOf({ handle: 'x', product_id: gold, components: [{ component_id: seats }] })).toEqual({
      'offer.components.0.component_id': ['the component is archived'],
    });
    s.ok('DELETE', `/products/${gold}.json`);
    expect(errorsOf({ handle: 'x', product_id: gold })).toEqual({
      'offer.product_id': ['the product is archived'],
    });
  });

  it('bounds lists and texts', () => {
    const { s, gold, seats } = catalog();
    const many = Array.from({ length: 101 }, () => ({ component_id: seats }));
    expect(
      Object.keys(
        get(
          s.fail('POST', '/offers.json', offerBody({ product_id: gold, components: many }), 422),
          'errors',
        ) as object,
      ),
    ).toEqual(['offer.components']);
    const coupons = Array.from({ length: 21 }, () => 'TEN');
    s.fail('POST', '/offers.json', offerBody({ product_id: gold, coupons }), 422);
    s.fail('POST', '/offers.json', offerBody({ product_id: gold, name: 'n'.repeat(256) }), 422);
    s.fail('POST', '/offers.json', offerBody({ product_id: gold, description: 'd'.repeat(10_001) }), 422);
  });
});
