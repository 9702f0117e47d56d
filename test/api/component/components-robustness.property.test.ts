import { test } from '@fast-check/vitest';
import fc from 'fast-check';
import { describe, expect } from 'vitest';
import { call, show } from '../../helpers/api.js';
import { componentSite, createComponent, segmented, segmentRecord } from '../../helpers/components.js';

/** A site with a component of each kind, extra price points and segments, and the paths that reach them. */
function fixture() {
  const s = componentSite({ newCatalogExperience: true });
  const family = s.family('plans');
  createComponent(s, 'quantity_based_component', { handle: 'seats' }, family);
  createComponent(s, 'prepaid_usage_component', { handle: 'credits' }, family);
  const { bulk, list, base } = segmented(s, { handle: 'calls' });
  s.ok('POST', bulk, { segments: [segmentRecord(['EU']), segmentRecord(['US'])] });
  return { state: s.state, family, bulk, list, base };
}

const { state, family, bulk, list, base } = fixture();

const paths: readonly { method: 'GET' | 'POST' | 'PUT' | 'DELETE'; path: string; envelope?: string }[] = [
  {
    method: 'POST',
    path: `/product_families/${family}/quantity_based_components.json`,
    envelope: 'quantity_based_component',
  },
  {
    method: 'POST',
    path: `/product_families/${family}/on_off_components.json`,
    envelope: 'on_off_component',
  },
  {
    method: 'POST',
    path: `/product_families/${family}/metered_components.json`,
    envelope: 'metered_component',
  },
  {
    method: 'POST',
    path: `/product_families/${family}/prepaid_usage_components.json`,
    envelope: 'prepaid_usage_component',
  },
  {
    method: 'POST',
    path: `/product_families/${family}/event_based_components.json`,
    envelope: 'event_based_component',
  },
  { method: 'PUT', path: '/components/1.json', envelope: 'component' },
  {
    method: 'PUT',
    path: `/product_families/${family}/components/handle:credits.json`,
    envelope: 'component',
  },
  { method: 'POST', path: '/components/2/price_points.json', envelope: 'price_point' },
  { method: 'PUT', path: '/components/2/price_points/2.json', envelope: 'price_point' },
  { method: 'PUT', path: '/components/handle:seats/price_points/1.json', envelope: 'price_point' },
  { method: 'POST', path: list, envelope: 'segment' },
  { method: 'PUT', path: `${base}/1.json`, envelope: 'segment' },
  { method: 'POST', path: bulk },
  { method: 'PUT', path: bulk },
  { method: 'GET', path: '/components.json' },
  { method: 'GET', path: list },
];

const field = fc.constantFrom(
  'name',
  'unit_name',
  'handle',
  'pricing_scheme',
  'unit_price',
  'prices',
  'overage_pricing',
  'taxable',
  'tax_code',
  'interval',
  'interval_unit',
  'expiration_interval',
  'expiration_interval_unit',
  'event_based_billing_metric_id',
  'price_points',
  'segment_property_1_value',
  'segment_property_2_value',
  'segments',
  'id',
  '__proto__',
);

const priceArb = fc.record(
  {
    id: fc.oneof(fc.integer({ min: -2, max: 30 }), fc.string({ maxLength: 3 })),
    starting_quantity: fc.oneof(fc.integer({ min: -5, max: 50 }), fc.string({ maxLength: 6 }), fc.double()),
    ending_quantity: fc.oneof(
      fc.constant(null),
      fc.integer({ min: -5, max: 50 }),
      fc.string({ maxLength: 6 }),
    ),
    unit_price: fc.oneof(
      fc.string({ maxLength: 12 }),
      fc.double(),
      fc.constantFrom('1e999999', '0.00001', '-1'),
    ),
    _destroy: fc.boolean(),
  },
  { requiredKeys: [] },
);

const valueArb = fc.oneof(
  fc.anything({ maxDepth: 2 }),
  fc.constantFrom('per_unit', 'tiered', 'volume', 'stairstep', 'never', 'month', '', 'handle:x'),
  fc.array(priceArb, { maxLength: 4 }),
  fc.record({
    pricing_scheme: fc.constantFrom('per_unit', 'tiered', 'x'),
    prices: fc.array(priceArb, { maxLength: 3 }),
  }),
);

const bodyArb = fc.dictionary(field, valueArb, { maxKeys: 6 });

describe('components, price points and segments: robustness', () => {
  test.prop([fc.constantFrom(...paths), bodyArb, fc.boolean(), fc.array(bodyArb, { maxLength: 4 })], {
    numRuns: 400,
  })(
    'hostile bodies get a 2xx, 404 or 422, never a fault; a refusal leaves the state object untouched',
    (route, fields, wrap, records) => {
      const body = route.path.endsWith('bulk.json')
        ? { segments: records }
        : wrap && route.envelope
          ? { [route.envelope]: fields }
          : fields;
      const called = call(state, route.method, route.path, body);
      expect([200, 201, 204, 404, 422], show(called.body)).toContain(called.status);
      expect(show(called.body)).not.toMatch(/could not be processed/);
      if (called.status >= 400) expect(called.state).toBe(state);
      expect(JSON.parse(JSON.stringify(called.state))).toEqual(called.state);
    },
  );
});
