/**
 * The site-wide price point listings, `GET /components_price_points.json` and
 * `GET /products_price_points.json`: every price point of the site in id order, with the `filter[...]`
 * keys, `include=currency_prices`, paging and direction; a bad parameter answers 422 and changes nothing.
 */
import { describe, expect, it } from 'vitest';
import { arr, errorsOf, get, num, type Site } from '../../helpers/api.js';
import { componentSite, createComponent } from '../../helpers/components.js';

const DAY1 = '2026-01-15T12:00:00Z';
const DAY2 = '2026-01-16T12:00:00Z';
const DAY3 = '2026-01-17T12:00:00Z';

const perUnit = (name: string, price: string) => ({
  name,
  handle: name.toLowerCase(),
  pricing_scheme: 'per_unit',
  prices: [{ starting_quantity: 1, unit_price: price }],
});

const ids = (s: Site, path: string) =>
  arr(s.ok('GET', path), 'price_points').map((point) => num(point, 'id'));

/**
 * Components: A (default a1, day 1), B (default b1, day 1), catalog a2 on A (day 2, archived on day 3);
 * products: P (default p1, day 1), catalog p2 on P (day 2, archived on day 3).
 */
function setup() {
  const s = componentSite({}, DAY1);
  const a = createComponent(s, 'quantity_based_component', { handle: 'a' });
  const b = createComponent(s, 'metered_component', { handle: 'b' });
  const a1 = num(s.ok('GET', `/components/${a}.json`), 'component', 'default_price_point_id');
  const b1 = num(s.ok('GET', `/components/${b}.json`), 'component', 'default_price_point_id');
  const product = s.product({ handle: 'p' });
  const p1 = num(s.ok('GET', `/products/${product}.json`), 'product', 'product_price_point_id');
  s.at(DAY2);
  const a2 = num(
    s.ok('POST', `/components/${a}/price_points.json`, { price_point: perUnit('Gold', '2') }),
    'price_point',
    'id',
  );
  const p2 = num(
    s.ok('POST', `/products/${product}/price_points.json`, {
      price_point: {
        name: 'Yearly',
        handle: 'yearly',
        price_in_cents: 9900,
        interval: 12,
        interval_unit: 'month',
      },
    }),
    'price_point',
    'id',
  );
  s.at(DAY3);
  s.ok('DELETE', `/components/${a}/price_points/${a2}.json`);
  s.ok('DELETE', `/products/${product}/price_points/${p2}.json`);
  return { s, a, a1, b1, a2, p1, p2 };
}

