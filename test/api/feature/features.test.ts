import { describe, expect, it } from 'vitest';
import { arr, errorsOf, get, num, type Site, site } from '../../helpers/api.js';

const apiCalls = {
  key: 'api_calls',
  name: 'API calls',
  description: 'Requests per period',
  kind: 'usage_limit',
  unit: 'requests',
  default_value: '1000',
  default_periodicity_interval: 1,
  default_periodicity_unit: 'month',
};

const template = (s: Site, fields: Record<string, unknown>): number =>
  num(s.ok('POST', '/features.json', { feature: fields }), 'feature', 'id');

describe('feature templates: create and read', () => {
  it('creates a usage limit (201) with a numeric value type and its default periodicity', () => {
    const s = site();
    expect(s.ok('POST', '/features.json', { feature: apiCalls })).toEqual({
      feature: {
        id: 1,
        key: 'api_calls',
        name: 'API calls',
        description: 'Requests per period',
        kind: 'usage_limit',
        unit: 'requests',
        value_type: 'numeric',
        default_value: '1000',
        default_periodicity_interval: 1,
        default_periodicity_unit: 'month',
        archived_at: null,
        created_at: '2026-01-15T12:00:00Z',
        updated_at: '2026-01-15T12:00:00Z',
        products_count: 0,
        plans_count: 0,
      },
    });
    expect(get(s.ok('GET', '/features/1.json'), 'feature', 'key')).toBe('api_calls');
    s.fail('GET', '/features/99.json', undefined, 404);
  });

  it('infers boolean for access rights and takes the value type asked for by a service right', () => {
    const s = site();
    const sso = s.ok('POST', '/features.json', {
      feature: { key: 'sso', name: 'SSO', kind: 'access_right', value_type: 'text', default_value: true },
    });
    expect(sso).toMatchObject({ feature: { value_type: 'boolean', default_value: 'true', unit: null } });
    const support = s.ok('POST', '/features.json', {
      feature: {
        key: 'support',
        name: 'Support',
        kind: 'service_right',
        value_type: 'text',
        default_value: 'email',
      },
    });
    expect(support).toMatchObject({ feature: { value_type: 'text', default_value: 'email' } });
  });

  it('refuses a bad or taken key, a missing name or kind, and values, units or periods that do not fit the kind', () => {
    const s = site();
    template(s, apiCalls);
    const refused = (fields: Record<string, unknown>) =>
      errorsOf(s.fail('POST', '/features.json', { feature: fields }, 422));
    const base = { key: 'k', name: 'K', kind: 'access_right' };
    expect(refused({ ...apiCalls })).toMatch(/Key: must be unique/);
    expect(refused({ ...base, key: '' })).toMatch(/Key: cannot be blank/);
    expect(refused({ ...base, key: 'Bad Key' })).toMatch(/Key: must start with a lowercase letter/);
    expect(refused({ ...base, name: ' ' })).toMatch(/Name: cannot be blank/);
    expect(refused({ key: 'k', name: 'K' })).toMatch(/Kind: is required/);
    expect(refused({ ...base, kind: 'superpower' })).toMatch(/kind/);
    expect(refused({ ...base, kind: 'usage_limit' })).toMatch(/Unit: is required/);
    expect(refused({ ...base, kind: 'service_right' })).toMatch(/Value type: is required/);
    expect(refused({ ...base, default_value: 'yes' })).toMatch(/Default value: must be true or false/);
    expect(refused({ ...apiCalls, key: 'x', default_value: '-1' })).toMatch(/Default value/);
    expect(refused({ ...base, default_periodicity_interval: 1, default_periodicity_unit: 'day' })).toMatch(
      /only allowed for usage_limit/,
    );
    expect(refused({ ...apiCalls, key: 'x', default_periodicity_unit: null })).toMatch(/go together/);
    expect(refused({ ...apiCalls, key: 'x', default_periodicity_unit: 'fortnight' })).toMatch(
      /default_periodicity_unit/,
    );
  });
});

