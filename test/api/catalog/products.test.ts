import { describe, expect, it } from 'vitest';
import { arr, errorsOf, get, num, site } from '../../helpers/api.js';

const fullProduct = {
  name: 'Gold',
  handle: 'gold',
  description: 'The gold plan',
  price_in_cents: 4999,
  interval: 1,
  interval_unit: 'month',
  initial_charge_in_cents: 1500,
  trial_price_in_cents: 100,
  trial_interval: 14,
  trial_interval_unit: 'day',
  expiration_interval: 12,
  expiration_interval_unit: 'month',
  require_credit_card: true,
  taxable: true,
};

describe('products', () => {
  it('creates a product with price, interval, trial, initial charge and expiration (201)', () => {
    const s = site();
    const family = s.family('plans');
    const body = s.ok('POST', `/product_families/${family}/products.json`, { product: fullProduct });
    expect(body).toMatchObject({
      product: {
        id: 1,
        name: 'Gold',
        handle: 'gold',
        price_in_cents: 4999,
        interval: 1,
        interval_unit: 'month',
        initial_charge_in_cents: 1500,
        trial_price_in_cents: 100,
        trial_interval: 14,
        trial_interval_unit: 'day',
        expiration_interval: 12,
        expiration_interval_unit: 'month',
        require_credit_card: true,
        request_credit_card: true,
        taxable: true,
        version_number: 1,
        archived_at: null,
        product_family: { id: family, handle: 'plans' },
      },
    });
  });

  it('accepts numbers as numeric strings and a family given by handle', () => {
    const s = site();
    s.family('plans');
    const body = s.ok('POST', '/product_families/handle:plans/products.json', {
      product: { name: 'Basic', price_in_cents: '1000', interval: '3', interval_unit: 'month' },
    });
    expect(body).toMatchObject({
      product: { price_in_cents: 1000, interval: 3, expiration_interval_unit: 'never' },
    });
  });

  it('refuses missing pricing, a bad handle, a taken handle and an unknown family', () => {
    const s = site();
    const family = s.family('plans');
    const path = `/product_families/${family}/products.json`;
    expect(
      errorsOf(s.fail('POST', path, { product: { name: 'A', interval: 1, interval_unit: 'month' } }, 422)),
    ).toMatch(/Price in cents/);
    s.fail(
      'POST',
      path,
      { product: { name: '', price_in_cents: 1, interval: 1, interval_unit: 'month' } },
      422,
    );
    s.fail(
      'POST',
      path,
      { product: { name: 'A', price_in_cents: -1, interval: 1, interval_unit: 'month' } },
      422,
    );
    s.fail(
      'POST',
      path,
      { product: { name: 'A', price_in_cents: 1, interval: 1, interval_unit: 'year' } },
      422,
    );
    s.fail(
      'POST',
      path,
      { product: { name: 'A', price_in_cents: 1, interval: 1, interval_unit: 'month', trial_interval: 3 } },
      422,
    );
    s.fail('POST', path, { product: { ...fullProduct, handle: 'Not OK' } }, 422);
    s.product({ handle: 'gold' }, family);
    s.fail('POST', path, { product: fullProduct }, 422);
    s.fail('POST', '/product_families/99/products.json', { product: fullProduct }, 404);
  });

  it('reads a product by id, by handle:x and at /products/handle/{h}.json; 404 otherwise', () => {
    const s = site();
    const id = s.product({ handle: 'gold' });
    for (const path of [`/products/${id}.json`, '/products/handle:gold.json', '/products/handle/gold.json']) {
      expect(num(s.ok('GET', path), 'product', 'id'), path).toBe(id);
    }
    s.fail('GET', '/products/99.json', undefined, 404);
    s.fail('GET', '/products/handle/silver.json', undefined, 404);
  });

  it("lists products, hiding archived ones unless include_archived=true; lists a family's products", () => {
    const s = site();
    const family = s.family('plans');
    const a = s.product({}, family);
    const b = s.product({}, family);
    const c = s.product();
    s.ok('DELETE', `/products/${b}.json`);
    const ids = (path: string) => arr(s.ok('GET', path)).map((item) => num(item, 'product', 'id'));
    expect(ids('/products.json')).toEqual([a, c]);
    expect(ids('/products.json?include_archived=true')).toEqual([a, b, c]);
    expect(ids(`/product_families/${family}/products.json`)).toEqual([a]);
    expect(ids(`/product_families/${family}/products.json?include_archived=true`)).toEqual([a, b]);
    s.fail('GET', '/product_families/99/products.json', undefined, 404);
  });

  it('updates plain fields without bumping the version; a price change bumps version_number', () => {
    const s = site();
    const id = s.product({ price_in_cents: 1000 });
    const renamed = s.ok('PUT', `/products/${id}.json`, { product: { name: 'Renamed', description: 'd' } });
    expect(renamed).toMatchObject({
      product: { name: 'Renamed', description: 'd', version_number: 1, price_in_cents: 1000 },
    });
    const repriced = s.ok('PUT', `/products/${id}.json`, { product: { price_in_cents: 2500 } });
    expect(repriced).toMatchObject({ product: { name: 'Renamed', version_number: 2, price_in_cents: 2500 } });
    const same = s.ok('PUT', `/products/${id}.json`, { product: { price_in_cents: 2500 } });
    expect(get(same, 'product', 'version_number')).toBe(2);
  });

  it('refuses an update to a taken handle (422) and of an unknown product (404)', () => {
    const s = site();
    s.product({ handle: 'gold' });
    const id = s.product({ handle: 'silver' });
    s.fail('PUT', `/products/${id}.json`, { product: { handle: 'gold' } }, 422);
    s.fail('PUT', '/products/99.json', { product: { name: 'x' } }, 404);
  });

  it('archives with DELETE (200, archived_at set, idempotent) and refuses new subscriptions to it', () => {
    const s = site();
    const id = s.product();
    const archived = s.ok('DELETE', `/products/${id}.json`);
    expect(get(archived, 'product', 'archived_at')).toBe('2026-01-15T12:00:00Z');
    s.at('2026-01-16T00:00:00Z');
    expect(get(s.ok('DELETE', `/products/${id}.json`), 'product', 'archived_at')).toBe(
      '2026-01-15T12:00:00Z',
    );
    const customer = s.customer();
    const profile = s.card(customer);
    s.fail(
      'POST',
      '/subscriptions.json',
      { subscription: { product_id: id, customer_id: customer, payment_profile_id: profile } },
      422,
    );
    s.fail('DELETE', '/products/99.json', undefined, 404);
  });
});
