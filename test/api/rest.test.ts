import { describe, expect, it } from 'vitest';
import { createSite } from '../../src/index.js';
import { arr, basicAuth as basic, call, get, num, site } from '../helpers/api.js';

describe('REST layer: routing', () => {
  it('answers 404 with an error list for unknown paths', () => {
    const state = createSite();
    for (const path of [
      '/nope.json',
      '/customers',
      '/customers.xml',
      '/customers/1/nope.json',
      '/',
      'customers.json',
      '',
    ]) {
      const result = call(state, 'GET', path);
      expect(result.status, path).toBe(404);
      expect(result.state).toBe(state);
      expect(get(result.body, 'errors')).toEqual(expect.any(Array));
    }
  });

  it('never takes a fixed path segment for an id: another method on it answers 405, not "not found"', () => {
    const state = createSite();
    for (const [method, path] of [
      ['GET', '/subscriptions/preview.json'],
      ['POST', '/subscriptions/lookup.json'],
      ['PUT', '/invoices/events.json'],
      ['GET', '/invoices/payments.json'],
      ['DELETE', '/subscription_groups/signup.json'],
    ] as const) {
      const result = call(state, method, path);
      expect(result.status, `${method} ${path}`).toBe(405);
      expect(result.state).toBe(state);
    }
    // The operations themselves answer, not an invoice or subscription called "events" or "lookup".
    expect(call(state, 'GET', '/invoices/events.json').status).toBe(200);
    expect(call(state, 'GET', '/subscriptions/lookup.json?reference=none').status).toBe(404);
    expect(JSON.stringify(call(state, 'GET', '/subscriptions/lookup.json?reference=none').body)).not.toMatch(
      /lookup/,
    );
  });

  it('answers 405 for a known path with another method', () => {
    const state = createSite();
    for (const [method, path] of [
      ['PUT', '/customers.json'],
      ['DELETE', '/product_families.json'],
      ['POST', '/customers/1.json'],
      ['PUT', '/subscriptions.json'],
      ['POST', '/invoices.json'],
      ['PATCH', '/customers/1.json'],
    ] as const) {
      const result = call(state, method, path, {});
      expect(result.status, `${method} ${path}`).toBe(405);
      expect(result.state).toBe(state);
    }
  });

  it('reads a lowercase method name as the same method', () => {
    expect(call(createSite(), 'get', '/customers.json').status).toBe(200);
  });

  it('answers 400 for a malformed JSON text body, and parses a well-formed one', () => {
    const state = createSite();
    for (const text of ['{', '{"customer": }', 'nul', "{'a': 1}"]) {
      const result = call(state, 'POST', '/customers.json', text);
      expect(result.status, text).toBe(400);
      expect(result.state).toBe(state);
    }
    const parsed = call(
      state,
      'POST',
      '/customers.json',
      '{"customer":{"first_name":"A","last_name":"B","email":"a@b.co"}}',
    );
    expect(parsed.status).toBe(201);
  });
});

describe('REST layer: validation messages', () => {
  it('names the field of a missing value as required', () => {
    const result = call(createSite(), 'POST', '/product_families.json', { product_family: {} });
    expect(result.status).toBe(422);
    expect(result.body).toEqual({ errors: ['product_family.name: is required'] });
  });

  it('reports a value of the wrong type as such, not as missing', () => {
    const state = createSite();
    for (const body of [
      { product_family: { name: 5 } },
      { product_family: 'plans' },
      [{ product_family: { name: 'x' } }],
    ]) {
      const result = call(state, 'POST', '/product_families.json', body);
      expect(result.status).toBe(422);
      expect(JSON.stringify(result.body), JSON.stringify(body)).not.toMatch(/is required/);
    }
  });
});

