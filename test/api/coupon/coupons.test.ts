import { describe, expect, it } from 'vitest';
import { arr, errorsOf, get, num, site } from '../../helpers/api.js';
import { catalog, create, percentCoupon } from './coupons-fixtures.js';

describe('coupons: create', () => {
  it('creates a percentage coupon with the official defaults (201), upper-casing the code', () => {
    const s = site();
    const { family } = catalog(s);
    const body = create(s, family, { coupon: percentCoupon });
    expect(body).toEqual({
      coupon: {
        id: 1,
        name: 'Ten percent',
        code: 'TEN-OFF',
        description: 'Ten off',
        amount: null,
        amount_in_cents: null,
        product_family_id: family,
        product_family_name: 'plans',
        start_date: '2026-01-15T12:00:00Z',
        end_date: null,
        percentage: '10',
        recurring: false,
        recurring_scheme: 'do_not_recur',
        duration_period_count: null,
        duration_interval: null,
        duration_interval_unit: null,
        duration_interval_span: null,
        allow_negative_balance: false,
        archived_at: null,
        conversion_limit: null,
        stackable: false,
        compounding_strategy: 'compound',
        use_site_exchange_rate: true,
        created_at: '2026-01-15T12:00:00Z',
        updated_at: '2026-01-15T12:00:00Z',
        discount_type: 'percent',
        exclude_mid_period_allocations: false,
        apply_on_cancel_at_end_of_period: false,
        apply_on_subscription_expiration: false,
        coupon_restrictions: [],
        currency_prices: [],
      },
    });
  });

  it('creates an amount coupon with every flag, a duration and restrictions by id and handle', () => {
    const s = site();
    const { family, product, component } = catalog(s);
    const body = create(s, 'handle:plans', {
      coupon: {
        name: 'Five dollars',
        code: 'five@acme.com',
        amount_in_cents: '500',
        allow_negative_balance: 'true',
        recurring: true,
        duration_period_count: 3,
        end_date: '2026-12-31',
        stackable: true,
        compounding_strategy: 'full-price',
        exclude_mid_period_allocations: true,
        apply_on_cancel_at_end_of_period: 1,
        apply_on_subscription_expiration: true,
      },
      restricted_products: { 'handle:gold': true },
      restricted_components: { [String(component)]: true },
    });
    expect(body).toMatchObject({
      coupon: {
        code: 'FIVE@ACME.COM',
        product_family_id: family,
        amount: 5,
        amount_in_cents: 500,
        percentage: null,
        discount_type: 'amount',
        recurring: true,
        recurring_scheme: 'recur_with_duration',
        duration_period_count: 3,
        end_date: '2026-12-31',
        allow_negative_balance: true,
        stackable: true,
        compounding_strategy: 'full-price',
        exclude_mid_period_allocations: true,
        apply_on_cancel_at_end_of_period: true,
        apply_on_subscription_expiration: true,
        coupon_restrictions: [
          { id: 1, item_type: 'Product', item_id: product, name: 'Gold', handle: 'gold' },
          { id: 2, item_type: 'Component', item_id: component, name: 'Seats', handle: 'seats' },
        ],
      },
    });
  });

  it('reads recurring without a duration as recur_indefinitely, and an end_date timestamp as its site-zone day', () => {
    const s = site({ timeZone: 'America/New_York' });
    const { family } = catalog(s);
    const body = create(s, family, {
      coupon: { ...percentCoupon, recurring: true, end_date: '2012-08-29T02:00:00Z' },
    });
    expect(body).toMatchObject({
      coupon: { recurring_scheme: 'recur_indefinitely', end_date: '2012-08-28' },
    });
  });

  it('refuses a missing name or code, a bad code, both or neither discount, a percentage over 100', () => {
    const s = site();
    const { family } = catalog(s);
    const path = `/product_families/${family}/coupons.json`;
    const refused = (coupon: Record<string, unknown>) => errorsOf(s.fail('POST', path, { coupon }, 422));
    expect(refused({ code: 'A', percentage: 1 })).toMatch(/Name: cannot be blank/);
    expect(refused({ name: 'A', percentage: 1 })).toMatch(/Code: cannot be blank/);
    expect(refused({ name: 'A', code: 'two words', percentage: 1 })).toMatch(/Code: may contain only/);
    expect(refused({ name: 'A', code: 'ÉTÉ', percentage: 1 })).toMatch(/Code/);
    expect(refused({ name: 'A', code: 'A', percentage: 1, amount_in_cents: 100 })).toMatch(/not both/);
    expect(refused({ name: 'A', code: 'A' })).toMatch(/one of them is required/);
    expect(refused({ name: 'A', code: 'A', percentage: '100.5' })).toMatch(/between 0 and 100/);
    expect(refused({ name: 'A', code: 'A', percentage: '10.12345' })).toMatch(/percentage/);
    expect(refused({ name: 'A', code: 'A', percentage: -1 })).toMatch(/percentage/);
    expect(refused({ name: 'A', code: 'A', amount_in_cents: 1.5 })).toMatch(/amount_in_cents/);
    expect(refused({ name: 'A', code: 'A', percentage: 1, duration_period_count: 2 })).toMatch(/recurring/);
    expect(refused({ name: 'A', code: 'A', percentage: 1, end_date: 'soon' })).toMatch(/End date/);
    expect(refused({ name: 'A', code: 'A', percentage: 1, compounding_strategy: 'x' })).toMatch(
      /compounding_strategy/,
    );
    s.fail('POST', '/product_families/99/coupons.json', { coupon: percentCoupon }, 404);
  });

  it('keeps codes unique in the whole site, in any case, across families', () => {
    const s = site();
    const { family } = catalog(s);
    const other = s.family('other');
    create(s, family, { coupon: percentCoupon });
    const body = s.fail(
      'POST',
      `/product_families/${other}/coupons.json`,
      {
        coupon: { ...percentCoupon, code: 'Ten-Off' },
      },
      422,
    );
    expect(errorsOf(body)).toMatch(/Code: must be unique/);
  });

  it('refuses restriction keys that name nothing, or an item of another family (422)', () => {
    const s = site();
    const { family } = catalog(s);
    const elsewhere = s.product({}, s.family('other'));
    const path = `/product_families/${family}/coupons.json`;
    for (const restricted_products of [
      { '99': true },
      { 'handle:silver': true },
      { [elsewhere]: true },
      { x: 1 },
    ]) {
      expect(errorsOf(s.fail('POST', path, { coupon: percentCoupon, restricted_products }, 422))).toMatch(
        /Restricted products: .* is not a product of this product family/,
      );
    }
    const body = s.fail('POST', path, { coupon: percentCoupon, restricted_components: { '42': true } }, 422);
    expect(errorsOf(body)).toMatch(/Restricted components: "42" is not a component/);
    expect(
      errorsOf(s.fail('POST', path, { coupon: percentCoupon, restricted_products: { 1: 'maybe' } }, 422)),
    ).toMatch(/restricted_products: values must be true or false/);
    s.fail('POST', path, { coupon: percentCoupon, restricted_products: ['1'] }, 422);
  });

  it('reads __proto__, constructor and prototype restriction keys as unknown references, never as prototypes', () => {
    const s = site();
    const { family } = catalog(s);
    const path = `/product_families/${family}/coupons.json`;
    for (const key of ['__proto__', 'constructor', 'prototype', 'handle:__proto__']) {
      for (const map of ['restricted_products', 'restricted_components']) {
        const text = `{"coupon":{"name":"A","code":"PROTO","percentage":5},"${map}":{"${key}":true}}`;
        expect(errorsOf(s.fail('POST', path, text, 422))).toContain(JSON.stringify(key));
        expect(errorsOf(s.fail('POST', path, JSON.parse(text), 422))).toContain(JSON.stringify(key));
      }
    }
    expect(({} as Record<string, unknown>)['true']).toBeUndefined();
    expect(Object.getPrototypeOf({})).toBe(Object.prototype);
    expect(Object.keys(Object.prototype)).toEqual([]);
  });
});

