/** Edges of bulk event ingestion (SPEC 4.7, 8), through handle(): `unique` without the property, the cap. */
import { describe, expect, it } from 'vitest';
import type { SiteConfig } from '../../../src/index.js';
import { errorsOf, get } from '../../helpers/api.js';
import {
  component,
  componentLines,
  fixture,
  invoicesOf,
  PERIOD_END,
  subscribe,
} from '../allocation/allocation-fixtures.js';

const METRICS: NonNullable<SiteConfig['metrics']> = [
  { id: 1, name: 'Calls', streamHandle: 'api', aggregation: 'count' },
  { id: 2, name: 'Users', streamHandle: 'api', aggregation: 'unique', property: 'user' },
];

function setup() {
  const f = fixture({ metrics: METRICS });
  const calls = component(f, 'event_based_component', { event_based_billing_metric_id: 1, unit_price: '1' });
  const users = component(f, 'event_based_component', { event_based_billing_metric_id: 2, unit_price: '5' });
  const subscription = subscribe(f);
  const billed = (componentId: number) => {
    const renewal = invoicesOf(f.s, subscription, 'renewal')[0];
    return componentLines(renewal, componentId).map((line) => [
      get(line, 'quantity'),
      get(line, 'subtotal_amount'),
    ]);
  };
  return { f, calls, users, subscription, billed };
}

describe('bulk event ingestion edges', () => {
  it('unique: items without a usable value of the property are counted as events but add no value', () => {
    const { f, calls, users, subscription, billed } = setup();
    const svc = { subscription_id: subscription };
    f.s.ok('POST', '/events/api/bulk.json', [
      { svc, user: 'a' },
      { svc },
      { svc, user: null },
      { svc, user: { id: 'a' } },
      { svc, user: ['b'] },
      { svc, user: 'a' },
      { svc, name: 'user' },
      { svc, user: 'b' },
    ]);
    f.s.advance(PERIOD_END);
    expect(billed(calls)).toEqual([['8', '8.00']]);
    expect(billed(users)).toEqual([['2', '10.00']]);
  });

  it('unique: a period whose items never carry the property bills no line, the count still bills', () => {
    const { f, calls, users, subscription, billed } = setup();
    f.s.ok('POST', '/events/api/bulk.json', [{ svc: { subscription_id: subscription } }]);
    f.s.advance(PERIOD_END);
    expect(billed(calls)).toEqual([['1', '1.00']]);
    expect(billed(users)).toEqual([]);
  });

  it('the cap: exactly 1000 items are stored; 1001 answer 422 and store nothing', () => {
    const { f, calls, subscription, billed } = setup();
    const item = { svc: { subscription_id: subscription }, user: 'u' };
    f.s.ok(
      'POST',
      '/events/api/bulk.json',
      Array.from({ length: 1000 }, () => item),
    );
    const refused = f.s.fail(
      'POST',
      '/events/api/bulk.json',
      Array.from({ length: 1001 }, () => item),
      422,
    );
    expect(errorsOf(refused)).toMatch(/1000/);
    f.s.advance(PERIOD_END);
    expect(billed(calls)).toEqual([['1000', '1000.00']]);
  });
});