describe('REST layer: authentication', () => {
  const secured = createSite({ apiKeys: ['KEY', 'OTHER'] });

  it('answers 401 without or with wrong Basic auth, even on unknown paths', () => {
    for (const headers of [
      {},
      { Authorization: basic('WRONG:x') },
      { Authorization: basic('KEY:y') },
      { Authorization: basic('KEY') },
      { Authorization: 'Bearer KEY' },
      { Authorization: 'Basic !!!' },
      { Authorization: basic('KEYX:x') },
    ]) {
      const result = call(secured, 'GET', '/customers.json', undefined, undefined, { headers });
      expect(result.status, JSON.stringify(headers)).toBe(401);
      expect(result.state).toBe(secured);
      expect(result.result.response.headers?.['WWW-Authenticate']).toMatch(/^Basic/);
    }
    expect(call(secured, 'GET', '/nope.json').status).toBe(401);
  });

  it('accepts KEY:x and KEY:X under any header-name case, for every configured key', () => {
    for (const [name, credentials] of [
      ['Authorization', 'KEY:x'],
      ['authorization', 'KEY:X'],
      ['AUTHORIZATION', 'OTHER:x'],
    ] as const) {
      const result = call(secured, 'GET', '/customers.json', undefined, undefined, {
        headers: { [name]: basic(credentials) },
      });
      expect(result.status, `${name} ${credentials}`).toBe(200);
    }
  });

  it('needs no auth when no apiKeys are configured', () => {
    expect(call(createSite(), 'GET', '/customers.json').status).toBe(200);
  });
});

describe('REST layer: query strings', () => {
  it('ignores empty pairs (?&a=1&&) and merges request.query', () => {
    const s = site();
    const a = s.customer();
    const b = s.customer();
    const ids = (path: string, query?: Record<string, string | readonly string[]>) =>
      arr(s.request('GET', path, undefined, query === undefined ? {} : { query }).body).map((item) =>
        num(item, 'customer', 'id'),
      );
    expect(ids('/customers.json?&per_page=1&&')).toEqual([a]);
    expect(ids('/customers.json?&&&')).toEqual([a, b]);
    expect(ids('/customers.json', { per_page: '1', page: '2' })).toEqual([b]);
    expect(ids('/customers.json?per_page=1', { page: ['2'] })).toEqual([b]);
  });

  it('reads comma lists and repeated keys, and filter[x]= as a nested filter', () => {
    const s = site();
    const product = s.product();
    const a = s.subscribed(product).id;
    const b = s.subscribed(product).id;
    s.ok('DELETE', `/subscriptions/${a}.json`);
    const ids = (path: string) => arr(s.ok('GET', path)).map((item) => num(item, 'subscription', 'id'));
    expect(ids('/subscriptions.json?state=active,canceled&direction=asc')).toEqual([a, b]);
    expect(ids('/subscriptions.json?state=active&state=canceled&direction=asc')).toEqual([a, b]);
    expect(ids('/subscriptions.json?state=%20canceled%20,,')).toEqual([a]);
    const points = (path: string) => arr(s.ok('GET', path), 'price_points');
    expect(points(`/products/${product}/price_points.json?filter[archived_at]=not_null`)).toEqual([]);
    expect(points(`/products/${product}/price_points.json?filter[archived_at]=`)).toHaveLength(1);
  });

  it('answers 400 for malformed percent-encoding in the path or the query', () => {
    const state = createSite();
    expect(call(state, 'GET', '/customers/%E0%A4%A.json').status).toBe(400);
    expect(call(state, 'GET', '/customers.json?q=%').status).toBe(400);
  });
});

describe('REST layer: time', () => {
  it("takes a now earlier than the state's clock as the clock", () => {
    const s = site({}, '2026-03-01T00:00:00Z');
    s.customer();
    s.at('2026-02-01T00:00:00Z');
    const id = s.customer();
    expect(get(s.ok('GET', `/customers/${id}.json`), 'customer', 'created_at')).toBe('2026-03-01T00:00:00Z');
  });

  it('accepts now as a Date or an ISO string with an offset; an invalid now is a 400', () => {
    const state = createSite();
    const body = { customer: { first_name: 'A', last_name: 'B', email: 'a@b.co' } };
    const asDate = call(state, 'POST', '/customers.json', body, new Date(Date.UTC(2026, 0, 2, 3, 4, 5)));
    expect(get(asDate.body, 'customer', 'created_at')).toBe('2026-01-02T03:04:05Z');
    const withOffset = call(state, 'POST', '/customers.json', body, '2026-01-02T05:04:05+02:00');
    expect(get(withOffset.body, 'customer', 'created_at')).toBe('2026-01-02T03:04:05Z');
    const invalid = call(state, 'POST', '/customers.json', body, 'yesterday');
    expect(invalid.status).toBe(400);
    expect(invalid.state).toBe(state);
  });

  it("writes timestamps with the site zone's offset", () => {
    const s = site({ timeZone: 'America/New_York' });
    const id = s.customer();
    expect(get(s.ok('GET', `/customers/${id}.json`), 'customer', 'created_at')).toBe(
      '2026-01-15T07:00:00-05:00',
    );
  });
});
