/**
 * Law of `GET /subscriptions_components.json`: for any combination of subscription ids, families, states,
 * sort, direction and paging, the page it answers is the page of a model that filters the whole list and
 * sorts it, whichever way the engine reads (the table, the named subscriptions, the few in the states).
 */
import { test } from '@fast-check/vitest';
import fc from 'fast-check';
import { describe, expect } from 'vitest';
import type { SiteState } from '../../../src/index.js';
import { arr, call, get, num, str } from '../../helpers/api.js';
import { allocate, component, fixture, subscribe } from './allocation-fixtures.js';

const DAYS = ['2026-01-15', '2026-01-16', '2026-01-17', '2026-01-18'];

/** Four subscriptions in two families taking components on different days; one canceled, one pending. */
function buildSite() {
  const f = fixture({}, `${DAYS[0]}T09:00:00Z`);
  const { s } = f;
  const seats = component(f, 'quantity_based_component');
  const support = component(f, 'on_off_component');
  const other = s.family();
  const addOn = num(
    s.ok('POST', `/product_families/${other}/quantity_based_components.json`, {
      quantity_based_component: {
        name: 'Add-on',
        unit_name: 'unit',
        pricing_scheme: 'per_unit',
        unit_price: '1',
      },
    }),
    'component',
    'id',
  );
  const subscriptions = [subscribe(f), subscribe(f), subscribe(f), s.subscribed(s.product({}, other)).id];
  const [a = 0, b = 0, c = 0, d = 0] = subscriptions;
  allocate(s, a, seats, { quantity: 2 });
  s.at(`${DAYS[1]}T10:00:00Z`);
  allocate(s, d, addOn, { quantity: 3 });
  allocate(s, b, support, { quantity: 1 });
  allocate(s, c, seats, { quantity: 4 });
  s.at(`${DAYS[2]}T11:00:00Z`);
  allocate(s, a, support, { quantity: 1 });
  allocate(s, b, seats, { quantity: 1 });
  s.ok('DELETE', `/subscriptions/${b}.json`);
  s.at(`${DAYS[3]}T12:00:00Z`);
  allocate(s, a, seats, { quantity: 5 });
  s.ok('POST', `/subscriptions/${c}/delayed_cancel.json`, undefined, 200);
  return { state: s.state, now: s.now, subscriptions, families: [f.family, other] };
}

const SITE = buildSite();
const STATE: SiteState = SITE.state;

const list = (query: string) =>
  arr(
    call(STATE, 'GET', `/subscriptions_components.json?${query}`, undefined, SITE.now).body,
    'subscriptions_components',
  );

interface Row {
  readonly key: string;
  readonly subscription: number;
  readonly family: number;
  readonly state: string;
  readonly updated: string;
}

/** The rows in id order, with the state filters' view of their subscriptions. */
const ALL: readonly Row[] = list('per_page=200&include=subscription').map((row) => {
  const subscription = num(row, 'subscription_id');
  const read = get(
    call(STATE, 'GET', `/subscriptions/${subscription}.json`, undefined, SITE.now).body,
    'subscription',
  );
  return {
    key: `${subscription}/${num(row, 'component_id')}`,
    subscription,
    family: num(row, 'product_family_id'),
    state:
      get(read, 'cancel_at_end_of_period') === true
        ? 'pending_cancellation'
        : str(row, 'subscription', 'state'),
    updated: str(row, 'updated_at'),
  };
});

const optional = <T>(arbitrary: fc.Arbitrary<T>) => fc.option(arbitrary, { nil: undefined });

const queryArb = fc.record({
  subscriptionIds: optional(fc.subarray([...SITE.subscriptions, 99], { minLength: 1 })),
  familyIds: optional(fc.subarray(SITE.families, { minLength: 1 })),
  states: optional(fc.subarray(['active', 'canceled', 'pending_cancellation', 'past_due'], { minLength: 1 })),
  sort: fc.constantFrom('id', 'updated_at'),
  descending: fc.boolean(),
  perPage: fc.integer({ min: 1, max: 4 }),
  page: fc.integer({ min: 1, max: 4 }),
});

type Query = typeof queryArb extends fc.Arbitrary<infer Q> ? Q : never;

function path(query: Query): string {
  const parts = [`per_page=${query.perPage}`, `page=${query.page}`, `sort=${query.sort}`];
  if (query.descending) parts.push('direction=desc');
  if (query.subscriptionIds !== undefined) parts.push(`subscription_ids=${query.subscriptionIds.join(',')}`);
  if (query.familyIds !== undefined) parts.push(`product_family_ids=${query.familyIds.join(',')}`);
  if (query.states !== undefined) parts.push(`filter[subscription][states]=${query.states.join(',')}`);
  return parts.join('&');
}

/** The model: filter the whole list, sort by row order or by updated_at (row order breaking ties), slice. */
function model(query: Query): string[] {
  const order = ALL.map((row, index) => ({ row, index }))
    .filter(({ row }) => {
      if (query.subscriptionIds !== undefined && !query.subscriptionIds.includes(row.subscription))
        return false;
      if (query.familyIds !== undefined && !query.familyIds.includes(row.family)) return false;
      // A subscription pending cancellation is still active.
      const states = row.state === 'pending_cancellation' ? ['pending_cancellation', 'active'] : [row.state];
      return query.states === undefined || states.some((state) => query.states?.includes(state));
    })
    .sort((x, y) => {
      const byTime = query.sort === 'id' ? 0 : Date.parse(x.row.updated) - Date.parse(y.row.updated);
      return (query.descending ? -1 : 1) * (byTime === 0 ? x.index - y.index : byTime);
    });
  return order.map(({ row }) => row.key).slice((query.page - 1) * query.perPage, query.page * query.perPage);
}

describe('GET /subscriptions_components.json: law', () => {
  test('the site holds six rows, one pending cancellation and one canceled subscription among them', () => {
    expect(ALL).toHaveLength(6);
    expect(new Set(ALL.map((row) => row.state))).toEqual(
      new Set(['active', 'canceled', 'pending_cancellation']),
    );
  });

  test.prop([queryArb], { numRuns: 200 })('a page of any filters is the model page', (query) => {
    const answered = call(STATE, 'GET', `/subscriptions_components.json?${path(query)}`, undefined, SITE.now);
    expect(answered.status).toBe(200);
    expect(answered.state).toBe(STATE);
    const keys = arr(answered.body, 'subscriptions_components').map(
      (row) => `${num(row, 'subscription_id')}/${num(row, 'component_id')}`,
    );
    expect(keys).toEqual(model(query));
  });
});
