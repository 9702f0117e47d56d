/**
 * Typed requests and responses (issue 25 item 2): `callRoute` reaches a route by its method and path
 * template, and its answer is typed with what that route's presenter returns, its body with what its
 * schema decodes. The type assertions are checked by the type check; the calls run for real.
 */
import { describe, expect, expectTypeOf, it } from 'vitest';
import { declaredQuery, parseQuery } from '../../src/api/query.js';
import {
  callRoute,
  createSite,
  type WireBody,
  type WireParams,
  type WirePath,
  type WireQuery,
  type WireResponse,
} from '../../src/index.js';

const now = '2026-06-01T12:00:00Z';

describe('callRoute', () => {
  it("types a route's answer with its presenter's shape, and its body with its schema's", () => {
    const created = callRoute(createSite(), 'POST', '/customers.json', {
      now,
      body: { customer: { first_name: 'Ada', last_name: 'Lovelace', email: 'ada@example.com' } },
    });
    expect(created.ok).toBe(true);
    if (!created.ok) return;
    expectTypeOf(created.body.customer.id).toEqualTypeOf<number>();
    expectTypeOf(created.body.customer.email).toEqualTypeOf<string>();
    expectTypeOf(created.body.customer.organization).toEqualTypeOf<string | null>();
    expect(created.body.customer).toMatchObject({ id: 1, first_name: 'Ada', email: 'ada@example.com' });

    const read = callRoute(created.state, 'GET', '/customers/{id}.json', { now, params: { id: 1 } });
    expect(read.status).toBe(200);
    if (read.ok) expect(read.body.customer.last_name).toBe('Lovelace');

    const listed = callRoute(created.state, 'GET', '/customers.json', { now, query: { per_page: '5' } });
    if (listed.ok) {
      expectTypeOf(listed.body).toBeArray();
      expect(listed.body.map((each) => each.customer.first_name)).toEqual(['Ada']);
    }
  });

  it('answers an error with its error body, typed apart from success', () => {
    const missing = callRoute(createSite(), 'GET', '/customers/{id}.json', { now, params: { id: 42 } });
    expect(missing.ok).toBe(false);
    if (missing.ok) return;
    expectTypeOf(missing.body.errors).toEqualTypeOf<
      readonly string[] | Readonly<Record<string, readonly string[]>> | string
    >();
    expect(missing).toMatchObject({ status: 404, body: { errors: ['Customer not found.'] } });
  });

  it('fills and encodes path parameters, one segment each', () => {
    const answer = callRoute(createSite(), 'GET', '/customers/{id}.json', { now, params: { id: '1/../2' } });
    expect(answer.status).toBe(404);
  });
});

describe('declared query parameters', () => {
  it('are the only ones a route can read, and the ones its wire type lists', () => {
    expectTypeOf<WireQuery<'GET', '/customers.json'>>().toEqualTypeOf<{
      readonly page?: string | number;
      readonly per_page?: string | number;
      readonly direction?: string | number;
      readonly q?: string | number;
    }>();
    expectTypeOf<'filter[archived_at]'>().toExtend<
      keyof WireQuery<'GET', '/components/{component_id}/price_points.json'>
    >();
    const listed = callRoute(createSite(), 'GET', '/customers.json', { now, query: { per_page: 1, q: 'x' } });
    expect(listed).toMatchObject({ ok: true, status: 200, body: [] });

    const parsed = parseQuery('page=2&filter[ids]=1,2&other=3', undefined);
    if (parsed === undefined) throw new Error('unparsed');
    const declared = declaredQuery(parsed, ['page', 'filter.ids'], 'GET /things.json');
    expect(declared.get('page')).toBe('2');
    expect(declared.list('filter.ids')).toEqual(['1', '2']);
    expect(declared.names()).toEqual(['page', 'filter.ids']);
    expect(() => declared.get('other')).toThrow(
      'GET /things.json reads the query parameter "other", which it does not declare',
    );
  });
});

describe('wire types', () => {
  it('name the parameters of a template and the paths of a method', () => {
    expectTypeOf<
      WireParams<'/subscriptions/{subscription_id}/components/{component_id}/allocations.json'>
    >().toEqualTypeOf<{
      readonly subscription_id: string | number;
      readonly component_id: string | number;
    }>();
    expectTypeOf<'/customers.json'>().toExtend<WirePath<'POST'>>();
    expectTypeOf<'/customers/{id}.json'>().toExtend<WirePath<'GET'>>();
  });

  it("read a route's body off its schema and its response off its presenter", () => {
    expectTypeOf<WireBody<'POST', '/customers.json'>>().toExtend<{
      readonly customer: { readonly first_name?: unknown };
    }>();
    expectTypeOf<WireResponse<'POST', '/customers.json'>['customer']['reference']>().toEqualTypeOf<
      string | null
    >();
    expectTypeOf<WireResponse<'DELETE', '/customers/{id}.json'>>().toEqualTypeOf<undefined>();
    // Routes built by a helper keep their own paths and answers too.
    expectTypeOf<
      WireResponse<'POST', '/product_families/{product_family_id}/metered_components.json'>['component']['id']
    >().toEqualTypeOf<number>();
    expectTypeOf<'/components/{component_id}/features/{id}/restore.json'>().toExtend<WirePath<'POST'>>();
    expectTypeOf<'/products/{product_id}/price_points/{price_point_id}/default.json'>().toExtend<
      WirePath<'PATCH'>
    >();
  });
});
