import { describe, expect, it } from 'vitest';
import { arr, errorsOf, get, num, show } from '../../helpers/api.js';
import {
  componentSite,
  createComponent,
  createPath,
  KINDS,
  type Kind,
  minimalFields,
} from '../../helpers/components.js';

describe('components: create', () => {
  it.each(KINDS)('creates a %s (201) with its default price point', (kind) => {
    const s = componentSite();
    const family = s.family('plans');
    const called = s.request('POST', createPath(kind, family), { [kind]: minimalFields(kind) });
    expect(called.status, show(called.body)).toBe(201);
    expect(called.events).toEqual([]);
    expect(called.body).toMatchObject({
      component: {
        id: 1,
        kind,
        product_family_id: family,
        product_family_name: 'plans',
        product_family_handle: 'plans',
        pricing_scheme: 'per_unit',
        unit_price: '1',
        price_per_unit_in_cents: 100,
        default_price_point_id: 1,
        default_price_point_name: 'Default',
        price_point_count: 1,
        prices: [{ starting_quantity: 1, ending_quantity: null, unit_price: '1', price_point_id: 1 }],
        archived: false,
        archived_at: null,
        taxable: false,
        tax_code: null,
        created_at: '2026-01-15T12:00:00Z',
        updated_at: '2026-01-15T12:00:00Z',
      },
    });
    const point = s.ok('GET', `/components/1/price_points/1.json`);
    expect(point).toMatchObject({ price_point: { type: 'default', default: true, component_id: 1 } });
  });

  it('takes the family by handle, numbers as strings, and every optional field', () => {
    const s = componentSite();
    s.family('plans');
    const body = s.ok('POST', createPath('quantity_based_component', 'handle:plans'), {
      quantity_based_component: {
        name: 'Seats',
        unit_name: 'seat',
        handle: 'seats',
        description: 'One per user',
        pricing_scheme: 'volume',
        prices: [
          { starting_quantity: '1', ending_quantity: '5', unit_price: '100' },
          { starting_quantity: 6, ending_quantity: null, unit_price: 90.5 },
        ],
        taxable: 'true',
        tax_code: 'D0000000',
        accounting_code: 'seats-01',
        item_category: 'Business Software',
        hide_date_range_on_invoice: true,
        allow_fractional_quantities: 1,
        display_on_hosted_page: false,
        upgrade_charge: 'full',
        downgrade_credit: 'prorated',
        interval: 1,
        interval_unit: 'month',
      },
    });
    expect(body).toMatchObject({
      component: {
        name: 'Seats',
        handle: 'seats',
        unit_name: 'seat',
        description: 'One per user',
        pricing_scheme: 'volume',
        unit_price: null,
        price_per_unit_in_cents: null,
        prices: [
          { starting_quantity: 1, ending_quantity: 5, unit_price: '100', formatted_unit_price: '$100.00' },
          { starting_quantity: 6, ending_quantity: null, unit_price: '90.5', formatted_unit_price: '$90.50' },
        ],
        taxable: true,
        tax_code: 'D0000000',
        accounting_code: 'seats-01',
        item_category: 'Business Software',
        hide_date_range_on_invoice: true,
        allow_fractional_quantities: true,
        display_on_hosted_page: false,
        upgrade_charge: 'full',
        downgrade_credit: 'prorated',
        recurring: true,
        interval: 1,
        interval_unit: 'month',
      },
    });
  });

  it('shows sub-cent unit prices in full and defaults an on/off unit name', () => {
    const s = componentSite();
    const id = createComponent(s, 'metered_component', { unit_price: '0.0025' });
    expect(get(s.ok('GET', `/components/${id}.json`), 'component', 'prices', 0, 'formatted_unit_price')).toBe(
      '$0.0025',
    );
    const toggle = createComponent(s, 'on_off_component');
    expect(s.ok('GET', `/components/${toggle}.json`)).toMatchObject({
      component: { unit_name: 'on/off', pricing_scheme: 'per_unit', recurring: true },
    });
  });

  it('creates the extra price points sent as price_points, after the default', () => {
    const s = componentSite();
    const id = createComponent(s, 'quantity_based_component', {
      price_points: [
        { name: 'Bulk', handle: 'bulk', pricing_scheme: 'per_unit', unit_price: '0.5' },
        { name: 'Tiers', pricing_scheme: 'tiered', prices: [{ starting_quantity: 1, unit_price: 2 }] },
      ],
    });
    expect(get(s.ok('GET', `/components/${id}.json`), 'component', 'price_point_count')).toBe(3);
    const points = arr(s.ok('GET', `/components/${id}/price_points.json`), 'price_points');
    expect(points.map((point) => [get(point, 'name'), get(point, 'type')])).toEqual([
      ['Default', 'default'],
      ['Bulk', 'catalog'],
      ['Tiers', 'catalog'],
    ]);
  });

  it('prices a prepaid component with overage and an event-based one with a metric', () => {
    const s = componentSite();
    const prepaid = createComponent(s, 'prepaid_usage_component', {
      rollover_prepaid_remainder: true,
      renew_prepaid_allocation: true,
      expiration_interval: 2,
      expiration_interval_unit: 'month',
    });
    expect(s.ok('GET', `/components/${prepaid}.json`)).toMatchObject({
      component: { overage_prices: [{ starting_quantity: 1, unit_price: '2' }], recurring: false },
    });
    expect(s.ok('GET', `/components/${prepaid}/price_points/1.json`)).toMatchObject({
      price_point: {
        overage_pricing_scheme: 'per_unit',
        overage_prices: [{ unit_price: '2' }],
        rollover_prepaid_remainder: true,
        renew_prepaid_allocation: true,
        expiration_interval: 2,
        expiration_interval_unit: 'month',
      },
    });
    const ebb = createComponent(s, 'event_based_component', { event_based_billing_metric_id: '8' });
    expect(get(s.ok('GET', `/components/${ebb}.json`), 'component', 'event_based_billing_metric_id')).toBe(8);
  });

  const refusals: [string, Kind, Record<string, unknown>, RegExp][] = [
    ['no name', 'quantity_based_component', { name: undefined }, /name: is required/],
    ['a blank name', 'quantity_based_component', { name: '  ' }, /name: cannot be blank/],
    ['no unit name', 'metered_component', { unit_name: undefined }, /unit_name: is required/],
    ['no pricing scheme', 'metered_component', { pricing_scheme: undefined }, /pricing_scheme: is required/],
    ['an unknown scheme', 'metered_component', { pricing_scheme: 'flat' }, /pricing_scheme/],
    ['per_unit without a price', 'quantity_based_component', { unit_price: undefined }, /unit_price/],
    [
      'per_unit with brackets',
      'quantity_based_component',
      {
        unit_price: undefined,
        prices: [
          { starting_quantity: 1, ending_quantity: 2, unit_price: 1 },
          { starting_quantity: 3, unit_price: 1 },
        ],
      },
      /one price/,
    ],
    [
      'tiered without prices',
      'metered_component',
      { pricing_scheme: 'tiered', unit_price: undefined },
      /prices/,
    ],
    [
      'brackets with a gap',
      'metered_component',
      {
        pricing_scheme: 'tiered',
        prices: [
          { starting_quantity: 1, ending_quantity: 10, unit_price: 1 },
          { starting_quantity: 12, unit_price: 1 },
        ],
      },
      /right after/,
    ],
    [
      'an open bracket before the last',
      'metered_component',
      {
        pricing_scheme: 'volume',
        prices: [
          { starting_quantity: 1, unit_price: 1 },
          { starting_quantity: 2, unit_price: 1 },
        ],
      },
      /only the last/,
    ],
    ['a negative price', 'metered_component', { unit_price: '-1' }, /negative/],
    ['a price that is not a number', 'metered_component', { unit_price: 'ten' }, /not a number/],
    ['on/off with another scheme', 'on_off_component', { pricing_scheme: 'tiered' }, /per_unit/],
    [
      'prepaid without overage',
      'prepaid_usage_component',
      { overage_pricing: undefined },
      /overage_pricing: is required/,
    ],
    [
      'prepaid with broken overage',
      'prepaid_usage_component',
      { overage_pricing: { pricing_scheme: 'tiered', prices: [{ starting_quantity: 5, unit_price: 1 }] } },
      /overage_pricing.prices/,
    ],
    [
      'an expiration without unit',
      'prepaid_usage_component',
      { expiration_interval: 3 },
      /expiration_interval_unit/,
    ],
    [
      'event-based without a metric',
      'event_based_component',
      { event_based_billing_metric_id: undefined },
      /metric/,
    ],
    [
      'event-based with an unknown metric',
      'event_based_component',
      { event_based_billing_metric_id: 99 },
      /no metric/,
    ],
    ['an interval without unit', 'event_based_component', { interval: 1 }, /interval/],
    ['a bad handle', 'quantity_based_component', { handle: 'Not OK' }, /handle/],
    ['a bad item category', 'quantity_based_component', { item_category: 'Toys' }, /item_category/],
    ['a bad credit type', 'quantity_based_component', { upgrade_charge: 'half' }, /upgrade_charge/],
    [
      'two extra price points with one handle',
      'quantity_based_component',
      {
        price_points: [
          { name: 'A', handle: 'same', pricing_scheme: 'per_unit', unit_price: 1 },
          { name: 'B', handle: 'same', pricing_scheme: 'per_unit', unit_price: 2 },
        ],
      },
      /price_points.1.handle/,
    ],
    [
      'an extra price point without name',
      'quantity_based_component',
      { price_points: [{ pricing_scheme: 'per_unit', unit_price: 1 }] },
      /price_points.0.name/,
    ],
  ];

  it.each(refusals)('refuses %s (422, {errors: [...]}, state untouched)', (_label, kind, fields, message) => {
    const s = componentSite();
    const family = s.family();
    const body = s.fail(
      'POST',
      createPath(kind, family),
      { [kind]: { ...minimalFields(kind), ...fields } },
      422,
    );
    expect(errorsOf(body)).toMatch(message);
  });

  it('refuses a taken handle (in any family), a missing envelope and an unknown family', () => {
    const s = componentSite();
    createComponent(s, 'metered_component', { handle: 'gb' });
    const other = s.family();
    s.fail(
      'POST',
      createPath('metered_component', other),
      { metered_component: { ...minimalFields('metered_component'), handle: 'gb' } },
      422,
    );
    s.fail(
      'POST',
      createPath('metered_component', other),
      { quantity_based_component: minimalFields('metered_component') },
      422,
    );
    s.fail(
      'POST',
      createPath('metered_component', 99),
      { metered_component: minimalFields('metered_component') },
      404,
    );
    s.fail(
      'POST',
      createPath('metered_component', 'handle:nope'),
      { metered_component: minimalFields('metered_component') },
      404,
    );
  });
});

