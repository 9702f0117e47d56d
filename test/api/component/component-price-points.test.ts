import { describe, expect, it } from 'vitest';
import { arr, get, num, type Site } from '../../helpers/api.js';
import { componentSite, createComponent, type Kind } from '../../helpers/components.js';

const volume = {
  name: 'Volume',
  handle: 'volume',
  pricing_scheme: 'volume',
  prices: [
    { starting_quantity: 1, ending_quantity: 10, unit_price: '5' },
    { starting_quantity: 11, unit_price: '4' },
  ],
};

function setup(kind: Kind = 'quantity_based_component', fields: Record<string, unknown> = {}) {
  const s = componentSite();
  const component = createComponent(s, kind, { handle: 'seats', ...fields });
  return { s, component, base: `/components/${component}/price_points` };
}

const create = (s: Site, base: string, pricePoint: Record<string, unknown> = volume) =>
  num(s.ok('POST', `${base}.json`, { price_point: pricePoint }), 'price_point', 'id');

describe('component price points', () => {
  it('creates a catalog price point (201) that is not the default', () => {
    const { s, component, base } = setup();
    const body = s.ok('POST', `${base}.json`, {
      price_point: { ...volume, tax_included: true, interval: 3, interval_unit: 'month' },
    });
    expect(body).toMatchObject({
      price_point: {
        id: 2,
        type: 'catalog',
        default: false,
        name: 'Volume',
        handle: 'volume',
        pricing_scheme: 'volume',
        component_id: component,
        tax_included: true,
        use_site_exchange_rate: true,
        interval: 3,
        interval_unit: 'month',
        archived_at: null,
        prices: [
          {
            starting_quantity: 1,
            ending_quantity: 10,
            unit_price: '5',
            price_point_id: 2,
            component_id: component,
          },
          { starting_quantity: 11, ending_quantity: null, unit_price: '4', price_point_id: 2 },
        ],
      },
    });
    expect(get(body, 'price_point', 'currency_prices')).toBeUndefined();
    expect(get(s.ok('GET', `/components/${component}.json`), 'component', 'price_point_count')).toBe(2);
  });

  it('refuses bad requests with {errors: {field: [...]}} (422) and an unknown component (404)', () => {
    const { s, base } = setup();
    create(s, base);
    expect(s.fail('POST', `${base}.json`, { price_point: { ...volume, name: undefined } }, 422)).toEqual({
      errors: { name: ['is required'] },
    });
    expect(s.fail('POST', `${base}.json`, { price_point: volume }, 422)).toMatchObject({
      errors: { handle: [expect.stringMatching(/taken/)] },
    });
    expect(
      s.fail('POST', `${base}.json`, { price_point: { ...volume, handle: 'B A D' } }, 422),
    ).toMatchObject({
      errors: { handle: [expect.any(String)] },
    });
    expect(
      s.fail(
        'POST',
        `${base}.json`,
        { price_point: { ...volume, handle: null, pricing_scheme: undefined } },
        422,
      ),
    ).toEqual({ errors: { pricing_scheme: ['is required'] } });
    expect(
      s.fail(
        'POST',
        `${base}.json`,
        { price_point: { ...volume, handle: null, prices: [{ starting_quantity: 2, unit_price: 1 }] } },
        422,
      ),
    ).toMatchObject({ errors: { prices: [expect.stringMatching(/first bracket/)] } });
    expect(
      s.fail(
        'POST',
        `${base}.json`,
        { price_point: { ...volume, handle: null, prices: [{ starting_quantity: 1, unit_price: 'x' }] } },
        422,
      ),
    ).toMatchObject({ errors: { 'prices.0.unit_price': [expect.any(String)] } });
    expect(
      s.fail('POST', `${base}.json`, { price_point: { ...volume, handle: null, interval: 2 } }, 422),
    ).toMatchObject({
      errors: { interval_unit: [expect.any(String)] },
    });
    s.fail('POST', '/components/99/price_points.json', { price_point: volume }, 404);
  });

  it('keeps handles unique within a component only', () => {
    const { s, base } = setup();
    create(s, base);
    const other = createComponent(s, 'metered_component');
    create(s, `/components/${other}/price_points`);
  });

  it('enforces the kind: on/off takes per_unit only, prepaid needs overage pricing', () => {
    const toggle = setup('on_off_component');
    toggle.s.fail('POST', `${toggle.base}.json`, { price_point: volume }, 422);
    create(toggle.s, toggle.base, { name: 'On', unit_price: '3' });
    const prepaid = setup('prepaid_usage_component');
    expect(prepaid.s.fail('POST', `${prepaid.base}.json`, { price_point: volume }, 422)).toEqual({
      errors: { overage_pricing: ['is required'] },
    });
    const id = create(prepaid.s, prepaid.base, {
      ...volume,
      overage_pricing: { pricing_scheme: 'tiered', prices: [{ starting_quantity: 1, unit_price: '0.1' }] },
      expiration_interval_unit: 'never',
    });
    expect(prepaid.s.ok('GET', `${prepaid.base}/${id}.json?currency_prices=true`)).toMatchObject({
      price_point: {
        overage_pricing_scheme: 'tiered',
        overage_prices: [{ starting_quantity: 1, ending_quantity: null, unit_price: '0.1' }],
        expiration_interval: null,
        expiration_interval_unit: 'never',
        currency_prices: [],
        currency_overage_prices: [],
      },
    });
  });

  it('reads by id or handle through the component id or handle; currency_prices on request; 404 elsewhere', () => {
    const { s, component, base } = setup();
    const id = create(s, base);
    for (const path of [
      `${base}/${id}.json`,
      `${base}/handle:volume.json`,
      `/components/handle:seats/price_points/handle:volume.json`,
    ]) {
      expect(num(s.ok('GET', path), 'price_point', 'id'), path).toBe(id);
    }
    expect(
      get(s.ok('GET', `${base}/${id}.json?currency_prices=true`), 'price_point', 'currency_prices'),
    ).toEqual([]);
    s.fail('GET', `${base}/${id}.json?currency_prices=sometimes`, undefined, 422);
    const other = createComponent(s, 'metered_component');
    s.fail('GET', `/components/${other}/price_points/${id}.json`, undefined, 404);
    s.fail('GET', `/components/${other}/price_points/handle:volume.json`, undefined, 404);
    s.fail('GET', `${base}/99.json`, undefined, 404);
    s.fail('GET', `/components/99/price_points/${id}.json`, undefined, 404);
    expect(component).toBe(1);
  });

  it('updates name, handle and prices: by id, removed with _destroy, new ones added', () => {
    const { s, base } = setup();
    const id = create(s, base);
    const [first, second] = arr(s.ok('GET', `${base}/${id}.json`), 'price_point', 'prices').map((price) =>
      num(price, 'id'),
    );
    const body = s.ok('PUT', `${base}/${id}.json`, {
      price_point: {
        name: 'Volume 2',
        handle: 'volume-2',
        prices: [
          { id: first, ending_quantity: 20, unit_price: '4.5' },
          { id: second, _destroy: true },
          { unit_price: '3' },
        ],
      },
    });
    expect(body).toMatchObject({
      price_point: {
        name: 'Volume 2',
        handle: 'volume-2',
        pricing_scheme: 'volume',
        prices: [
          { id: first, starting_quantity: 1, ending_quantity: 20, unit_price: '4.5' },
          { starting_quantity: 21, ending_quantity: null, unit_price: '3' },
        ],
      },
    });
    expect(num(s.ok('GET', `${base}/handle:volume-2.json`), 'price_point', 'id')).toBe(id);
  });

  it('refuses an update naming a price of another price point, or a scheme its prices do not fit', () => {
    const { s, base } = setup();
    const id = create(s, base);
    expect(
      s.fail('PUT', `${base}/${id}.json`, { price_point: { prices: [{ id: 1, unit_price: 2 }] } }, 422),
    ).toMatchObject({
      errors: { 'prices.0.id': [expect.any(String)] },
    });
    expect(
      s.fail('PUT', `${base}/${id}.json`, { price_point: { pricing_scheme: 'per_unit' } }, 422),
    ).toMatchObject({
      errors: { prices: [expect.stringMatching(/one price/)] },
    });
    s.ok('PUT', `${base}/${id}.json`, { price_point: { pricing_scheme: 'per_unit', unit_price: '7' } });
    s.fail('PUT', `${base}/99.json`, { price_point: { name: 'x' } }, 404);
  });

  it('shows a change of the default price point on the component', () => {
    const { s, component, base } = setup();
    s.at('2026-01-20T00:00:00Z');
    s.ok('PUT', `${base}/1.json`, { price_point: { unit_price: '2.5' } });
    expect(s.ok('GET', `/components/${component}.json`)).toMatchObject({
      component: { unit_price: '2.5', updated_at: '2026-01-20T00:00:00Z' },
    });
  });

  it('archives (not the default), hides archived ones unless asked, and unarchives', () => {
    const { s, component, base } = setup();
    const id = create(s, base);
    expect(s.fail('DELETE', `${base}/1.json`, undefined, 422)).toEqual({
      errors: ['The default price point cannot be archived.'],
    });
    expect(get(s.ok('DELETE', `${base}/${id}.json`), 'price_point', 'archived_at')).toBe(
      '2026-01-15T12:00:00Z',
    );
    const listed = (query = '') =>
      arr(s.ok('GET', `${base}.json${query}`), 'price_points').map((point) => num(point, 'id'));
    expect(listed()).toEqual([1]);
    expect(listed('?filter[archived_at]=not_null')).toEqual([id]);
    expect(get(s.ok('GET', `/components/${component}.json`), 'component', 'price_point_count')).toBe(1);
    s.fail('PUT', `${base}/${id}/default.json`, undefined, 422);
    expect(get(s.ok('PUT', `${base}/${id}/unarchive.json`), 'price_point', 'archived_at')).toBeNull();
    expect(listed()).toEqual([1, id]);
  });

  it('makes a price point the default: the component shows its pricing', () => {
    const { s, component, base } = setup();
    const id = create(s, base);
    const body = s.ok('PUT', `${base}/handle:volume/default.json`);
    expect(body).toMatchObject({
      component: {
        id: component,
        default_price_point_id: id,
        default_price_point_name: 'Volume',
        pricing_scheme: 'volume',
        unit_price: null,
        prices: [{ unit_price: '5' }, { unit_price: '4' }],
      },
    });
    expect(get(s.ok('GET', `${base}/${id}.json`), 'price_point', 'default')).toBe(true);
    expect(get(s.ok('GET', `${base}/1.json`), 'price_point', 'default')).toBe(false);
    s.ok('DELETE', `${base}/1.json`);
  });

  it('lists with paging, meta, filter[type] and currency_prices', () => {
    const { s, base } = setup();
    const ids = [
      1,
      create(s, base),
      create(s, base, { ...volume, handle: 'v2' }),
      create(s, base, { ...volume, handle: 'v3' }),
    ];
    const page = s.ok('GET', `${base}.json?per_page=3&page=2&currency_prices=true`);
    expect(page).toMatchObject({
      price_points: [{ id: ids[3], currency_prices: [] }],
      meta: { total_count: 4, current_page: 2, total_pages: 2, per_page: 3 },
    });
    const typed = (type: string) =>
      arr(s.ok('GET', `${base}.json?filter[type]=${type}`), 'price_points').map((point) => num(point, 'id'));
    expect(typed('default')).toEqual([1]);
    expect(typed('catalog')).toEqual(ids.slice(1));
    expect(typed('default,catalog')).toEqual(ids);
    s.fail('GET', `${base}.json?filter[type]=gold`, undefined, 422);
    s.fail('GET', `${base}.json?page=0`, undefined, 422);
    s.fail('GET', '/components/99/price_points.json', undefined, 404);
  });
});
