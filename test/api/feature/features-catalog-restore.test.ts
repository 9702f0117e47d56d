import { describe, expect, it } from 'vitest';
import { arr, errorsOf, get, site } from '../../helpers/api.js';
import { component, templates } from './features-fixtures.js';

describe('feature catalog items: archive and restore', () => {
  it('archives with DELETE (204, idempotent) and restores (200)', () => {
    const s = site();
    const t = templates(s);
    const product = s.product();
    s.ok('POST', `/products/${product}/features.json`, {
      feature: { feature_template_id: t.sso, value: true },
    });
    const path = `/products/${product}/features/1.json`;
    const deleted = s.request('DELETE', path);
    expect([deleted.status, deleted.body]).toEqual([204, undefined]);
    expect(get(s.ok('GET', path), 'feature', 'archived_at')).toBe('2026-01-15T12:00:00Z');
    expect(s.request('DELETE', path).status).toBe(204);
    expect(get(s.ok('GET', `/features/${t.sso}.json`), 'feature', 'plans_count')).toBe(0);
    const restored = s.ok('POST', `/products/${product}/features/1/restore.json`, undefined, 200);
    expect(get(restored, 'feature', 'archived_at')).toBeNull();
    expect(
      get(s.ok('POST', `/products/${product}/features/1/restore.json`, undefined, 200), 'feature', 'id'),
    ).toBe(1);
    s.fail('DELETE', `/products/${product}/features/2.json`, undefined, 404);
    s.fail('POST', `/products/${product}/features/2/restore.json`, undefined, 404);
  });

  it('restoring a template leaves its items archived; restoring an item of an archived template is 422', () => {
    const s = site();
    const t = templates(s);
    const product = s.product();
    s.ok('POST', `/products/${product}/features.json`, {
      feature: { feature_template_id: t.sso, value: true },
    });
    s.ok('POST', `/products/${product}/features.json`, { feature: { feature_template_id: t.calls } });
    expect(s.request('DELETE', `/features/${t.sso}.json?remove_from_catalog=true`).status).toBe(204);
    expect(s.request('DELETE', `/features/${t.calls}.json`).status).toBe(204);
    const items = arr(s.ok('GET', `/products/${product}/features.json`), 'features');
    expect(items.map((item) => get(item, 'archived_at') !== null)).toEqual([true, false]);
    const item = `/products/${product}/features/1`;
    expect(errorsOf(s.fail('POST', `${item}/restore.json`, undefined, 422))).toMatch(/template is archived/);
    s.ok('POST', `/features/${t.sso}/restore.json`, undefined, 200);
    expect(get(s.ok('GET', `${item}.json`), 'feature', 'archived_at')).not.toBeNull();
    expect(get(s.ok('POST', `${item}/restore.json`, undefined, 200), 'feature', 'archived_at')).toBeNull();
  });

  it('refuses a restore that would duplicate an active item', () => {
    const s = site();
    const t = templates(s);
    const product = s.product();
    const path = `/products/${product}/features.json`;
    s.ok('POST', path, { feature: { feature_template_id: t.sso, value: true } });
    s.request('DELETE', `/products/${product}/features/1.json`);
    s.ok('POST', path, { feature: { feature_template_id: t.sso, value: false } });
    s.fail('POST', `/products/${product}/features/1/restore.json`, undefined, 422);
  });
});

describe('feature catalog items on components', () => {
  it('runs the same operations under /components/{component_id}/features', () => {
    const s = site();
    const t = templates(s);
    const family = s.family();
    const seats = component(s, family, 'seats');
    const other = component(s, family, 'other');
    const base = `/components/${seats.id}/features`;
    const created = s.ok('POST', `${base}.json`, {
      feature: {
        feature_template_id: t.calls,
        value: 20,
        price_point_type: 'PricePoint',
        price_point_id: seats.pricePoint,
      },
    });
    expect(created).toMatchObject({
      feature: {
        id: 1,
        value: '20',
        periodicity_unit: 'month',
        price_point_type: 'PricePoint',
        price_point_id: seats.pricePoint,
      },
    });
    s.ok('POST', '/components/handle:seats/features.json', {
      feature: { feature_template_id: t.sso, value: true },
    });
    expect(get(s.ok('GET', `/features/${t.sso}.json`), 'feature', 'products_count')).toBe(1);
    const list = s.ok('GET', `${base}.json`);
    expect(arr(list, 'features')).toHaveLength(2);
    expect(get(list, 'subscriptions_count')).toBe(0);
    expect(get(s.ok('GET', `${base}/1.json`), 'feature', 'feature_key')).toBe('api_calls');
    expect(get(s.ok('PUT', `${base}/1.json`, { feature: { value: 30 } }), 'feature', 'value')).toBe('30');
    expect(s.request('DELETE', `${base}/1.json`).status).toBe(204);
    expect(get(s.ok('POST', `${base}/1/restore.json`, undefined, 200), 'feature', 'archived_at')).toBeNull();
    s.fail('GET', `/components/${other.id}/features/1.json`, undefined, 404);
    s.fail('GET', `/products/${seats.id}/features/1.json`, undefined, 404);
    s.fail(
      'POST',
      `/components/${other.id}/features.json`,
      {
        feature: { feature_template_id: t.sso, value: true, price_point_id: seats.pricePoint },
      },
      422,
    );
    s.fail(
      'POST',
      '/components/99/features.json',
      { feature: { feature_template_id: t.sso, value: true } },
      404,
    );
    s.fail('GET', '/components/handle:none/features.json', undefined, 404);
  });
});
