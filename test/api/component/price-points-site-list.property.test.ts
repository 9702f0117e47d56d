/**
 * Law of the site-wide component price point listing: for any combination of its filters, paging and
 * direction, the page it answers is the page of a model that filters the whole list and sorts it by id,
 * so reading in id order and stopping early (at the page, or past a `created_at` range) loses nothing.
 */
import { test } from '@fast-check/vitest';
import fc from 'fast-check';
import { describe, expect } from 'vitest';
import type { SiteState } from '../../../src/index.js';
import { arr, call, get, num, str } from '../../helpers/api.js';
import { componentSite, createComponent } from '../../helpers/components.js';

const DAYS = ['2026-01-15', '2026-01-16', '2026-01-17', '2026-01-18'] as const;

/**
 * Three components created on day 1; each day after, one more price point on a component; on day 4 the
 * day-2 price point is archived and the day-3 one renamed (its `updated_at` moves, its `created_at` not).
 */
function buildSite(): SiteState {
  const s = componentSite({}, `${DAYS[0]}T09:00:00Z`);
  const components = [1, 2, 3].map(() => createComponent(s, 'quantity_based_component'));
  const extra: number[] = [];
  for (const [index, day] of DAYS.slice(1, 3).entries()) {
    s.at(`${day}T10:00:00Z`);
    const component = components[index] ?? 1;
    const body = s.ok('POST', `/components/${component}/price_points.json`, {
      price_point: {
        name: `Extra ${index}`,
        pricing_scheme: 'per_unit',
        prices: [{ starting_quantity: 1, unit_price: '2' }],
      },
    });
    extra.push(num(body, 'price_point', 'id'));
  }
  s.at(`${DAYS[3]}T11:00:00Z`);
  s.ok('DELETE', `/components/${components[0]}/price_points/${extra[0]}.json`);
  s.ok('PUT', `/components/${components[1]}/price_points/${extra[1]}.json`, {
    price_point: { name: 'Renamed' },
  });
  return s.state;
}

const STATE = buildSite();
const NOW = `${DAYS[3]}T12:00:00Z`;

interface Row {
  readonly id: number;
  readonly type: string;
  readonly archived: boolean;
  readonly created: number;
  readonly updated: number;
}

const ALL: readonly Row[] = arr(
  call(STATE, 'GET', '/components_price_points.json?per_page=200', undefined, NOW).body,
  'price_points',
).map((point) => ({
  id: num(point, 'id'),
  type: str(point, 'type'),
  archived: get(point, 'archived_at') !== null,
  created: Date.parse(str(point, 'created_at')),
  updated: Date.parse(str(point, 'updated_at')),
}));

const optional = <T>(arbitrary: fc.Arbitrary<T>) => fc.option(arbitrary, { nil: undefined });
const day = fc.constantFrom(...DAYS);
const hour = fc.integer({ min: 8, max: 12 });

const queryArb = fc.record({
  dateField: optional(fc.constantFrom('created_at', 'updated_at')),
  startDate: optional(day),
  endDate: optional(day),
  startDatetime: optional(fc.tuple(day, hour)),
  endDatetime: optional(fc.tuple(day, hour)),
  types: fc.subarray(['catalog', 'default', 'custom']),
  ids: optional(fc.subarray(ALL.map((row) => row.id).concat([99]))),
  archived: optional(fc.constantFrom('null', 'not_null')),
  descending: fc.boolean(),
  perPage: fc.integer({ min: 1, max: 4 }),
  page: fc.integer({ min: 1, max: 4 }),
});

type Query = typeof queryArb extends fc.Arbitrary<infer Q> ? Q : never;

const at = ([date, h]: readonly [string, number]) => `${date} ${String(h).padStart(2, '0')}:00:00`;

function path(query: Query): string {
  const parts = [`per_page=${query.perPage}`, `page=${query.page}`];
  if (query.descending) parts.push('direction=desc');
  if (query.dateField !== undefined) parts.push(`filter[date_field]=${query.dateField}`);
  if (query.startDate !== undefined) parts.push(`filter[start_date]=${query.startDate}`);
  if (query.endDate !== undefined) parts.push(`filter[end_date]=${query.endDate}`);
  if (query.startDatetime !== undefined) parts.push(`filter[start_datetime]=${at(query.startDatetime)}`);
  if (query.endDatetime !== undefined) parts.push(`filter[end_datetime]=${at(query.endDatetime)}`);
  if (query.types.length > 0) parts.push(`filter[type]=${query.types.join(',')}`);
  if (query.ids !== undefined) parts.push(`filter[ids]=${query.ids.join(',')}`);
  if (query.archived !== undefined) parts.push(`filter[archived_at]=${query.archived}`);
  return `/components_price_points.json?${parts.join('&')}`;
}

/** The model: the whole list filtered (the site is in UTC), sorted by id, then sliced. */
function model(query: Query): number[] {
  const DAY = 86_400_000;
  const start =
    query.startDatetime !== undefined
      ? Date.parse(`${at(query.startDatetime).replace(' ', 'T')}Z`)
      : query.startDate !== undefined
        ? Date.parse(`${query.startDate}T00:00:00Z`)
        : -Infinity;
  const end =
    query.endDatetime !== undefined
      ? Date.parse(`${at(query.endDatetime).replace(' ', 'T')}Z`) + 1000
      : query.endDate !== undefined
        ? Date.parse(`${query.endDate}T00:00:00Z`) + DAY
        : Infinity;
  const rows = ALL.filter((row) => {
    const stamp = query.dateField === 'created_at' ? row.created : row.updated;
    if (stamp < start || stamp >= end) return false;
    if (query.types.length > 0 && !query.types.includes(row.type)) return false;
    if (query.ids !== undefined && query.ids.length > 0 && !query.ids.includes(row.id)) return false;
    if (query.archived !== undefined && row.archived !== (query.archived === 'not_null')) return false;
    return true;
  })
    .map((row) => row.id)
    .sort((a, b) => (query.descending ? b - a : a - b));
  return rows.slice((query.page - 1) * query.perPage, query.page * query.perPage);
}

describe('GET /components_price_points.json: law', () => {
  test('the site has three default price points and two catalog ones, one archived', () => {
    expect(ALL.map((row) => [row.type, row.archived])).toEqual([
      ['default', false],
      ['default', false],
      ['default', false],
      ['catalog', true],
      ['catalog', false],
    ]);
  });

  test.prop([queryArb], { numRuns: 300 })('a page of any filters is the model page', (query) => {
    const answered = call(STATE, 'GET', path(query), undefined, NOW);
    expect(answered.status).toBe(200);
    expect(answered.state).toBe(STATE);
    const ids = arr(answered.body, 'price_points').map((point) => num(point, 'id'));
    expect(ids).toEqual(model(query));
  });
});
