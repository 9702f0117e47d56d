import { describe, expect, it } from 'vitest';
import { arr, errorsOf, get, num, site } from '../../helpers/api.js';
import { templates } from './features-fixtures.js';

describe('feature catalog items on products', () => {
  it('creates items from templates (201), taking the template defaults, and reads them', () => {
    const s = site();
    const t = templates(s);
    const product = s.product({ handle: 'gold' });
    const sso = s.ok('POST', '/products/handle:gold/features.json', {
      feature: { feature_template_id: t.sso, value: true },
    });
    expect(sso).toEqual({
      feature: {
        id: 1,
        feature_template_id: t.sso,
        feature_key: 'sso',
        feature_name: 'SSO',
        feature_kind: 'access_right',
        value: 'true',
        periodicity_interval: null,
        periodicity_unit: null,
        price_point_type: null,
        price_point_id: null,
        archived_at: null,
        created_at: '2026-01-15T12:00:00Z',
        updated_at: '2026-01-15T12:00:00Z',
      },
    });
    const calls = s.ok('POST', `/products/${product}/features.json`, {
      feature: { feature_template_id: t.calls },
    });
    expect(calls).toMatchObject({
      feature: { value: '1000', periodicity_interval: 1, periodicity_unit: 'month' },
    });
    const weekly = s.ok('POST', `/products/${product}/features.json`, {
      feature: { feature_template_id: String(t.support), value: 'phone' },
    });
    expect(get(weekly, 'feature', 'value')).toBe('phone');
    expect(get(s.ok('GET', `/products/${product}/features/1.json`), 'feature', 'feature_key')).toBe('sso');
    expect(get(s.ok('GET', `/features/${t.sso}.json`), 'feature', 'plans_count')).toBe(1);
  });

  it('scopes an item to one of the product price points', () => {
    const s = site();
    const t = templates(s);
    const product = s.product();
    const pricePoint = num(
      s.ok('POST', `/products/${product}/price_points.json`, {
        price_point: { name: 'Annual', price_in_cents: 10000, interval: 12, interval_unit: 'month' },
      }),
      'price_point',
      'id',
    );
    const body = s.ok('POST', `/products/${product}/features.json`, {
      feature: {
        feature_template_id: t.sso,
        value: 'false',
        price_point_type: 'ProductPricePoint',
        price_point_id: pricePoint,
      },
    });
    expect(body).toMatchObject({
      feature: { value: 'false', price_point_type: 'ProductPricePoint', price_point_id: pricePoint },
    });
    // The same template for the whole product is another item.
    s.ok('POST', `/products/${product}/features.json`, {
      feature: { feature_template_id: t.sso, value: true },
    });
    const path = `/products/${product}/features.json`;
    s.fail(
      'POST',
      path,
      {
        feature: {
          feature_template_id: t.support,
          value: 'x',
          price_point_type: 'PricePoint',
          price_point_id: pricePoint,
        },
      },
      422,
    );
    s.fail(
      'POST',
      path,
      { feature: { feature_template_id: t.support, value: 'x', price_point_id: 99 } },
      422,
    );
    s.fail(
      'POST',
      path,
      { feature: { feature_template_id: t.support, value: 'x', price_point_type: 'ProductPricePoint' } },
      422,
    );
  });

  it('refuses unknown or archived templates, bad values and periodicity, duplicates; 404 for unknown owners', () => {
    const s = site();
    const t = templates(s);
    const product = s.product();
    const path = `/products/${product}/features.json`;
    const refused = (feature: Record<string, unknown>) => errorsOf(s.fail('POST', path, { feature }, 422));
    expect(refused({ value: 'true' })).toMatch(/Feature template: must name a feature template/);
    expect(refused({ feature_template_id: 99, value: 'true' })).toMatch(/must name a feature template/);
    expect(refused({ feature_template_id: t.sso })).toMatch(/Value: is required/);
    expect(refused({ feature_template_id: t.sso, value: 'yes' })).toMatch(/Value: must be true or false/);
    expect(refused({ feature_template_id: t.calls, value: 'lots' })).toMatch(/Value: must be a number/);
    expect(
      refused({ feature_template_id: t.sso, value: true, periodicity_interval: 1, periodicity_unit: 'day' }),
    ).toMatch(/only allowed for usage_limit/);
    expect(refused({ feature_template_id: t.calls, periodicity_interval: 2 })).toMatch(/go together/);
    expect(refused({ feature_template_id: t.calls, periodicity_unit: 'decade' })).toMatch(/periodicity_unit/);
    s.ok('POST', path, { feature: { feature_template_id: t.sso, value: true } });
    expect(refused({ feature_template_id: t.sso, value: false })).toMatch(
      /already in this product's catalog/,
    );
    s.request('DELETE', `/features/${t.support}.json`);
    expect(refused({ feature_template_id: t.support, value: 'x' })).toMatch(/Feature template: is archived/);
    s.fail(
      'POST',
      '/products/99/features.json',
      { feature: { feature_template_id: t.sso, value: true } },
      404,
    );
    s.fail('GET', '/products/99/features.json', undefined, 404);
  });

  it('lists a product items (archived ones too) with the count of its live subscriptions', () => {
    const s = site();
    const t = templates(s);
    const product = s.product();
    const other = s.product();
    s.ok('POST', `/products/${product}/features.json`, {
      feature: { feature_template_id: t.sso, value: true },
    });
    s.ok('POST', `/products/${other}/features.json`, {
      feature: { feature_template_id: t.sso, value: true },
    });
    s.ok('POST', `/products/${product}/features.json`, { feature: { feature_template_id: t.calls } });
    s.request('DELETE', `/products/${product}/features/3.json`);
    s.subscribed(product);
    const body = s.ok('GET', `/products/${product}/features.json`);
    expect(arr(body, 'features').map((item) => [get(item, 'id'), get(item, 'archived_at') !== null])).toEqual(
      [
        [1, false],
        [3, true],
      ],
    );
    expect(get(body, 'subscriptions_count')).toBe(1);
    expect(get(s.ok('GET', `/products/${other}/features.json`), 'subscriptions_count')).toBe(0);
  });

  it('updates the value or periodicity; refuses bad ones, archived items and items of another owner', () => {
    const s = site();
    const t = templates(s);
    const product = s.product();
    const other = s.product();
    s.ok('POST', `/products/${product}/features.json`, { feature: { feature_template_id: t.calls } });
    const path = `/products/${product}/features/1.json`;
    s.at('2026-01-16T00:00:00Z');
    expect(
      s.ok('PUT', path, {
        feature: { value: 5000, periodicity_unit: 'week', propagate_to_subscriptions: true },
      }),
    ).toMatchObject({
      feature: {
        value: '5000',
        periodicity_interval: 1,
        periodicity_unit: 'week',
        updated_at: '2026-01-16T00:00:00Z',
      },
    });
    expect(get(s.ok('PUT', path, { feature: { periodicity_interval: 2 } }), 'feature', 'value')).toBe('5000');
    s.fail('PUT', path, { feature: { value: '-5' } }, 422);
    s.fail('PUT', path, { feature: { periodicity_unit: null } }, 422);
    s.fail('PUT', `/products/${other}/features/1.json`, { feature: { value: 1 } }, 404);
    s.fail('PUT', `/products/${product}/features/99.json`, { feature: { value: 1 } }, 404);
    s.request('DELETE', path);
    expect(errorsOf(s.fail('PUT', path, { feature: { value: 1 } }, 422))).toMatch(/archived/);
  });
});
