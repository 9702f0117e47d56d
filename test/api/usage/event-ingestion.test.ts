/** Bulk event ingestion (SPEC 2.15, 4.7, 8) and event-based usage billed at renewal, through handle(). */
import { describe, expect, it } from 'vitest';
import type { SiteConfig } from '../../../src/index.js';
import { errorsOf, get, num } from '../../helpers/api.js';
import {
  component,
  componentLines,
  type Fixture,
  fixture,
  invoicesOf,
  PERIOD_END,
  subscribe,
} from '../allocation/allocation-fixtures.js';

const METRICS: NonNullable<SiteConfig['metrics']> = [
  { id: 1, name: 'Calls', streamHandle: 'api', aggregation: 'count' },
  { id: 2, name: 'Bytes', streamHandle: 'api', aggregation: 'sum', property: 'bytes' },
  { id: 3, name: 'Peak load', streamHandle: 'api', aggregation: 'max', property: 'load.peak' },
  { id: 4, name: 'Users', streamHandle: 'api', aggregation: 'unique', property: 'user' },
  {
    id: 5,
    name: 'Regional bytes',
    streamHandle: 'geo',
    aggregation: 'sum',
    property: 'bytes',
    segmentProperties: ['region'],
  },
];

const bulk = (stream: string) => `/events/${stream}/bulk.json`;

function setup(config: SiteConfig = {}) {
  const f: Fixture = fixture({ metrics: METRICS, ...config });
  const perUnit = (metric: number, price: string) =>
    component(f, 'event_based_component', {
      event_based_billing_metric_id: metric,
      unit_price: price,
      name: `m${metric}`,
    });
  const ids = {
    count: perUnit(1, '0.5'),
    sum: perUnit(2, '0.01'),
    max: perUnit(3, '2'),
    unique: perUnit(4, '3'),
  };
  const subscription = subscribe(f);
  return { f, ids, subscription };
}

const amounts = (f: Fixture, subscription: number, componentId: number, index = 0) =>
  componentLines(invoicesOf(f.s, subscription, 'renewal')[index], componentId).map((line) => [
    get(line, 'quantity'),
    get(line, 'subtotal_amount'),
  ]);

describe('bulk event ingestion', () => {
  it('aggregates count, sum, max and unique into usage billed at renewal, exactly', () => {
    const { f, ids, subscription } = setup();
    const svc = { subscription_id: subscription };
    const called = f.s.request('POST', `${bulk('api')}?store_uid=abc`, [
      { svc, bytes: 100, load: { peak: 7 }, user: 'a' },
      { svc: { ...svc, timestamp: '2026-01-20T10:00:00Z' }, bytes: '250.5', load: { peak: 3 }, user: 'b' },
      { svc, bytes: 49.5, load: { peak: 12.5 }, user: 'a' },
      { svc, user: 1 },
    ]);
    expect(called.status).toBe(201);
    expect(called.body).toBeUndefined();
    expect(called.events).toEqual([]);
    f.s.ok('POST', bulk('api'), [{ svc, bytes: 600, user: 'c' }]);
    f.s.advance(PERIOD_END);
    expect(amounts(f, subscription, ids.count)).toEqual([['5', '2.50']]);
    expect(amounts(f, subscription, ids.sum)).toEqual([['1000', '10.00']]);
    expect(amounts(f, subscription, ids.max)).toEqual([['12.5', '25.00']]);
    expect(amounts(f, subscription, ids.unique)).toEqual([['4', '12.00']]);
    // The next period starts from nothing.
    f.s.ok('POST', bulk('api'), [{ svc, bytes: 1 }]);
    f.s.advance('2026-03-15T12:00:00Z');
    expect(amounts(f, subscription, ids.count, 1)).toEqual([['1', '0.50']]);
    expect(amounts(f, subscription, ids.unique, 1)).toEqual([]);
  });

  it('accepts the configured serviceName (chargify) alongside svc', () => {
    const { f, ids, subscription } = setup({ serviceName: 'chargify' });
    f.s.ok('POST', bulk('api'), [
      { chargify: { subscription_id: subscription } },
      { svc: { subscription_id: subscription } },
    ]);
    f.s.advance(PERIOD_END);
    expect(amounts(f, subscription, ids.count)).toEqual([['2', '1.00']]);
  });

  it('refuses more than 1000 events, an unknown stream, an unknown subscription: nothing stored', () => {
    const { f, subscription } = setup();
    const item = { svc: { subscription_id: subscription } };
    expect(
      f.s.request(
        'POST',
        bulk('api'),
        Array.from({ length: 1000 }, () => item),
      ).status,
    ).toBe(201);
    f.s.fail(
      'POST',
      bulk('api'),
      Array.from({ length: 1001 }, () => item),
      422,
    );
    f.s.fail('POST', bulk('nope'), [item], 404);
    const body = f.s.fail('POST', bulk('api'), [item, item, { svc: { subscription_id: 999 } }], 422);
    expect(errorsOf(body)).toMatch(/events\[2\].*999/);
    f.s.fail('POST', bulk('api'), [item, { svc: { subscription_id: 'x' } }], 422);
    f.s.fail('POST', bulk('api'), [{ svc: { subscription_id: subscription, timestamp: 'soon' } }], 422);
    f.s.fail('POST', bulk('api'), { svc: { subscription_id: subscription } }, 422);
  });

  it('leaves prototypes alone whatever the property names', () => {
    const { f, ids, subscription } = setup();
    const before = Object.getOwnPropertyNames(Object.prototype).sort();
    const hostile = JSON.parse(
      `[{"svc":{"subscription_id":${subscription},"__proto__":{"polluted":1}},"__proto__":{"bytes":5,"polluted":1},` +
        `"constructor":{"prototype":{"polluted":1}},"bytes":{"__proto__":3},"load":{"constructor":9},"user":"__proto__"}]`,
    ) as unknown;
    f.s.ok('POST', bulk('api'), hostile);
    expect(Object.getOwnPropertyNames(Object.prototype).sort()).toEqual(before);
    expect(({} as Record<string, unknown>)['polluted']).toBeUndefined();
    f.s.advance(PERIOD_END);
    expect(amounts(f, subscription, ids.count)).toEqual([['1', '0.50']]);
    expect(amounts(f, subscription, ids.sum)).toEqual([]);
    expect(amounts(f, subscription, ids.unique)).toEqual([['1', '3.00']]);
  });

  it('prices segmented usage by the segment of the events, the rest at the price point', () => {
    const f = fixture({ metrics: METRICS });
    const geo = component(f, 'event_based_component', { event_based_billing_metric_id: 5, unit_price: '1' });
    const pricePoint = num(f.s.ok('GET', `/components/${geo}.json`), 'component', 'default_price_point_id');
    f.s.ok('POST', `/components/${geo}/price_points/${pricePoint}/segments.json`, {
      segment: {
        segment_property_1_value: 'EU',
        pricing_scheme: 'per_unit',
        prices: [{ starting_quantity: 1, unit_price: '0.25' }],
      },
    });
    const subscription = subscribe(f);
    const svc = { subscription_id: subscription };
    f.s.ok('POST', bulk('geo'), [
      { svc, region: 'EU', bytes: 10 },
      { svc, region: 'EU', bytes: 30 },
      { svc, region: 'US', bytes: 5 },
      { svc, bytes: 2 },
    ]);
    f.s.advance(PERIOD_END);
    expect(amounts(f, subscription, geo)).toEqual([
      ['40', '10.00'],
      ['7', '7.00'],
    ]);
  });
});