describe('GET /components_price_points.json', () => {
  it('lists every price point of every component, archived ones too, in id order; direction=desc reverses', () => {
    const { s, a, a1, b1, a2 } = setup();
    expect(ids(s, '/components_price_points.json')).toEqual([a1, b1, a2]);
    expect(ids(s, '/components_price_points.json?direction=desc')).toEqual([a2, b1, a1]);
    const body = s.ok('GET', '/components_price_points.json');
    expect(get(body, 'price_points', 2)).toMatchObject({
      id: a2,
      component_id: a,
      type: 'catalog',
      default: false,
      handle: 'gold',
      archived_at: '2026-01-17T12:00:00Z',
      prices: [{ unit_price: '2', price_point_id: a2 }],
    });
    expect(get(body, 'price_points', 0, 'currency_prices')).toBeUndefined();
  });

  it('filters by archived_at, type and ids (blank lists filter nothing)', () => {
    const { s, a1, b1, a2 } = setup();
    expect(ids(s, '/components_price_points.json?filter[archived_at]=not_null')).toEqual([a2]);
    expect(ids(s, '/components_price_points.json?filter[archived_at]=null')).toEqual([a1, b1]);
    expect(ids(s, '/components_price_points.json?filter[type]=catalog')).toEqual([a2]);
    expect(ids(s, '/components_price_points.json?filter[type]=default,catalog')).toEqual([a1, b1, a2]);
    expect(ids(s, '/components_price_points.json?filter[type]=custom')).toEqual([]);
    expect(ids(s, `/components_price_points.json?filter[ids]=${a2},${a1},${a2},999`)).toEqual([a1, a2]);
    expect(ids(s, `/components_price_points.json?filter[ids]=${a2},${a1}&direction=desc`)).toEqual([a2, a1]);
    expect(ids(s, '/components_price_points.json?filter[ids]=&filter[type]=')).toEqual([a1, b1, a2]);
    expect(ids(s, `/components_price_points.json?filter[ids]=${a1},${a2}&filter[archived_at]=null`)).toEqual([
      a1,
    ]);
  });

  it('filters by created_at or updated_at (updated_at by default), by days in the site zone or exact date-times', () => {
    const { s, a1, b1, a2 } = setup();
    const path = '/components_price_points.json?filter[date_field]=created_at&';
    expect(ids(s, `${path}filter[start_date]=2026-01-16`)).toEqual([a2]);
    expect(ids(s, `${path}filter[end_date]=2026-01-15`)).toEqual([a1, b1]);
    expect(ids(s, `${path}filter[end_date]=2026-01-15&direction=desc`)).toEqual([b1, a1]);
    expect(ids(s, `${path}filter[start_datetime]=2026-01-16 12:00:00`)).toEqual([a2]);
    expect(ids(s, `${path}filter[end_datetime]=2026-01-16 11:59:59`)).toEqual([a1, b1]);
    // The archiving on day 3 updated a2: by updated_at it is a day-3 price point.
    expect(ids(s, '/components_price_points.json?filter[start_date]=2026-01-17')).toEqual([a2]);
    expect(ids(s, '/components_price_points.json?filter[end_date]=2026-01-16')).toEqual([a1, b1]);
  });

  it('pages by per_page, and adds currency_prices (empty: the site has one currency) on include', () => {
    const { s, a1, b1, a2 } = setup();
    expect(ids(s, '/components_price_points.json?per_page=2')).toEqual([a1, b1]);
    expect(ids(s, '/components_price_points.json?per_page=2&page=2')).toEqual([a2]);
    expect(ids(s, '/components_price_points.json?per_page=2&page=3')).toEqual([]);
    const body = s.ok('GET', '/components_price_points.json?include=currency_prices');
    for (const point of arr(body, 'price_points')) expect(get(point, 'currency_prices')).toEqual([]);
  });

  it('answers 422 for a bad parameter and changes nothing', () => {
    const { s } = setup();
    for (const query of [
      'filter[type]=gold',
      'filter[archived_at]=yes',
      'filter[ids]=1,x',
      `filter[ids]=${Array.from({ length: 201 }, (_, index) => index + 1).join(',')}`,
      'filter[date_field]=archived_at',
      'filter[start_date]=2026-13-01',
      'filter[end_datetime]=soon',
      'direction=up',
      'include=segments',
      'page=0',
    ]) {
      const body = s.fail('GET', `/components_price_points.json?${query}`, undefined, 422);
      expect(errorsOf(body), query).not.toBe('');
    }
  });
});

describe('GET /products_price_points.json', () => {
  it('lists every product price point with the same filters', () => {
    const { s, p1, p2 } = setup();
    expect(ids(s, '/products_price_points.json')).toEqual([p1, p2]);
    expect(ids(s, '/products_price_points.json?direction=desc')).toEqual([p2, p1]);
    expect(ids(s, '/products_price_points.json?filter[archived_at]=not_null')).toEqual([p2]);
    expect(ids(s, '/products_price_points.json?filter[type]=catalog')).toEqual([p2]);
    expect(ids(s, `/products_price_points.json?filter[ids]=${p1}`)).toEqual([p1]);
    expect(
      ids(s, '/products_price_points.json?filter[date_field]=created_at&filter[start_date]=2026-01-16'),
    ).toEqual([p2]);
    expect(ids(s, '/products_price_points.json?per_page=1&page=2&include=currency_prices')).toEqual([p2]);
    expect(get(s.ok('GET', '/products_price_points.json'), 'price_points', 1)).toMatchObject({
      id: p2,
      handle: 'yearly',
      price_in_cents: 9900,
      type: 'catalog',
      archived_at: '2026-01-17T12:00:00Z',
    });
    s.fail('GET', '/products_price_points.json?filter[type]=gold', undefined, 422);
  });
});
