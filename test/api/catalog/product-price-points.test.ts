import { describe, expect, it } from 'vitest';
import { arr, errorsOf, get, num, site } from '../../helpers/api.js';

const gold = {
  name: 'Gold yearly',
  handle: 'gold-yearly',
  price_in_cents: 9900,
  interval: 12,
  interval_unit: 'month',
};

function setup() {
  const s = site();
  const product = s.product({ handle: 'gold', price_in_cents: 1000 });
  const base = `/products/${product}/price_points`;
  return { s, product, base };
}

describe('product price points', () => {
  it('creates a price point (201, type catalog) and lists it beside the default', () => {
    const { s, base } = setup();
    const body = s.ok('POST', `${base}.json`, { price_point: gold });
    expect(body).toMatchObject({
      price_point: {
        id: 2,
        name: 'Gold yearly',
        handle: 'gold-yearly',
        price_in_cents: 9900,
        interval: 12,
        type: 'catalog',
      },
    });
    const list = arr(s.ok('GET', `${base}.json`), 'price_points');
    expect(list.map((point) => get(point, 'type'))).toEqual(['default', 'catalog']);
  });

  it('refuses a missing name, a taken handle, missing pricing and an unknown product', () => {
    const { s, base } = setup();
    s.ok('POST', `${base}.json`, { price_point: gold });
    s.fail('POST', `${base}.json`, { price_point: { ...gold, name: undefined } }, 422);
    expect(errorsOf(s.fail('POST', `${base}.json`, { price_point: gold }, 422))).toMatch(/taken/);
    s.fail('POST', `${base}.json`, { price_point: { name: 'x', interval: 1, interval_unit: 'month' } }, 422);
    s.fail('POST', '/products/99/price_points.json', { price_point: gold }, 404);
  });

  it('allows the same handle on two different products', () => {
    const { s, base } = setup();
    s.ok('POST', `${base}.json`, { price_point: gold });
    const other = s.product();
    s.ok('POST', `/products/${other}/price_points.json`, { price_point: gold });
  });

  it('reads a price point by id and by handle, through a product id or handle; 404 across products', () => {
    const { s, base } = setup();
    const id = num(s.ok('POST', `${base}.json`, { price_point: gold }), 'price_point', 'id');
    for (const path of [
      `${base}/${id}.json`,
      `${base}/handle:gold-yearly.json`,
      `/products/handle:gold/price_points/${id}.json`,
    ]) {
      expect(num(s.ok('GET', path), 'price_point', 'id'), path).toBe(id);
    }
    const other = s.product();
    s.fail('GET', `/products/${other}/price_points/${id}.json`, undefined, 404);
    s.fail('GET', `${base}/99.json`, undefined, 404);
    s.fail('GET', `${base}/handle:nope.json`, undefined, 404);
  });

  it('updates pricing and name, keeping what is not sent', () => {
    const { s, base } = setup();
    const id = num(s.ok('POST', `${base}.json`, { price_point: gold }), 'price_point', 'id');
    const body = s.ok('PUT', `${base}/${id}.json`, {
      price_point: { name: 'Gold annual', price_in_cents: 8900 },
    });
    expect(body).toMatchObject({
      price_point: { name: 'Gold annual', handle: 'gold-yearly', price_in_cents: 8900, interval: 12 },
    });
    s.fail('PUT', `${base}/${id}.json`, { price_point: { handle: 'NOT VALID' } }, 422);
  });

  it('archives (DELETE), hides from the list unless filter[archived_at]=not_null, and unarchives', () => {
    const { s, base } = setup();
    const id = num(s.ok('POST', `${base}.json`, { price_point: gold }), 'price_point', 'id');
    const archived = s.ok('DELETE', `${base}/${id}.json`);
    expect(get(archived, 'price_point', 'archived_at')).toBe('2026-01-15T12:00:00Z');
    const ids = (path: string) => arr(s.ok('GET', path), 'price_points').map((point) => num(point, 'id'));
    expect(ids(`${base}.json`)).toEqual([1]);
    expect(ids(`${base}.json?filter[archived_at]=not_null`)).toEqual([id]);
    expect(ids(`${base}.json?filter%5Barchived_at%5D=not_null`)).toEqual([id]);
    const restored = s.ok('PUT', `${base}/${id}/unarchive.json`);
    expect(get(restored, 'price_point', 'archived_at')).toBeNull();
    expect(ids(`${base}.json`)).toEqual([1, id]);
  });

  it('serves unarchive and default by PATCH too, as the official SDK sends them', () => {
    // SDK 6.1.0 ProductPricePointsController.unarchiveProductPricePoint and promoteProductPricePointToDefault
    // send PATCH; the API description (SPEC) writes PUT. Both methods do the same.
    const { s, base, product } = setup();
    const id = num(s.ok('POST', `${base}.json`, { price_point: gold }), 'price_point', 'id');
    s.ok('DELETE', `${base}/${id}.json`);
    expect(get(s.ok('PATCH', `${base}/${id}/unarchive.json`), 'price_point', 'archived_at')).toBeNull();
    expect(
      get(s.ok('PATCH', `${base}/${id}/default.json`), 'product', 'default_product_price_point_id'),
    ).toBe(id);
    expect(num(s.ok('GET', `/products/${product}.json`), 'product', 'default_product_price_point_id')).toBe(
      id,
    );
  });

  it('refuses to archive the default price point (422)', () => {
    const { s, base } = setup();
    expect(errorsOf(s.fail('DELETE', `${base}/1.json`, undefined, 422))).toMatch(/default/);
  });

  it('makes a price point the default: the product shows its pricing and its version bumps', () => {
    const { s, base, product } = setup();
    const id = num(s.ok('POST', `${base}.json`, { price_point: gold }), 'price_point', 'id');
    const body = s.ok('PUT', `${base}/${id}/default.json`);
    expect(body).toMatchObject({
      product: { id: product, default_product_price_point_id: id, price_in_cents: 9900, version_number: 2 },
    });
    expect(get(s.ok('GET', `/products/${product}.json`), 'product', 'product_price_point_handle')).toBe(
      'gold-yearly',
    );
    // the old default is now an ordinary price point and may be archived
    s.ok('DELETE', `${base}/1.json`);
    // an archived price point cannot become the default
    s.fail('PUT', `${base}/1/default.json`, undefined, 422);
  });

  it('a subscription may name a price point by id or by handle; an archived one is refused', () => {
    const { s, base, product } = setup();
    const id = num(s.ok('POST', `${base}.json`, { price_point: gold }), 'price_point', 'id');
    const customer = s.customer();
    const profile = s.card(customer);
    const byHandle = s.subscribe({
      product_id: product,
      product_price_point_handle: 'gold-yearly',
      customer_id: customer,
      payment_profile_id: profile,
    });
    expect(byHandle).toMatchObject({
      subscription: { product_price_point_id: id, product_price_in_cents: 9900 },
    });
    s.ok('DELETE', `${base}/${id}.json`);
    s.fail(
      'POST',
      '/subscriptions.json',
      {
        subscription: {
          product_id: product,
          product_price_point_id: id,
          customer_id: customer,
          payment_profile_id: profile,
        },
      },
      422,
    );
  });
});