describe('feature templates: update, archive, restore', () => {
  it('updates name, description, unit, defaults; refuses key always and kind once in a catalog', () => {
    const s = site();
    const id = template(s, apiCalls);
    s.at('2026-01-16T00:00:00Z');
    const updated = s.ok('PUT', `/features/${id}.json`, {
      feature: {
        name: 'Calls',
        description: null,
        unit: 'calls',
        default_value: 50,
        default_periodicity_unit: 'day',
      },
    });
    expect(updated).toMatchObject({
      feature: {
        name: 'Calls',
        description: null,
        unit: 'calls',
        default_value: '50',
        default_periodicity_unit: 'day',
        updated_at: '2026-01-16T00:00:00Z',
      },
    });
    expect(errorsOf(s.fail('PUT', `/features/${id}.json`, { feature: { key: 'api_calls' } }, 422))).toMatch(
      /Key: cannot be changed/,
    );
    s.fail('PUT', `/features/${id}.json`, { feature: { key: null } }, 422);
    const changed = s.ok('PUT', `/features/${id}.json`, {
      feature: {
        kind: 'access_right',
        default_value: null,
        default_periodicity_interval: null,
        default_periodicity_unit: null,
      },
    });
    expect(changed).toMatchObject({ feature: { kind: 'access_right', value_type: 'boolean' } });
    s.ok('POST', `/products/${s.product()}/features.json`, {
      feature: { feature_template_id: id, value: true },
    });
    expect(
      errorsOf(s.fail('PUT', `/features/${id}.json`, { feature: { kind: 'service_right' } }, 422)),
    ).toMatch(/Kind: cannot be changed once the feature is in a catalog/);
    s.fail('PUT', `/features/${id}.json`, { feature: { kind: 'usage_limit', unit: 'x' } }, 422);
    s.fail('PUT', '/features/99.json', { feature: { name: 'x' } }, 404);
  });

  it('refuses an update that leaves the template inconsistent', () => {
    const s = site();
    const id = template(s, apiCalls);
    s.fail('PUT', `/features/${id}.json`, { feature: { kind: 'access_right' } }, 422);
    s.fail('PUT', `/features/${id}.json`, { feature: { unit: null } }, 422);
    s.fail('PUT', `/features/${id}.json`, { feature: { default_value: 'many' } }, 422);
  });

  it('archives with DELETE (204): 404 to read, update and archive until restored', () => {
    const s = site();
    const id = template(s, apiCalls);
    const deleted = s.request('DELETE', `/features/${id}.json`);
    expect(deleted.status).toBe(204);
    expect(deleted.body).toBeUndefined();
    s.fail('GET', `/features/${id}.json`, undefined, 404);
    s.fail('PUT', `/features/${id}.json`, { feature: { name: 'x' } }, 404);
    s.fail('DELETE', `/features/${id}.json`, undefined, 404);
    s.at('2026-01-17T00:00:00Z');
    const restored = s.ok('POST', `/features/${id}/restore.json`, undefined, 200);
    expect(restored).toMatchObject({
      feature: { id, archived_at: null, updated_at: '2026-01-17T00:00:00Z' },
    });
    expect(get(s.ok('POST', `/features/${id}/restore.json`, undefined, 200), 'feature', 'id')).toBe(id);
    s.fail('POST', '/features/99/restore.json', undefined, 404);
  });
});

describe('feature templates: list', () => {
  const keys = (body: unknown) => arr(body, 'items').map((item) => get(item, 'key'));

  function catalog(s: Site) {
    s.at('2026-01-10T12:00:00Z');
    template(s, { key: 'sso', name: 'Single sign-on', kind: 'access_right' });
    s.at('2026-01-11T12:00:00Z');
    template(s, apiCalls);
    s.at('2026-01-12T12:00:00Z');
    template(s, { key: 'support', name: 'Support level', kind: 'service_right', value_type: 'text' });
    const archived = template(s, { key: 'beta', name: 'Beta access', kind: 'access_right' });
    s.request('DELETE', `/features/${archived}.json`);
  }

  it('lists active templates by name with total and archived counts; status archived or all', () => {
    const s = site({}, '2026-01-01T00:00:00Z');
    catalog(s);
    const active = s.ok('GET', '/features.json');
    expect(keys(active)).toEqual(['api_calls', 'sso', 'support']);
    expect(active).toMatchObject({ total_count: 3, archived_count: 0 });
    expect(s.ok('GET', '/features.json?status=archived')).toMatchObject({
      total_count: 1,
      archived_count: 1,
    });
    expect(keys(s.ok('GET', '/features.json?status=all'))).toEqual(['api_calls', 'beta', 'sso', 'support']);
    expect(s.ok('GET', '/features.json?q=zzz')).toMatchObject({
      items: [],
      total_count: 0,
      archived_count: 0,
    });
    expect(s.ok('GET', '/features.json?q=beta')).toMatchObject({
      items: [],
      total_count: 0,
      archived_count: 1,
    });
  });

  it('filters by q, kind and updated dates; sorts; pages', () => {
    const s = site({}, '2026-01-01T00:00:00Z');
    catalog(s);
    expect(keys(s.ok('GET', '/features.json?q=SIGN'))).toEqual(['sso']);
    expect(keys(s.ok('GET', '/features.json?q=api_'))).toEqual(['api_calls']);
    expect(keys(s.ok('GET', '/features.json?kind=access_right&status=all'))).toEqual(['beta', 'sso']);
    expect(keys(s.ok('GET', '/features.json?kind=all'))).toHaveLength(3);
    expect(keys(s.ok('GET', '/features.json?updated_from=2026-01-11&updated_to=2026-01-11'))).toEqual([
      'api_calls',
    ]);
    expect(keys(s.ok('GET', '/features.json?sort_by=updated_at&sort_direction=desc'))).toEqual([
      'support',
      'api_calls',
      'sso',
    ]);
    expect(keys(s.ok('GET', '/features.json?sort_by=kind'))).toEqual(['sso', 'support', 'api_calls']);
    expect(keys(s.ok('GET', '/features.json?per_page=2&page=2'))).toEqual(['support']);
    for (const bad of [
      'status=gone',
      'kind=x',
      'sort_by=key',
      'sort_direction=up',
      'updated_from=soon',
      'page=0',
    ])
      s.fail('GET', `/features.json?${bad}`, undefined, 422);
  });
});
