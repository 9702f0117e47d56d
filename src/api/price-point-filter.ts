/**
 * The query of the site-wide price point listings (`/components_price_points.json` and
 * `/products_price_points.json`): paging, direction, `include=currency_prices` and the `filter[...]` keys
 * (date field and range, type, ids, archived or not); and one page of a price point table read in id
 * order, stopping at the page.
 */

import { type Table, tableGet, tableRows, tableRowsReverse } from '../kernel/collection.js';
import { parseId } from '../kernel/ids.js';
import { err, ok, type Result } from '../kernel/result.js';
import type { Instant } from '../kernel/time.js';
import { PAGING_QUERY, pageOf, paging } from './common.js';
import { DATE_RANGE_QUERY, type DateRange, readDateRange } from './date-range.js';
import { errorResponse } from './errors.js';
import type { QueryParams } from './query.js';
import type { RouteError } from './route.js';

/** What a price point row must carry to be filtered: both tables' rows have it. */
export interface FilterablePricePoint {
  readonly id: number;
  readonly type: string;
  readonly archivedAt: Instant | null;
  readonly createdAt: Instant;
  readonly updatedAt: Instant;
}

/** A site-wide price point listing request, decoded and validated. */
export interface PricePointFilter {
  readonly page: number;
  readonly perPage: number;
  readonly descending: boolean;
  readonly currencyPrices: boolean;
  readonly dateField: 'created_at' | 'updated_at';
  readonly range: DateRange;
  readonly types: ReadonlySet<string> | null;
  /** Ascending and without repeats, or null when not filtered. */
  readonly ids: readonly number[] | null;
  /** True: archived only; false: unarchived only; null: both. */
  readonly archived: boolean | null;
}

/** The query parameters the listings read. */
export const PRICE_POINT_LIST_QUERY = [
  ...PAGING_QUERY,
  'direction',
  'include',
  'filter.date_field',
  ...DATE_RANGE_QUERY.map((name): `filter.${typeof name}` => `filter.${name}`),
  'filter.type',
  'filter.ids',
  'filter.archived_at',
] as const;

/** The most ids `filter[ids]` may list. */
export const MAX_FILTER_IDS = 200;

const TYPES: ReadonlySet<string> = new Set(['catalog', 'default', 'custom']);

const bad = (message: string): RouteError => ({ response: errorResponse(422, message) });

const trimmed = (query: QueryParams, name: string): string | undefined => {
  const value = query.get(name)?.trim();
  return value === undefined || value === '' ? undefined : value;
};

/**
 * The sort direction of a listing: `asc` (the default) or `desc`.
 * @example readDirection(query) // ok(false) for ?direction=asc
 */
export function readDirection(query: QueryParams): Result<boolean, RouteError> {
  const direction = trimmed(query, 'direction') ?? 'asc';
  if (direction !== 'asc' && direction !== 'desc') return err(bad('direction: must be asc or desc'));
  return ok(direction === 'desc');
}

/**
 * A comma list of ids, ascending without repeats, at most `MAX_FILTER_IDS`; null when the parameter is
 * absent or blank (as a blank `filter[type]` filters nothing). `label` names it in errors.
 * @example readIds(query, 'filter.ids', 'filter[ids]') // ok([1, 2]) for ?filter[ids]=2,1,2
 */
export function readIds(
  query: QueryParams,
  name: string,
  label: string,
): Result<readonly number[] | null, RouteError> {
  const texts = query.list(name);
  if (texts.length === 0) return ok(null);
  const ids = new Set<number>();
  for (const text of texts) {
    const id = parseId(text);
    if (id === undefined) return err(bad(`${label}: must be a comma-separated list of ids`));
    ids.add(id);
    if (ids.size > MAX_FILTER_IDS) return err(bad(`${label}: must list at most ${MAX_FILTER_IDS} ids`));
  }
  return ok([...ids].sort((a, b) => a - b));
}

function readArchived(query: QueryParams): Result<boolean | null, RouteError> {
  const text = trimmed(query, 'filter.archived_at');
  if (text === undefined) return ok(null);
  if (text !== 'null' && text !== 'not_null')
    return err(bad('filter[archived_at]: must be null or not_null'));
  return ok(text === 'not_null');
}