describe('coupons: read, update, archive', () => {
  it('reads a coupon in its family (id or handle:) and by id alone; 404 elsewhere', () => {
    const s = site();
    const { family } = catalog(s);
    const other = s.family('other');
    const id = num(create(s, family, { coupon: percentCoupon }), 'coupon', 'id');
    for (const path of [
      `/product_families/${family}/coupons/${id}.json`,
      `/product_families/handle:plans/coupons/${id}.json`,
      `/coupons/${id}.json`,
    ])
      expect(num(s.ok('GET', path), 'coupon', 'id'), path).toBe(id);
    s.fail('GET', `/product_families/${other}/coupons/${id}.json`, undefined, 404);
    s.fail('GET', `/product_families/99/coupons/${id}.json`, undefined, 404);
    s.fail('GET', '/coupons/99.json', undefined, 404);
    s.fail('GET', '/coupons/abc.json', undefined, 404);
  });

  it('updates fields, switches the discount kind, and adds or removes restrictions with true/false', () => {
    const s = site();
    const { family, product, component } = catalog(s);
    const id = num(
      create(s, family, { coupon: percentCoupon, restricted_products: { [product]: true } }),
      'coupon',
      'id',
    );
    const path = `/product_families/${family}/coupons/${id}.json`;
    s.at('2026-01-16T08:00:00Z');
    const updated = s.ok('PUT', path, {
      coupon: { name: 'Renamed', code: 'renamed', amount_in_cents: 250, end_date: '2026-02-01' },
      restricted_products: { 'handle:gold': false },
      restricted_components: { 'handle:seats': true },
    });
    expect(updated).toMatchObject({
      coupon: {
        id,
        name: 'Renamed',
        code: 'RENAMED',
        description: 'Ten off',
        discount_type: 'amount',
        amount_in_cents: 250,
        percentage: null,
        end_date: '2026-02-01',
        created_at: '2026-01-15T12:00:00Z',
        updated_at: '2026-01-16T08:00:00Z',
        coupon_restrictions: [{ id: 2, item_type: 'Component', item_id: component }],
      },
    });
    const again = s.ok('PUT', path, { coupon: { end_date: null, percentage: 15 } });
    expect(again).toMatchObject({
      coupon: { name: 'Renamed', end_date: null, discount_type: 'percent', percentage: '15', amount: null },
    });
    expect(arr(again, 'coupon', 'coupon_restrictions')).toHaveLength(1);
    expect(get(s.ok('PUT', path, { restricted_products: {} }), 'coupon', 'code')).toBe('RENAMED');
  });

  it('refuses an update to a taken code, a bad restriction, or of a coupon of another family', () => {
    const s = site();
    const { family } = catalog(s);
    create(s, family, { coupon: percentCoupon });
    const id = num(create(s, family, { coupon: { ...percentCoupon, code: 'OTHER' } }), 'coupon', 'id');
    const path = `/product_families/${family}/coupons/${id}.json`;
    expect(errorsOf(s.fail('PUT', path, { coupon: { code: 'ten-off' } }, 422))).toMatch(/must be unique/);
    expect(get(s.ok('PUT', path, { coupon: { code: 'other' } }), 'coupon', 'code')).toBe('OTHER');
    s.fail('PUT', path, { restricted_products: JSON.parse('{"__proto__":true}') }, 422);
    s.fail('PUT', path, { coupon: { percentage: 5, amount_in_cents: 5 } }, 422);
    s.fail('PUT', `/product_families/${s.family('x')}/coupons/${id}.json`, { coupon: { name: 'x' } }, 404);
  });

  it('archives with DELETE: archived_at set, the coupon returned, idempotent', () => {
    const s = site();
    const { family } = catalog(s);
    const id = num(create(s, family, { coupon: percentCoupon }), 'coupon', 'id');
    const path = `/product_families/${family}/coupons/${id}.json`;
    expect(get(s.ok('DELETE', path), 'coupon', 'archived_at')).toBe('2026-01-15T12:00:00Z');
    s.at('2026-01-20T00:00:00Z');
    expect(get(s.ok('DELETE', path), 'coupon', 'archived_at')).toBe('2026-01-15T12:00:00Z');
    expect(get(s.ok('GET', `/coupons/${id}.json`), 'coupon', 'archived_at')).toBe('2026-01-15T12:00:00Z');
    s.fail('DELETE', `/product_families/${family}/coupons/99.json`, undefined, 404);
  });
});