describe('components: the tax code rule of the new catalog experience', () => {
  it('refuses a taxable component without a non-blank tax code on create (422)', () => {
    const s = componentSite({ newCatalogExperience: true });
    const family = s.family();
    const path = createPath('quantity_based_component', family);
    const fields = minimalFields('quantity_based_component');
    for (const taxCode of [undefined, '', '   ', null]) {
      const body = s.fail(
        'POST',
        path,
        { quantity_based_component: { ...fields, taxable: true, tax_code: taxCode } },
        422,
      );
      expect(errorsOf(body)).toMatch(/Tax code/);
    }
    s.ok('POST', path, { quantity_based_component: { ...fields, taxable: true, tax_code: 'SW054000' } });
    s.ok('POST', path, { quantity_based_component: { ...fields, taxable: false } });
  });

  it('refuses to blank the tax code of a taxable component, or to make it taxable without one (422)', () => {
    const s = componentSite({ newCatalogExperience: true });
    const taxed = createComponent(s, 'metered_component', { taxable: true, tax_code: 'SW054000' });
    const plain = createComponent(s, 'metered_component');
    s.fail('PUT', `/components/${taxed}.json`, { component: { tax_code: '' } }, 422);
    s.fail('PUT', `/components/${taxed}.json`, { component: { tax_code: null } }, 422);
    s.fail('PUT', `/components/${plain}.json`, { component: { taxable: true } }, 422);
    s.ok('PUT', `/components/${plain}.json`, { component: { taxable: true, tax_code: 'X1' } });
    s.ok('PUT', `/components/${taxed}.json`, { component: { taxable: false, tax_code: '' } });
  });

  it('does not apply without the new catalog experience', () => {
    const s = componentSite();
    const id = createComponent(s, 'metered_component', { taxable: true });
    expect(s.ok('PUT', `/components/${id}.json`, { component: { tax_code: '' } })).toMatchObject({
      component: { taxable: true, tax_code: null },
    });
  });
});