function readTypes(query: QueryParams): Result<ReadonlySet<string> | null, RouteError> {
  const types = query.list('filter.type');
  if (types.length === 0) return ok(null);
  if (types.some((type) => !TYPES.has(type)))
    return err(bad('filter[type]: must list catalog, default or custom'));
  return ok(new Set(types));
}

function readInclude(query: QueryParams): Result<boolean, RouteError> {
  const included = query.list('include');
  if (included.some((name) => name !== 'currency_prices'))
    return err(bad('include: must be currency_prices'));
  return ok(included.length > 0);
}

/**
 * Reads a site-wide price point listing's query; dates are read in the site `zone`.
 * @example readPricePointFilter(query, 'UTC') // ok({ page: 1, perPage: 20, descending: false, ... })
 */
export function readPricePointFilter(query: QueryParams, zone: string): Result<PricePointFilter, RouteError> {
  const page = paging(query);
  if (!page.ok) return page;
  const descending = readDirection(query);
  if (!descending.ok) return descending;
  const currencyPrices = readInclude(query);
  if (!currencyPrices.ok) return currencyPrices;
  const dateField = trimmed(query, 'filter.date_field') ?? 'updated_at';
  if (dateField !== 'created_at' && dateField !== 'updated_at')
    return err(bad('filter[date_field]: must be created_at or updated_at'));
  const range = readDateRange(
    (name) => trimmed(query, `filter.${name}`),
    zone,
    (name) => `filter[${name}]`,
  );
  if (!range.ok) return range;
  const types = readTypes(query);
  if (!types.ok) return types;
  const ids = readIds(query, 'filter.ids', 'filter[ids]');
  if (!ids.ok) return ids;
  const archived = readArchived(query);
  if (!archived.ok) return archived;
  return ok({
    ...page.value,
    descending: descending.value,
    currencyPrices: currencyPrices.value,
    dateField,
    range: range.value,
    types: types.value,
    ids: ids.value,
    archived: archived.value,
  });
}

/** Whether a price point passes the filters (paging aside). */
function matches(point: FilterablePricePoint, filter: PricePointFilter): boolean {
  if (filter.archived !== null && (point.archivedAt !== null) !== filter.archived) return false;
  if (filter.types !== null && !filter.types.has(point.type)) return false;
  const stamped = filter.dateField === 'created_at' ? point.createdAt : point.updatedAt;
  const { start, end } = filter.range;
  return (start === null || stamped >= start) && (end === null || stamped < end);
}

/**
 * Whether no later row in the reading order can fall in a `created_at` range: rows are created in id
 * order, so their creation instants never fall as ids rise.
 */
function pastCreatedRange(point: FilterablePricePoint, filter: PricePointFilter): boolean {
  if (filter.dateField !== 'created_at') return false;
  const { start, end } = filter.range;
  return filter.descending
    ? start !== null && point.createdAt < start
    : end !== null && point.createdAt >= end;
}

function* candidates<T extends FilterablePricePoint>(
  table: Table<T>,
  filter: PricePointFilter,
): Generator<T> {
  if (filter.ids !== null) {
    const ids = filter.descending ? [...filter.ids].reverse() : filter.ids;
    for (const id of ids) {
      const row = tableGet(table, id);
      if (row !== undefined) yield row;
    }
    return;
  }
  yield* filter.descending ? tableRowsReverse(table) : tableRows(table);
}

/**
 * One page of the price points of `table` that pass the filters, in id order (newest first when
 * descending). The rows are read in id order and the reading stops once the page is full, or when a
 * `created_at` range is passed; with `filter[ids]` only the named rows are read.
 * @example pageOfPricePoints(state.tables.componentPricePoints, filter).map((point) => point.id)
 */
export function pageOfPricePoints<T extends FilterablePricePoint>(
  table: Table<T>,
  filter: PricePointFilter,
): T[] {
  const matching = function* () {
    for (const point of candidates(table, filter)) {
      if (pastCreatedRange(point, filter)) return;
      if (matches(point, filter)) yield point;
    }
  };
  return pageOf(matching(), filter.page, filter.perPage);
}