describe('components: read, find, update, archive', () => {
  it('reads by id and by handle, site-wide and through its family; 404 elsewhere', () => {
    const s = componentSite();
    const family = s.family('plans');
    const id = createComponent(s, 'metered_component', { handle: 'gb' }, family);
    const other = s.family('other');
    for (const path of [
      `/components/${id}.json`,
      '/components/handle:gb.json',
      '/components/handle%3Agb.json',
      `/product_families/${family}/components/${id}.json`,
      '/product_families/handle:plans/components/handle:gb.json',
    ]) {
      expect(num(s.ok('GET', path), 'component', 'id'), path).toBe(id);
    }
    s.fail('GET', `/product_families/${other}/components/${id}.json`, undefined, 404);
    s.fail('GET', `/product_families/99/components/${id}.json`, undefined, 404);
    s.fail('GET', '/components/99.json', undefined, 404);
    s.fail('GET', '/components/handle:nope.json', undefined, 404);
  });

  it('finds by handle at /components/lookup.json; 404 when none, 422 without a handle', () => {
    const s = componentSite();
    const id = createComponent(s, 'event_based_component', { handle: 'calls' });
    expect(num(s.ok('GET', '/components/lookup.json?handle=calls'), 'component', 'id')).toBe(id);
    s.fail('GET', '/components/lookup.json?handle=texts', undefined, 404);
    s.fail('GET', '/components/lookup.json', undefined, 422);
  });

  it('updates the fields sent (by id, handle or through the family) and keeps the others', () => {
    const s = componentSite();
    const family = s.family('plans');
    const id = createComponent(s, 'quantity_based_component', { handle: 'seats', description: 'd' }, family);
    s.at('2026-01-16T08:00:00Z');
    const body = s.ok('PUT', '/components/handle:seats.json', {
      component: {
        name: 'Users',
        item_category: 'Digital Services',
        upgrade_charge: 'none',
        display_on_hosted_page: false,
      },
    });
    expect(body).toMatchObject({
      component: {
        id,
        name: 'Users',
        handle: 'seats',
        description: 'd',
        item_category: 'Digital Services',
        upgrade_charge: 'none',
        display_on_hosted_page: false,
        created_at: '2026-01-15T12:00:00Z',
        updated_at: '2026-01-16T08:00:00Z',
      },
    });
    const moved = s.ok('PUT', `/product_families/${family}/components/${id}.json`, {
      component: { handle: 'users', description: null, accounting_code: 'acc' },
    });
    expect(moved).toMatchObject({
      component: { handle: 'users', description: null, accounting_code: 'acc' },
    });
    expect(num(s.ok('GET', '/components/lookup.json?handle=users'), 'component', 'id')).toBe(id);
    s.fail('GET', '/components/lookup.json?handle=seats', undefined, 404);
  });

  it('refuses a taken or malformed handle, a bad field, another family and an unknown component', () => {
    const s = componentSite();
    createComponent(s, 'metered_component', { handle: 'gb' });
    const id = createComponent(s, 'metered_component', { handle: 'tb' });
    s.fail('PUT', `/components/${id}.json`, { component: { handle: 'gb' } }, 422);
    s.fail('PUT', `/components/${id}.json`, { component: { handle: '' } }, 422);
    s.fail('PUT', `/components/${id}.json`, { component: { name: '' } }, 422);
    s.fail('PUT', `/components/${id}.json`, { component: { item_category: 'Toys' } }, 422);
    s.fail('PUT', `/product_families/${s.family()}/components/${id}.json`, { component: { name: 'x' } }, 404);
    s.fail('PUT', '/components/99.json', { component: { name: 'x' } }, 404);
  });

  it('archives with DELETE through its family: the bare component, archived; idempotent', () => {
    const s = componentSite();
    const family = s.family();
    const id = createComponent(s, 'on_off_component', {}, family);
    const archived = s.ok('DELETE', `/product_families/${family}/components/${id}.json`);
    expect(archived).toMatchObject({ id, archived: true, archived_at: '2026-01-15T12:00:00Z' });
    s.at('2026-01-17T00:00:00Z');
    expect(get(s.ok('DELETE', `/product_families/${family}/components/${id}.json`), 'archived_at')).toBe(
      '2026-01-15T12:00:00Z',
    );
    expect(get(s.ok('GET', `/components/${id}.json`), 'component', 'archived')).toBe(true);
    s.fail('DELETE', `/product_families/${s.family()}/components/${id}.json`, undefined, 404);
    s.fail('DELETE', `/components/${id}.json`, undefined, 405);
  });
});
